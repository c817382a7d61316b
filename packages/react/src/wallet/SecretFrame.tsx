import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { ErrorText } from '../auth/ErrorText.js';
import { useI18n } from '../i18n/context.js';
import { useWalletKitContext } from '../provider/context.js';
import { notify } from '../provider/hooks.js';
import { useKitOptions } from '../provider/options.js';
import { useFrameLocale } from './frame-locale.js';

/** Props of {@link SecretFrameExport}: what to export and the words around it. */
export interface SecretFrameExportProps {
  target: { walletId: string } | { address: string } | { privateKeyId: string };
  /** The button that asks (and its accessible name when it differs). */
  buttonLabel: string;
  buttonAriaLabel?: string | undefined;
  /** The confirmation dialog. */
  title: string;
  confirmLabel: string;
  content?: string | undefined;
  /** Shown above the frame. */
  warning: string;
  hideAriaLabel?: string | undefined;
}

/**
 * A recovery phrase or private key shown after confirmation inside the secret frame: an iframe on
 * the frames origin that makes its own key, decrypts the export and shows it with a copy button,
 * in the kit's language. The secret never enters this page (scripts here cannot read it). Hide
 * removes the frame.
 * @example <SecretFrameExport target={{ walletId }} buttonLabel="Show recovery phrase" title="Show the recovery phrase?" confirmLabel="Show recovery phrase" warning="…" />
 */
export function SecretFrameExport(props: SecretFrameExportProps) {
  const { client } = useWalletKitContext();
  const { t, locale } = useI18n();
  const { onError } = useKitOptions();
  const report = useRef(onError);
  report.current = onError;
  const [asking, setAsking] = useState(false);
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<{ status: 'idle' | 'loading' | 'shown' } | { status: 'error'; error: unknown }>({ status: 'idle' });
  const container = useRef<HTMLDivElement>(null);
  const key = JSON.stringify(props.target);
  useFrameLocale(container, locale, open, t('walletId' in props.target ? 'wallet.frameTitlePhrase' : 'wallet.frameTitleKey'));

  useEffect(() => {
    if (!open || !container.current) return;
    let live = true;
    setState({ status: 'loading' });
    client.wallet.exportInFrame(container.current, JSON.parse(key) as SecretFrameExportProps['target']).then(
      () => live && setState({ status: 'shown' }),
      (error: unknown) => {
        if (!live) return;
        setState({ status: 'error', error });
        notify(report.current, error); // the integrator hears it too, as for every failed action
      },
    );
    return () => {
      live = false;
    };
  }, [open, client, key]);

  if (open) {
    return (
      <div className="wk-stack wk-secret">
        <p className="wk-warning">{props.warning}</p>
        {state.status === 'loading' && (
          <p className="wk-hint" role="status">
            {t('wallet.frameOpening')}
          </p>
        )}
        {state.status === 'error' && <ErrorText error={state.error} />}
        <div ref={container} className="wk-frame-host" />
        <div className="wk-row">
          <button
            type="button"
            className="wk-button"
            aria-label={props.hideAriaLabel}
            onClick={() => {
              setOpen(false);
              setState({ status: 'idle' });
            }}
          >
            {t('wallet.hide')}
          </button>
        </div>
      </div>
    );
  }
  return (
    <>
      <button type="button" className="wk-button" aria-label={props.buttonAriaLabel} onClick={() => setAsking(true)}>
        {props.buttonLabel}
      </button>
      <ConfirmDialog
        open={asking}
        title={props.title}
        description={t('wallet.exportDescription')}
        content={props.content}
        confirmLabel={props.confirmLabel}
        cancelLabel={t('common.cancel')}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          setOpen(true);
        }}
      />
    </>
  );
}
