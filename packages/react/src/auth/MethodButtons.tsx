import { oauthProvider } from '@walletkit/protocol/wire';
import type { OAuthProviderName } from '../client-contract.js';
import { connectWalletMutationOptions, oauthLoginMutationOptions, passkeyMutationOptions } from '../queries.js';
import { useWalletKitContext } from '../provider/context.js';
import { useKitMutation } from '../provider/hooks.js';
import { ErrorText } from './ErrorText.js';
import { useInjectedWallets } from './useInjectedWallets.js';

/**
 * "Continue with Google" (Apple, X, Discord). The click handler calls the client directly, so
 * the popup opens inside the user gesture (browsers block popups opened later).
 * @example <OAuthButton provider="google" onDone={close} />
 */
export function OAuthButton({ provider, onDone }: { provider: OAuthProviderName; onDone: () => void }) {
  const { client } = useWalletKitContext();
  const login = useKitMutation(() => oauthLoginMutationOptions());
  return (
    <div className="wk-stack">
      <button
        type="button"
        className="wk-button"
        disabled={login.isPending}
        onClick={() => login.mutate(client.auth.logInWithOAuth(provider), { onSuccess: onDone })}
      >
        Continue with {oauthProvider(provider).name}
      </button>
      <ErrorText error={login.error} />
    </div>
  );
}

/**
 * Passkey log-in and sign-up (WebAuthn through the client).
 * @example <PasskeyButtons onDone={close} />
 */
export function PasskeyButtons({ onDone }: { onDone: () => void }) {
  const passkey = useKitMutation((c) => passkeyMutationOptions(c));
  const run = (mode: 'login' | 'signup') => passkey.mutate({ mode }, { onSuccess: onDone });
  return (
    <div className="wk-stack">
      <button type="button" className="wk-button" disabled={passkey.isPending} onClick={() => run('login')}>
        Log in with a passkey
      </button>
      <button type="button" className="wk-button" disabled={passkey.isPending} onClick={() => run('signup')}>
        Sign up with a passkey
      </button>
      <ErrorText error={passkey.error} />
    </div>
  );
}

/**
 * One button per browser wallet announced through EIP-6963.
 * @example <ExternalWalletButtons onDone={close} />
 */
export function ExternalWalletButtons({ onDone }: { onDone: () => void }) {
  const { client } = useWalletKitContext();
  const wallets = useInjectedWallets();
  const connect = useKitMutation(() => connectWalletMutationOptions());
  if (wallets.length === 0) return <p className="wk-hint">No browser wallet found. Install one, then reload this page.</p>;
  return (
    <div className="wk-stack">
      {wallets.map((w) => (
        <button
          key={w.info.uuid}
          type="button"
          className="wk-button"
          disabled={connect.isPending}
          onClick={() => connect.mutate(client.auth.connectWallet!(w.provider), { onSuccess: onDone })}
        >
          <img className="wk-icon" src={w.info.icon} alt="" />
          Continue with {w.info.name}
        </button>
      ))}
      <ErrorText error={connect.error} />
    </div>
  );
}
