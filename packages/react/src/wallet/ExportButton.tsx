import { useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorText } from '../auth/ErrorText';
import { exportWalletMutationOptions } from '../queries';
import { useKitMutation } from '../provider/hooks';

/**
 * Export a wallet's recovery phrase: shown only after confirmation, decrypted by the client in
 * this browser (never sent anywhere), with a copy button and a hide button that forgets it.
 * @example <ExportButton walletId={w.walletId} walletName={w.walletName} />
 */
export function ExportButton({ walletId, walletName }: { walletId: string; walletName: string }) {
  const [asking, setAsking] = useState(false);
  const [copied, setCopied] = useState(false);
  const exporter = useKitMutation((c) => exportWalletMutationOptions(c));

  if (exporter.data) {
    return (
      <div className="wk-stack">
        <p className="wk-hint">Recovery phrase of {walletName}. Anyone who sees it controls the wallet.</p>
        <pre className="wk-code" data-testid="wk-mnemonic" tabIndex={0} aria-label="Recovery phrase">
          {exporter.data}
        </pre>
        <div className="wk-row">
          <button
            type="button"
            className="wk-button"
            onClick={() => navigator.clipboard?.writeText(exporter.data).then(() => setCopied(true), () => setCopied(false))}
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
          <button type="button" className="wk-button" onClick={() => exporter.reset()}>
            Hide
          </button>
        </div>
      </div>
    );
  }
  return (
    <>
      <button type="button" className="wk-button" onClick={() => setAsking(true)}>
        Export {walletName}
      </button>
      <ErrorText error={exporter.error} />
      <ConfirmDialog
        open={asking}
        title="Show the recovery phrase?"
        description="It is decrypted in this browser and never sent anywhere. Make sure no one can see your screen."
        confirmLabel="Show recovery phrase"
        busy={exporter.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={() => exporter.mutate(walletId, { onSettled: () => setAsking(false) })}
      />
    </>
  );
}
