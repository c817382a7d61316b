import { useQuery } from '@tanstack/react-query';
import { walletKitKeys } from '../queries.js';
import { useKitQueryClient, useWalletKitContext } from '../provider/context.js';
import { useSession } from '../provider/hooks.js';
import { SecretFrameExport } from './SecretFrame.js';

/**
 * The user's imported private keys, each with its address and an export through the secret
 * frame. Renders nothing until a key exists.
 * @example <PrivateKeyList />
 */
export function PrivateKeyList() {
  const { client } = useWalletKitContext();
  const orgId = useSession().session?.organizationId ?? '';
  const keys = useQuery(
    { queryKey: walletKitKeys.privateKeys(orgId), queryFn: () => client.wallet.listPrivateKeys(), enabled: orgId !== '' },
    useKitQueryClient(),
  );
  if (!keys.data?.length) return null;
  return (
    <ul className="wk-list" aria-label="Private keys">
      {keys.data.map((k) => {
        const address = k.addresses[0]?.address ?? '';
        return (
          <li key={k.privateKeyId} className="wk-stack">
            <span>
              {k.privateKeyName} <code className="wk-code">{address}</code>
            </span>
            <SecretFrameExport
              target={{ privateKeyId: k.privateKeyId }}
              buttonLabel="Export key"
              buttonAriaLabel={`Export private key ${k.privateKeyName}`}
              title="Show the private key?"
              confirmLabel="Show private key"
              content={address}
              warning={`Private key ${k.privateKeyName}. Anyone who sees it controls ${address}.`}
              hideAriaLabel={`Hide private key ${k.privateKeyName}`}
            />
          </li>
        );
      })}
    </ul>
  );
}
