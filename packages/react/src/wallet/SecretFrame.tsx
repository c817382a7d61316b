import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { ErrorText } from '../auth/ErrorText.js';
import { useWalletKitContext } from '../provider/context.js';

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
 * the frames origin that makes its own key, decrypts the export and shows it with a copy button.
 * The secret never enters this page (scripts here cannot read it). Hide removes the frame.
 * @example <SecretFrameExport target={{ walletId }} buttonLabel="Export Main" title="Show the recovery phrase?" confirmLabel="Show recovery phrase" warning="…" />
 */
export function SecretFrameExport(props: SecretFrameExportProps) {
  const { client } = useWalletKitContext();
  const [asking, setAsking] = useState(false);
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<{ status: 'idle' | 'loading' | 'shown' } | { status: 'error'; error: unknown }>({ status: 'idle' });
  const container = useRef<HTMLDivElement>(null);
  const key = JSON.stringify(props.target);

  useEffect(() => {
    if (!open || !container.current) return;
    let live = true;
    setState({ status: 'loading' });
    client.wallet.exportInFrame(container.current, JSON.parse(key) as SecretFrameExportProps['target']).then(
      () => live && setState({ status: 'shown' }),
      (error: unknown) => live && setState({ status: 'error', error }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one export per opening
  }, [open, client, key]);

  if (open) {
    return (
      <div className="wk-stack">
        <p className="wk-hint">{props.warning}</p>
        {state.status === 'loading' && (
          <p className="wk-hint" role="status">
            Opening a secure frame…
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
            Hide
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
        description="It is decrypted and shown in a secure frame that this site's scripts cannot read. Make sure no one can see your screen."
        content={props.content}
        confirmLabel={props.confirmLabel}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          setOpen(true);
        }}
      />
    </>
  );
}
