// @vitest-environment happy-dom
/**
 * The OAuth redirect page: in the popup it hands the reply to the opener and closes; after a
 * redirect (popup blocked) it finishes the login once, even under StrictMode, or shows why not.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OAuthCallback } from '../src/auth/OAuthCallback';
import { createFakeClient } from './support/fake-client';
import { expectNoAxeViolations, failOnConsoleError, renderWithKit } from './support/render';

failOnConsoleError();
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('OAuthCallback', () => {
  it('given a redirect back from the provider, when the page renders (StrictMode), then the login completes once and onComplete runs', async () => {
    const client = createFakeClient();
    const onComplete = vi.fn();
    renderWithKit(
      <StrictMode>
        <OAuthCallback onComplete={onComplete} />
      </StrictMode>,
      client,
    );
    expect(screen.getByRole('status').textContent).toContain('Finishing sign-in');
    await waitFor(() => expect(onComplete).toHaveBeenCalledTimes(1));
    expect(client.calls.filter(([name]) => name === 'completeOAuthRedirect')).toHaveLength(1);
    expect(client.session.getState().status).toBe('authenticated');
  });

  it('given a redirect the client refuses, when the page renders, then the error and a way back are shown, axe-clean', async () => {
    const client = createFakeClient();
    client.failNext('completeOAuthRedirect', 'ERR_OAUTH_STATE_MISMATCH');
    const onComplete = vi.fn();
    renderWithKit(<OAuthCallback onComplete={onComplete} homeHref="/home" />, client);
    expect((await screen.findByRole('alert')).textContent).not.toBe('');
    expect(screen.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe('/home');
    expect(onComplete).not.toHaveBeenCalled();
    await expectNoAxeViolations();
  });

  it('given the page opened as the sign-in popup, when it renders, then the reply is posted to the opener on this origin and the client is not asked', async () => {
    const client = createFakeClient();
    const postMessage = vi.fn();
    vi.spyOn(window, 'opener', 'get').mockReturnValue({ postMessage } as unknown as Window);
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    window.history.replaceState(null, '', '/oauth/callback#id_token=tok&state=s1');
    renderWithKit(<OAuthCallback />, client);
    await waitFor(() => expect(postMessage).toHaveBeenCalledTimes(1));
    expect(postMessage).toHaveBeenCalledWith({ type: 'walletkit:oauth', state: 's1', idToken: 'tok' }, window.location.origin);
    expect(close).toHaveBeenCalled();
    expect(client.calls.some(([name]) => name === 'completeOAuthRedirect')).toBe(false);
  });

  it('given the kit in German and a client that cannot finish redirects, when the page renders, then it says so in German with a way back', async () => {
    const client = createFakeClient();
    client.auth.completeOAuthRedirect = undefined;
    renderWithKit(<OAuthCallback homeHref="/start" />, client, { locale: 'de' });
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'Diese App kann eine Anmeldung, die auf diese Seite zurückgekehrt ist, nicht abschließen. Geh zurück und versuche es erneut.',
      ),
    );
    expect(screen.getByRole('region', { name: 'Anmeldung' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Zurück' }).getAttribute('href')).toBe('/start');
  });
});
