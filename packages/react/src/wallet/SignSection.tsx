import { useId, useState } from 'react';
import { ErrorText } from '../auth/ErrorText.js';
import { useI18n } from '../i18n/context.js';
import { useKitMutation } from '../provider/hooks.js';
import { signMessageMutationOptions, signTypedDataMutationOptions } from '../queries.js';
import { CopyButton } from './CopyButton.js';

/**
 * Sign a message (EIP-191) or EIP-712 typed data (JSON) with the selected account. The client
 * asks the kit's confirmation dialog first, as for every signature (not a dialog of its own:
 * one confirmation per signature, the same one a dApp's request gets).
 * @example <SignSection address="0xabc.." />
 */
export function SignSection({ address }: { address: string }) {
  const id = useId();
  const { t } = useI18n();
  const [message, setMessage] = useState('');
  const [typedJson, setTypedJson] = useState('');
  const [jsonError, setJsonError] = useState<string>();
  const signMessage = useKitMutation((c) => signMessageMutationOptions(c));
  const signTyped = useKitMutation((c) => signTypedDataMutationOptions(c));
  const busy = signMessage.isPending || signTyped.isPending;
  const signature = signMessage.data ?? signTyped.data;

  const sign = () => {
    signTyped.reset();
    signMessage.mutate({ address, message });
  };
  const signTypedJson = () => {
    let typedData: unknown;
    try {
      typedData = JSON.parse(typedJson);
    } catch {
      setJsonError(t('wallet.signInvalidJson'));
      return;
    }
    setJsonError(undefined);
    signMessage.reset();
    signTyped.mutate({ address, typedData });
  };

  return (
    <div className="wk-stack">
      <p className="wk-hint">{t('wallet.signIntro')}</p>
      <p className="wk-hint">
        {t('wallet.signWith')} <span className="wk-mono">{address}</span>
      </p>
      <section className="wk-stack wk-surface" aria-labelledby={`${id}-msg-h`}>
        <h3 id={`${id}-msg-h`} className="wk-card-title">
          {t('wallet.signMessageTitle')}
        </h3>
        <label className="wk-label" htmlFor={`${id}-msg`}>
          {t('wallet.signMessageLabel')}
        </label>
        <textarea id={`${id}-msg`} className="wk-input" rows={3} value={message} onChange={(e) => setMessage(e.currentTarget.value)} />
        <div className="wk-row">
          <button type="button" className="wk-button" data-variant="primary" disabled={busy || message === ''} onClick={sign}>
            {t('wallet.signMessage')}
          </button>
        </div>
      </section>
      <section className="wk-stack wk-surface" aria-labelledby={`${id}-typed-h`}>
        <h3 id={`${id}-typed-h`} className="wk-card-title">
          {t('wallet.signTypedTitle')}
        </h3>
        <label className="wk-label" htmlFor={`${id}-typed`}>
          {t('wallet.signTypedLabel')}
        </label>
        <textarea
          id={`${id}-typed`}
          className="wk-input wk-mono"
          dir="ltr"
          rows={4}
          spellCheck={false}
          value={typedJson}
          onChange={(e) => setTypedJson(e.currentTarget.value)}
          aria-invalid={jsonError ? true : undefined}
          aria-describedby={jsonError ? `${id}-json-error` : undefined}
        />
        <ErrorText error={jsonError} id={`${id}-json-error`} />
        <div className="wk-row">
          <button type="button" className="wk-button" disabled={busy || typedJson === ''} onClick={signTypedJson}>
            {t('wallet.signTypedData')}
          </button>
        </div>
      </section>
      {busy && (
        <p className="wk-hint" role="status">
          {t('wallet.signPending')}
        </p>
      )}
      <ErrorText error={signMessage.error ?? signTyped.error} />
      {signature && (
        <div className="wk-stack wk-success">
          <span className="wk-label" id={`${id}-sig`}>
            {t('wallet.signature')}
          </span>
          <output className="wk-code" aria-labelledby={`${id}-sig`} data-testid="wk-signature">
            {signature}
          </output>
          <div className="wk-row">
            <CopyButton text={signature} label={t('wallet.copySignature')} copied={t('wallet.signatureCopied')} failed={t('wallet.copyFailed')} />
          </div>
        </div>
      )}
    </div>
  );
}
