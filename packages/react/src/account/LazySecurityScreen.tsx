import { lazy } from 'react';
import { Lazy } from '../components/Lazy.js';

// The screen (with the phone number library of its phone form) is its own chunk, fetched when shown.
const Screen = lazy(() => import('./SecurityScreen.js').then((m) => ({ default: m.SecurityScreen })));

/**
 * The Security screen for use outside `WalletPanel` (which shows it as its Security tab): the
 * user's sign-in methods, passkeys and sessions, with every action on them. Loaded on demand:
 * "Loading…" the first time, a message if its chunk cannot be fetched.
 * @example {status === 'authenticated' && <SecurityScreen />}
 */
export function SecurityScreen() {
  return (
    <Lazy loading="account.loading" failed="account.loadFailed">
      <Screen />
    </Lazy>
  );
}
