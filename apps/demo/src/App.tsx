import { useState } from 'react';
import { OAuthCallback, useWalletKit, WalletPanel } from '@walletkit/react';
import { CallbackLog, loginOutcome, showCallbackLog } from './CallbackLog';
import { OAUTH_CALLBACK_PATH, type DemoConfig } from './config';
import { DappPanel } from './DappPanel';
import { OutboxPanel } from './OutboxPanel';

/**
 * The demo as an integrator writes it: a landing page whose "Log in" opens the kit's auth
 * modal, the wallet panel once signed in with, when a chain is configured, a dApp section using
 * wagmi through the kit's connector, the OAuth redirect page, and in dev mode the OTP outbox so
 * a person can log in without a mail server and the log of the kit's callbacks (also with
 * `?callbacks`: the e2e suite reads it).
 */
export function App({ devOutboxUrl, dapp }: { devOutboxUrl?: string | undefined; dapp?: Pick<DemoConfig, 'token' | 'faucetUrl'> | undefined }) {
  const { status, user, login } = useWalletKit();
  const [path, setPath] = useState(location.pathname);
  const home = () => {
    history.replaceState(null, '', '/');
    setPath('/');
  };

  return (
    <>
      <header className="demo-header">
        <span className="demo-logo">walletkit demo</span>
        {status === 'authenticated' && user && <span className="demo-user">Signed in · {user.userId.slice(0, 8)}</span>}
      </header>
      <main className="demo">
        {path === OAUTH_CALLBACK_PATH ? (
          <OAuthCallback onComplete={home} />
        ) : status === 'loading' ? (
          <p role="status">Loading…</p>
        ) : status === 'anonymous' ? (
          <section className="demo-hero" aria-labelledby="hero-title">
            <h1 id="hero-title">A wallet in one click</h1>
            <p>Sign up with an email or phone code, a passkey, Google, X, Discord or your browser wallet. Your keys stay in the enclave.</p>
            <button type="button" className="demo-primary" onClick={() => void login().then(...loginOutcome)}>
              Log in
            </button>
          </section>
        ) : (
          <>
            <h1>Your wallet</h1>
            <WalletPanel />
            {dapp && <DappPanel token={dapp.token} faucetUrl={dapp.faucetUrl} />}
          </>
        )}
        {devOutboxUrl && <OutboxPanel url={devOutboxUrl} />}
        {showCallbackLog() && <CallbackLog />}
      </main>
    </>
  );
}
