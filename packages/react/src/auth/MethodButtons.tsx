import { mutationOptions } from '@tanstack/react-query';
import { type DiscoveredWallet, preloadPasskeySupport } from '@walletkit/client';
import { oauthProvider } from '@walletkit/protocol/wire';
import { type ReactNode, useEffect } from 'react';
import type { OAuthProviderName } from '../client-contract.js';
import { useI18n } from '../i18n/context.js';
import { useWalletKitContext } from '../provider/context.js';
import { useKitMutation } from '../provider/hooks.js';
import { passkeyMutationOptions } from '../queries.js';
import { ErrorText } from './ErrorText.js';
import { LOGIN_MUTATION_KEY, useLoginRunning } from './flow.js';
import { PasskeyIcon, ProviderIcon, Spinner, WalletIcon } from './icons.js';

/** A running button: focus stays on it (not `disabled`), it says so, and a second click does nothing. */
function busyProps(busy: boolean) {
  return busy ? { 'aria-busy': true, 'aria-disabled': true } : {};
}

/** A popup or wallet prompt already under way: the variable is the client call's promise, made inside the click. */
function pendingLoginOptions<V extends { pending: Promise<unknown> }>(method: string) {
  return mutationOptions({ mutationKey: [...LOGIN_MUTATION_KEY, method], mutationFn: (v: V) => v.pending });
}

/**
 * Social providers, in the given order, each with its mark: full-width buttons ("Continue with
 * Google"), or, for more than two, one row of mark buttons whose accessible name (and tooltip) is
 * that same sentence. The click handler calls the client directly, so the popup opens inside the
 * user gesture (browsers block popups opened later).
 * @example <SocialButtons providers={['google', 'apple', 'x']} onDone={close} />
 */
export function SocialButtons({ providers, lead = false, onDone }: { providers: readonly OAuthProviderName[]; lead?: boolean; onDone: () => void }) {
  const { t } = useI18n();
  const { client } = useWalletKitContext();
  const running = useLoginRunning();
  const login = useKitMutation(() => pendingLoginOptions<{ provider: OAuthProviderName; pending: Promise<unknown> }>('oauth'));
  const compact = providers.length > 2;
  const active = login.isPending ? login.variables?.provider : undefined;
  const failed = login.isError ? login.variables?.provider : undefined;
  const buttons = providers.map((provider) => {
    const name = oauthProvider(provider).name;
    const label = t('auth.continueWith', { name });
    return (
      <button
        key={provider}
        type="button"
        className="wk-button"
        data-variant={lead ? 'primary' : undefined}
        data-provider={provider}
        disabled={running && active !== provider}
        {...busyProps(active === provider)}
        {...(compact ? { 'aria-label': label, title: label } : {})}
        onClick={() => {
          if (running) return;
          login.mutate({ provider, pending: client.auth.logInWithOAuth(provider) }, { onSuccess: onDone });
        }}
      >
        {active === provider ? <Spinner /> : <ProviderIcon provider={provider} />}
        {!compact && label}
      </button>
    );
  });
  return (
    <div className="wk-stack">
      {compact ? <div className="wk-social-row">{buttons}</div> : buttons}
      {active && (
        <p className="wk-hint" role="status">
          {t('auth.waitingFor', { name: oauthProvider(active).name })}
        </p>
      )}
      <ErrorText
        error={login.error}
        overrides={failed ? { ERR_OAUTH_NOT_CONFIGURED: t('auth.oauthNotConfigured', { provider: oauthProvider(failed).name }) } : undefined}
      />
    </div>
  );
}

/**
 * "Log in with a passkey", and under it the way to a new account, "Create a passkey account"
 * (a link-style button; a full button once a passkey login failed). WebAuthn cannot tell a
 * cancelled prompt from a device without a passkey for this site, so a failed login says both
 * and points to sign-up or another method.
 * @example <PasskeyButtons onDone={close} />
 */
export function PasskeyButtons({ lead = false, onDone }: { lead?: boolean; onDone: () => void }) {
  const { t } = useI18n();
  const running = useLoginRunning();
  const passkey = useKitMutation((c) => ({ ...passkeyMutationOptions(c), mutationKey: [...LOGIN_MUTATION_KEY, 'passkey'] }));
  const mode = passkey.variables?.mode;
  const loginFailed = passkey.isError && mode === 'login';
  const run = (next: 'login' | 'signup') => {
    if (!running) passkey.mutate({ mode: next }, { onSuccess: onDone });
  };
  const busy = (m: 'login' | 'signup') => passkey.isPending && mode === m;
  // The passkey code loads on demand: started with the buttons, it is there by the click.
  useEffect(preloadPasskeySupport, []);
  return (
    <div className="wk-stack">
      <button
        type="button"
        className="wk-button"
        data-variant={lead ? 'primary' : undefined}
        disabled={running && !busy('login')}
        {...busyProps(busy('login'))}
        onClick={() => run('login')}
      >
        {busy('login') ? <Spinner /> : <PasskeyIcon />}
        {t('auth.passkeyLogin')}
      </button>
      <ErrorText
        error={passkey.error}
        overrides={loginFailed ? { ERR_PASSKEY_CANCELLED: t('auth.passkeyNotUsed'), ERR_USER_NOT_FOUND: t('auth.passkeyNoAccount') } : undefined}
      />
      <button
        type="button"
        className="wk-button"
        data-variant={loginFailed ? undefined : 'link'}
        disabled={running && !busy('signup')}
        {...busyProps(busy('signup'))}
        onClick={() => run('signup')}
      >
        {busy('signup') && <Spinner />}
        {t('auth.passkeySignup')}
      </button>
    </div>
  );
}

/** An announced icon is shown only as the data URI EIP-6963 requires (no request to a wallet's server). */
function walletIcon(icon: string): ReactNode {
  return /^data:image\//i.test(icon) ? <img className="wk-icon" src={icon} alt="" /> : <WalletIcon />;
}

/**
 * One button per browser wallet announced through EIP-6963, by its name and icon ("Continue
 * with MetaMask"); nothing at all when none was announced.
 * @example <ExternalWalletButtons wallets={useInjectedWallets()} onDone={close} />
 */
export function ExternalWalletButtons({ wallets, lead = false, onDone }: { wallets: readonly DiscoveredWallet[]; lead?: boolean; onDone: () => void }) {
  const { t } = useI18n();
  const { client } = useWalletKitContext();
  const running = useLoginRunning();
  const connect = useKitMutation(() => pendingLoginOptions<{ uuid: string; pending: Promise<unknown> }>('wallet'));
  const connectWallet = client.auth.connectWallet;
  if (wallets.length === 0 || !connectWallet) return null;
  const active = connect.isPending ? connect.variables?.uuid : undefined;
  const activeName = wallets.find((w) => w.info.uuid === active)?.info.name;
  return (
    <div className="wk-stack">
      {wallets.map((w) => (
        <button
          key={w.info.uuid}
          type="button"
          className="wk-button"
          data-variant={lead ? 'primary' : undefined}
          disabled={running && active !== w.info.uuid}
          {...busyProps(active === w.info.uuid)}
          onClick={() => {
            if (!running) connect.mutate({ uuid: w.info.uuid, pending: connectWallet(w.provider) }, { onSuccess: onDone });
          }}
        >
          {active === w.info.uuid ? <Spinner /> : walletIcon(w.info.icon)}
          {t('auth.continueWith', { name: w.info.name })}
        </button>
      ))}
      {activeName && (
        <p className="wk-hint" role="status">
          {t('auth.waitingFor', { name: activeName })}
        </p>
      )}
      <ErrorText error={connect.error} />
    </div>
  );
}
