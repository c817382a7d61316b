import { exportWalletMutationOptions } from '../queries.js';
import { useKitMutation } from '../provider/hooks.js';
import { SecretReveal } from './SecretReveal.js';

/**
 * Export a wallet's recovery phrase: shown only after confirmation, decrypted by the client in
 * this browser (never sent anywhere), with a copy button and a hide button that forgets it.
 * @example <ExportButton walletId={w.walletId} walletName={w.walletName} />
 */
export function ExportButton({ walletId, walletName }: { walletId: string; walletName: string }) {
  const exporter = useKitMutation((c) => exportWalletMutationOptions(c));
  return (
    <SecretReveal
      exporter={exporter}
      input={walletId}
      buttonLabel={`Export ${walletName}`}
      title="Show the recovery phrase?"
      confirmLabel="Show recovery phrase"
      warning={`Recovery phrase of ${walletName}. Anyone who sees it controls the wallet.`}
      secretLabel="Recovery phrase"
      testId="wk-mnemonic"
      copyable
    />
  );
}
