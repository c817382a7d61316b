import { SecretFrameExport } from './SecretFrame.js';

/**
 * Export one account's private key: shown only after confirmation, inside the secret frame (another
 * origin: decrypted and shown there; this page never holds it).
 * @example <AccountKeyExport address={account.address} />
 */
export function AccountKeyExport({ address }: { address: string }) {
  return (
    <SecretFrameExport
      target={{ address }}
      buttonLabel="Export key"
      buttonAriaLabel={`Export key of ${address}`}
      title="Show the private key?"
      confirmLabel="Show private key"
      content={address}
      warning={`Private key of ${address}. Anyone who sees it controls this account.`}
      hideAriaLabel={`Hide private key of ${address}`}
    />
  );
}
