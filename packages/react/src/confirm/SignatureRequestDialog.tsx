import { useEffect, useRef, type MouseEvent } from 'react';
import type { ChainConfig, SignatureRequest } from '@walletkit/client';
import { FailureBoundary } from '../components/FailureBoundary.js';
import { Modal } from '../components/Modal.js';
import type { Translator } from '../i18n/catalog.js';
import { useI18n } from '../i18n/context.js';
import { Fields, Warning } from './parts.js';
import { RequestDetails } from './RequestDetails.js';
import { english } from './words.js';

/** Props of {@link SignatureRequestDialog}. */
export interface SignatureRequestDialogProps {
  /** The request to show; the dialog is open while there is one. */
  request: SignatureRequest | undefined;
  onApprove: () => void;
  /** Decline: the Decline button, the close button and Escape. */
  onDecline: () => void;
  /** The kit's chains, to name chain ids (typed-data domains, authorizations). */
  chains?: readonly ChainConfig[] | undefined;
  /** How many more requests wait after this one. */
  waiting?: number | undefined;
}

/**
 * The question and the approve button's verb, per kind, in the translator's language.
 * @example requestWording({ kind: 'message', ... }) // { title: 'Sign this message?', approve: 'Sign' }
 */
export function requestWording(request: SignatureRequest, translator: Translator = english): { title: string; approve: string } {
  const { t } = translator;
  const sign = t('confirm.sign');
  const send = t('confirm.send');
  switch (request.kind) {
    case 'message':
      return { title: t('confirm.titleMessage'), approve: sign };
    case 'typedData':
      return { title: t('confirm.titleTypedData'), approve: sign };
    case 'transaction':
      return request.send ? { title: t('confirm.titleSendTransaction'), approve: send } : { title: t('confirm.titleSignTransaction'), approve: sign };
    case 'authorization':
      return { title: t('confirm.titleAuthorization'), approve: sign };
    case 'solanaTransaction':
      return request.send ? { title: t('confirm.titleSendSolana'), approve: send } : { title: t('confirm.titleSignSolana'), approve: sign };
  }
}

/**
 * The one confirmation of the kit: any {@link SignatureRequest} in words people can read (the
 * app asking, the account, then what the request does), with Approve (labelled by its verb:
 * Sign or Send) and Decline. Escape and the close button decline. `WalletKitProvider` renders
 * it (loaded apart from the kit's first chunk) for the requests of its client; render it
 * yourself over your own queue or state.
 * @example
 * <SignatureRequestDialog request={request} onApprove={resolve} onDecline={() => reject(userRejected())} chains={chains} />
 */
export function SignatureRequestDialog({ request, onApprove, onDecline, chains = [], waiting = 0 }: SignatureRequestDialogProps) {
  const translator = useI18n();
  // One key per request: the next request in a queue mounts fresh (no state carried over).
  const keys = useRef(new WeakMap<SignatureRequest, number>());
  const next = useRef(0);
  let key: number | undefined;
  if (request) {
    key = keys.current.get(request);
    if (key === undefined) {
      key = next.current++;
      keys.current.set(request, key);
    }
  }
  return (
    <Modal
      open={request !== undefined}
      onClose={onDecline}
      title={request ? requestWording(request, translator).title : ''}
      closeLabel={translator.t('confirm.closeAndDecline')}
    >
      {request && <RequestContent key={key} request={request} onApprove={onApprove} onDecline={onDecline} chains={chains} waiting={waiting} />}
    </Modal>
  );
}

function RequestContent({
  request,
  onApprove,
  onDecline,
  chains,
  waiting,
}: Pick<SignatureRequestDialogProps, 'onApprove' | 'onDecline'> & {
  request: SignatureRequest;
  chains: readonly ChainConfig[];
  waiting: number;
}) {
  const translator = useI18n();
  const { t } = translator;
  const wording = requestWording(request, translator);
  const ref = useRef<HTMLDivElement>(null);
  // A request that follows another replaces the content the focus was in: move focus to it, so
  // keyboard and screen-reader users land on the new question (the first one gets the
  // dialog's own initial focus).
  useEffect(() => {
    const dialog = ref.current?.closest('dialog');
    if (dialog?.open && !ref.current?.contains(document.activeElement)) ref.current?.focus();
  }, []);
  // The second click of a double click would land on the next request's button, in the same
  // place: only a single click (or a key press, detail 0) approves.
  const approve = (e: MouseEvent) => {
    if (e.detail <= 1) onApprove();
  };
  const decline = (
    <button type="button" className="wk-button" data-testid="wk-confirm-decline" onClick={onDecline}>
      {t('confirm.decline')}
    </button>
  );
  const unreadable = <Warning title={t('confirm.unreadableTitle')}>{t('confirm.unreadableHint')}</Warning>;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a named group that takes focus when a request replaces another, not a form's fieldset
    <div ref={ref} className="wk-stack" role="group" aria-label={wording.title} tabIndex={-1} data-testid="wk-confirmation" data-kind={request.kind}>
      <Fields
        rows={[
          { label: t('confirm.requestedBy'), value: request.origin ?? t('confirm.thisApp'), testId: 'wk-confirm-origin' },
          ...(request.kind === 'transaction' ? [] : [{ label: t('confirm.account'), value: request.address, mono: true }]),
        ]}
      />
      {/* A request no view can render offers Decline only: nothing is approved unread. */}
      <FailureBoundary
        fallback={
          <>
            {unreadable}
            {decline}
          </>
        }
      >
        <RequestDetails request={request} chains={chains} />
        {waiting > 0 && (
          <p className="wk-hint" role="status">
            {translator.plural('confirm.waiting', waiting)}
          </p>
        )}
        <div className="wk-row">
          <button type="button" className="wk-button" data-variant="primary" data-testid="wk-confirm-approve" onClick={approve}>
            {wording.approve}
          </button>
          {decline}
        </div>
      </FailureBoundary>
    </div>
  );
}
