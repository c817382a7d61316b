/**
 * The wallet panel's screens and what it remembers of them: the last screen and the selected
 * account, for the rest of the session (a reload included: `sessionStorage`, per user), so a
 * user who comes back to the panel finds it where they left it. Nothing secret is kept.
 */

/** The panel's screens, in their default order. */
export const WALLET_SCREENS = ['accounts', 'send', 'receive', 'sign', 'backup', 'security'] as const;

/**
 * A screen of {@link WalletPanel}: `accounts` (wallets, accounts, address, balance, network),
 * `send`, `receive`, `sign` (messages and typed data), `backup` (export and import of recovery
 * phrases and keys) and `security` (sign-in methods, passkeys, sessions).
 */
export type WalletScreen = (typeof WALLET_SCREENS)[number];

/** What the panel remembers for one user. */
export interface PanelMemory {
  screen?: WalletScreen | undefined;
  address?: string | undefined;
}

const PREFIX = 'walletkit.panel.';
const fallback = new Map<string, PanelMemory>();

/** The tab's session storage, or undefined where it is missing or blocked (a sandboxed frame, some private modes). */
function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

export const isWalletScreen = (value: unknown): value is WalletScreen => (WALLET_SCREENS as readonly unknown[]).includes(value);

/**
 * What the panel last showed `user` in this browser tab.
 * @example recallPanel('user-1') // { screen: 'send', address: '0xf39F…' }
 */
export function recallPanel(user: string): PanelMemory {
  const store = storage();
  let memory: unknown = fallback.get(user);
  if (store) {
    try {
      memory = JSON.parse(store.getItem(PREFIX + user) ?? 'null');
    } catch {
      memory = null;
    }
  }
  const fields = (memory ?? {}) as Record<string, unknown>;
  return {
    screen: isWalletScreen(fields['screen']) ? fields['screen'] : undefined,
    address: typeof fields['address'] === 'string' ? fields['address'] : undefined,
  };
}

/** Remember the screen and account of `user` (merged into what is kept). */
export function rememberPanel(user: string, memory: PanelMemory): void {
  const next = { ...recallPanel(user), ...memory };
  const store = storage();
  try {
    if (store) {
      store.setItem(PREFIX + user, JSON.stringify(next));
      return;
    }
  } catch {
    // full or blocked: kept in memory for this page instead
  }
  fallback.set(user, next);
}

/** Forget what the panel remembers of `user` (at logout). */
export function forgetPanel(user: string): void {
  fallback.delete(user);
  try {
    storage()?.removeItem(PREFIX + user);
  } catch {
    // blocked: nothing was stored there
  }
}
