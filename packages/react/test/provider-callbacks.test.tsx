// @vitest-environment happy-dom
/**
 * The integrator API of the provider: `login()` resolves with the session of the login made in
 * the modal and rejects with ERR_LOGIN_CANCELLED when the modal closes first (at once when
 * already signed in); `onAuthenticationSuccess` after a login (not a restore at load),
 * `beforeSessionExpiry` when the client announces the end, `onSessionExpired` when it ends by
 * itself (not a logout), `onError` for a failed action; the same from a client that says why its
 * session changed and from one whose changes the provider infers from its states.
 */
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionChange, SessionInfo } from '../src/client-contract';
import { useWalletKit } from '../src/provider/useWalletKit';
import { createFakeClient, type FakeClient } from './support/fake-client';
import { failOnConsoleError, renderWithKit } from './support/render';

failOnConsoleError();
afterEach(cleanup);

/** The fake client, plus the reasons of its session's changes, which the test says (as the real client does). */
function withReasons(fake: FakeClient) {
  const listeners = new Set<(change: SessionChange) => void>();
  const client: FakeClient = {
    ...fake,
    session: {
      ...fake.session,
      onChange: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
  const emit = (change: SessionChange) =>
    act(() => {
      for (const l of listeners) l(change);
    });
  return { client, emit };
}

/** A host page: the login button records what `login()` settles with. */
function Page({ outcome }: { outcome: Array<string> }) {
  const { login, status, signMessage } = useWalletKit();
  return (
    <main>
      <p data-testid="status">{status}</p>
      <button
        type="button"
        onClick={() =>
          login().then(
            (s) => outcome.push(`resolved ${s.userId}`),
            (e: { code?: string }) => outcome.push(`rejected ${e.code}`),
          )
        }
      >
        Log in
      </button>
      <button type="button" onClick={() => signMessage('0x0000000000000000000000000000000000000001', 'hi', { confirm: false }).catch(() => undefined)}>
        Sign
      </button>
    </main>
  );
}

const session = (userId = 'user-1'): SessionInfo => ({ organizationId: 'sub-org-1', userId, publicKey: '02ab', expiresAt: Date.now() + 60_000, jwt: 'jwt' });

describe('login() and the callbacks', () => {
  it('given the modal opened by login(), when a login completes, then login() resolves with its session and onAuthenticationSuccess hears it once', async () => {
    const user = userEvent.setup();
    const fake = createFakeClient();
    const outcome: string[] = [];
    const onAuthenticationSuccess = vi.fn();
    renderWithKit(<Page outcome={outcome} />, fake, { onAuthenticationSuccess });
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findByRole('dialog');
    act(() => fake.login());
    await waitFor(() => expect(outcome).toEqual(['resolved user-1']));
    expect(onAuthenticationSuccess).toHaveBeenCalledTimes(1);
    expect(onAuthenticationSuccess).toHaveBeenCalledWith(expect.objectContaining({ userId: 'user-1', organizationId: 'sub-org-1' }));
  });

  it('given the modal opened by login(), when the user closes it, then login() rejects with ERR_LOGIN_CANCELLED and no success is heard; signed in, login() resolves at once without a modal', async () => {
    const user = userEvent.setup();
    const fake = createFakeClient();
    const outcome: string[] = [];
    const onAuthenticationSuccess = vi.fn();
    renderWithKit(<Page outcome={outcome} />, fake, { onAuthenticationSuccess });
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(outcome).toEqual(['rejected ERR_LOGIN_CANCELLED']));
    expect(onAuthenticationSuccess).not.toHaveBeenCalled();

    // Escape closes it the same way.
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    // Focus in the dialog, as showModal() puts it in a browser.
    within(await screen.findByRole('dialog'))
      .getByRole('button', { name: 'Close' })
      .focus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(outcome).toEqual(['rejected ERR_LOGIN_CANCELLED', 'rejected ERR_LOGIN_CANCELLED']));

    act(() => fake.login());
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(outcome.at(-1)).toBe('resolved user-1'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('given a client that says why its session changes, when it restores, logs in, announces the end, expires and logs out, then only the login, the announcement and the expiry are heard', async () => {
    const { client, emit } = withReasons(createFakeClient());
    const onAuthenticationSuccess = vi.fn();
    const beforeSessionExpiry = vi.fn();
    const onSessionExpired = vi.fn();
    renderWithKit(<Page outcome={[]} />, client, { onAuthenticationSuccess, beforeSessionExpiry, onSessionExpired });

    emit({ type: 'restore', session: session('restored') });
    emit({ type: 'refresh', session: session('restored') });
    emit({ type: 'sync', session: session('restored') });
    expect(onAuthenticationSuccess).not.toHaveBeenCalled();

    emit({ type: 'login', session: session('new') });
    expect(onAuthenticationSuccess.mock.calls).toEqual([[session('new')].map((s) => expect.objectContaining({ userId: s.userId }))]);

    emit({ type: 'expiring', session: session('new'), secondsLeft: 12 });
    expect(beforeSessionExpiry).toHaveBeenCalledWith(expect.objectContaining({ userId: 'new' }), 12);

    emit({ type: 'logout' });
    expect(onSessionExpired).not.toHaveBeenCalled();
    emit({ type: 'expired' });
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('given a client that does not say why, when it logs in, logs out, and a later session ends past its expiry, then the login and the expiry are inferred (not the logout)', async () => {
    let now = Date.now();
    const fake = createFakeClient({ now: () => now });
    const onAuthenticationSuccess = vi.fn();
    const onSessionExpired = vi.fn();
    renderWithKit(<Page outcome={[]} />, fake, { onAuthenticationSuccess, onSessionExpired });
    act(() => fake.login());
    expect(onAuthenticationSuccess).toHaveBeenCalledTimes(1);
    await act(() => fake.session.logout());
    expect(onSessionExpired).not.toHaveBeenCalled();

    // A session already past its end when it goes (the fake's clock was an hour behind).
    now = Date.now() - 3_600_000;
    act(() => fake.login());
    await act(() => fake.session.logout());
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    expect(onAuthenticationSuccess).toHaveBeenCalledTimes(2);
  });

  it('given onError, when an action of the kit fails, then it hears the coded error', async () => {
    const user = userEvent.setup();
    const fake = createFakeClient();
    const onError = vi.fn();
    renderWithKit(<Page outcome={[]} />, fake, { onError });
    act(() => fake.login());
    fake.failNext('signMessage', 'ERR_USER_REJECTED');
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'ERR_USER_REJECTED' });
  });
});
