import { exportAccountMutationOptions } from '../queries.js';
import { useKitMutation } from '../provider/hooks.js';
import { SecretReveal } from './SecretReveal.js';

/**
 * Export one account's private key: shown only after confirmation, decrypted by the client in
 * this browser (never sent anywhere, never cached), with a hide button that forgets it.
 * @example <AccountKeyExport address={account.address} />
 */
export function AccountKeyExport({ address }: { address: string }) {
  const exporter = useKitMutation((c) => exportAccountMutationOptions(c));
  return (
    <SecretReveal
      exporter={exporter}
      input={address}
      buttonLabel="Export key"
      buttonAriaLabel={`Export key of ${address}`}
      title="Show the private key?"
      confirmLabel="Show private key"
      content={address}
      warning={`Private key of ${address}. Anyone who sees it controls this account.`}
      secretLabel={`Private key of ${address}`}
      testId="wk-private-key"
      hideAriaLabel={`Hide private key of ${address}`}
    />
  );
}
