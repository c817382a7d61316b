import type { ChainConfig, SignatureRequest } from '@walletkit/client';
import { chainLabel } from './chain.js';
import { Fields, Warning } from './parts.js';

type Authorization = Extract<SignatureRequest, { kind: 'authorization' }>['authorization'];

/** EIP-7702: chain id 0 makes an authorization valid on every chain. */
const where = (a: Authorization, chains: readonly ChainConfig[]) => (a.chainId === 0 ? 'every chain' : chainLabel(a.chainId, chains));

/**
 * The warning an EIP-7702 delegation deserves, alone or inside a type-4 transaction: the
 * contract gets the account's full power until another delegation replaces it.
 * @example <AuthorizationWarning authorization={{ chainId: 1, address, nonce: 0n }} chains={chains} />
 */
export function AuthorizationWarning({ authorization, chains }: { authorization: Authorization; chains: readonly ChainConfig[] }) {
  return (
    <Warning title={`Delegate your account to ${authorization.address} on ${where(authorization, chains)}.`}>
      That contract's code will run as your account: it can move everything the account holds, on {authorization.chainId === 0 ? 'every chain' : 'this chain'},
      until you delegate elsewhere. Sign only if you trust this contract completely.
    </Warning>
  );
}

/**
 * An EIP-7702 authorization request: the contract, the chain (or every chain), the nonce.
 * @example <AuthorizationDetails authorization={request.authorization} chains={chains} />
 */
export function AuthorizationDetails({ authorization, chains }: { authorization: Authorization; chains: readonly ChainConfig[] }) {
  return (
    <>
      <Fields
        label="Delegation"
        rows={[
          { label: 'Delegate to', value: authorization.address, mono: true, testId: 'wk-confirm-delegate' },
          { label: 'Network', value: where(authorization, chains), testId: 'wk-confirm-network' },
          { label: 'Nonce', value: authorization.nonce.toString(), mono: true },
        ]}
      />
      <AuthorizationWarning authorization={authorization} chains={chains} />
    </>
  );
}
