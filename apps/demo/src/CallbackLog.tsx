import { useSyncExternalStore } from 'react';
import type { KitCallbacks, SessionInfo } from '@walletkit/react';

/**
 * The kit's callbacks and `login()` outcomes as they happen, for the demo's dev-only display
 * (and the e2e suite, which reads it): a list kept in memory for the page's life, shown in dev
 * mode or with `?callbacks` in the URL.
 */
type Entry = { id: number; at: string; text: string };

let entries: Entry[] = [];
const listeners = new Set<() => void>();

/** Add a line to the log. @example logCallback('login() resolved 1a2b3c4d') */
export function logCallback(text: string): void {
  entries = [...entries, { id: entries.length + 1, at: new Date().toLocaleTimeString(), text }];
  for (const l of listeners) l();
}

const short = (session: SessionInfo) => session.userId.slice(0, 8);
const codeOf = (error: unknown) => (error as { code?: string } | null)?.code ?? String(error);

/** The provider's callbacks, each writing its line. @example <WalletKitProvider {...demoCallbacks}> */
export const demoCallbacks: KitCallbacks = {
  onAuthenticationSuccess: (session) => logCallback(`onAuthenticationSuccess ${short(session)}`),
  beforeSessionExpiry: (_session, secondsLeft) => logCallback(`beforeSessionExpiry ${secondsLeft}`),
  onSessionExpired: () => logCallback('onSessionExpired'),
  onError: (error) => logCallback(`onError ${codeOf(error)}`),
};

/** Record how a `login()` settled. @example login().then(...loginOutcome) */
export const loginOutcome = [
  (session: SessionInfo) => logCallback(`login() resolved ${short(session)}`),
  (error: unknown) => logCallback(`login() rejected ${codeOf(error)}`),
] as const;

/** Whether this page shows the log: dev mode, or `?callbacks` in the URL. */
export const showCallbackLog = (): boolean => import.meta.env.DEV || new URLSearchParams(location.search).has('callbacks');

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The log, newest last. */
export function CallbackLog() {
  const list = useSyncExternalStore(subscribe, () => entries);
  return (
    <aside className="demo-outbox" aria-labelledby="callbacks-title">
      <h2 id="callbacks-title">Kit callbacks</h2>
      <p className="demo-hint">What the kit told this page. Shown in dev mode or with ?callbacks.</p>
      {list.length === 0 ? (
        <p className="demo-hint">Nothing yet.</p>
      ) : (
        <ol aria-label="Callback log">
          {list.map((e) => (
            <li key={e.id} data-testid="callback-entry">
              <time>{e.at}</time> <code>{e.text}</code>
            </li>
          ))}
        </ol>
      )}
    </aside>
  );
}
