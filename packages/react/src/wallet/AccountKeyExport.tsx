import { useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorText } from '../auth/ErrorText';
import { exportAccountMutationOptions } from '../queries';
import { useKitMutation } from '../provider/hooks';

/**
 * Export one account's private key: shown only after confirmation, decrypted by the client in
 * this browser (never sent anywhere, never cached), with a hide button that forgets it.
 * @example <AccountKeyExport address={account.address} />
 */
export function AccountKeyExport({ address }: { address: string }) {
  const [asking, setAsking] = useState(false);
  const exporter = useKitMutation((c) => exportAccountMutationOptions(c));

  if (exporter.data) {
    return (
      <div className="wk-stack">
        <p className="wk-hint">Private key of {address}. Anyone who sees it controls this account.</p>
        <pre className="wk-code" data-testid="wk-private-key" tabIndex={0} aria-label={`Private key of ${address}`}>
          {exporter.data}
        </pre>
        <div className="wk-row">
          <button type="button" className="wk-button" aria-label={`Hide private key of ${address}`} onClick={() => exporter.reset()}>
            Hide
          </button>
        </div>
      </div>
    );
  }
  return (
    <>
      <button type="button" className="wk-button" aria-label={`Export key of ${address}`} onClick={() => setAsking(true)}>
        Export key
      </button>
      <ErrorText error={exporter.error} />
      <ConfirmDialog
        open={asking}
        title="Show the private key?"
        description="It is decrypted in this browser and never sent anywhere. Make sure no one can see your screen."
        content={address}
        confirmLabel="Show private key"
        busy={exporter.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={() => exporter.mutate(address, { onSettled: () => setAsking(false) })}
      />
    </>
  );
}
