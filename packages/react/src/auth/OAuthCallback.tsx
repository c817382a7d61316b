import { useEffect, useRef, useState } from 'react';
import { handleOAuthCallback } from '@walletkit/client';
import { useI18n } from '../i18n/context.js';
import { useKitRoot } from '../theme/theme.js';
import { useWalletKitContext } from '../provider/context.js';
import { ErrorText } from './ErrorText.js';

/** Props of {@link OAuthCallback}. */
export interface OAuthCallbackProps {
  /** Called once the redirect login is finished (e.g. navigate back to the app's home). */
  onComplete?: (() => void) | undefined;
  /** Where "Back" leads when the login failed; default `/`. */
  homeHref?: string | undefined;
}

/**
 * The page at your OAuth redirect URL. In the sign-in popup it hands the provider's reply to
 * the opener and closes; after a redirect (the popup was blocked) it finishes the login in
 * this page (state checked against the attempt stored before leaving) and calls `onComplete`.
 * Render it inside the provider. For the popup case you may also call `handleOAuthCallback()`
 * before rendering anything, which is what this component does first.
 * @example
 * {location.pathname === '/oauth/callback' ? <OAuthCallback onComplete={() => history.replaceState(null, '', '/')} /> : <App />}
 */
export function OAuthCallback({ onComplete, homeHref = '/' }: OAuthCallbackProps) {
  const { t } = useI18n();
  const root = useKitRoot('wk-card');
  const { client } = useWalletKitContext();
  const [error, setError] = useState<unknown>();
  // One attempt per page: the pending login is single use (StrictMode runs effects twice).
  const started = useRef(false);
  const done = useRef(onComplete);
  done.current = onComplete;

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (window.opener) {
      handleOAuthCallback();
      return;
    }
    if (!client.auth.completeOAuthRedirect) {
      setError('unsupported');
      return;
    }
    client.auth.completeOAuthRedirect().then(
      () => done.current?.(),
      (err: unknown) => setError(err),
    );
  }, [client]);

  return (
    <section {...root} aria-label={t('auth.callbackRegion')}>
      {error ? (
        <div className="wk-stack">
          <ErrorText error={error === 'unsupported' ? t('auth.callbackUnsupported') : error} />
          <a className="wk-button" href={homeHref}>
            {t('common.back')}
          </a>
        </div>
      ) : (
        <p className="wk-hint" role="status">
          {t('auth.callbackFinishing')}
        </p>
      )}
    </section>
  );
}
