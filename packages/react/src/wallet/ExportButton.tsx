import { SecretFrameExport } from './SecretFrame.js';

/**
 * Export a wallet's recovery phrase: shown only after confirmation, inside the secret frame (another
 * origin: decrypted and shown there, with its own copy button; this page never holds it).
 * @example <ExportButton walletId={w.walletId} walletName={w.walletName} />
 */
export function ExportButton({ walletId, walletName }: { walletId: string; walletName: string }) {
  return (
    <SecretFrameExport
      target={{ walletId }}
      buttonLabel={`Export ${walletName}`}
      title="Show the recovery phrase?"
      confirmLabel="Show recovery phrase"
      warning={`Recovery phrase of ${walletName}. Anyone who sees it controls the wallet.`}
      hideAriaLabel={`Hide recovery phrase of ${walletName}`}
    />
  );
}
