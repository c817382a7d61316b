import type { Eip1193Provider } from './wallet.js';

/**
 * A wallet announced through EIP-6963 (multi injected provider discovery).
 *
 * @example
 * ```ts
 * const [first] = await discoverWallets();
 * first.info.name; // 'MetaMask'
 * ```
 */
export interface DiscoveredWallet {
  info: { uuid: string; name: string; icon: string; rdns: string };
  provider: Eip1193Provider;
}

/**
 * Collects the wallets that answer `eip6963:requestProvider` within `timeoutMs` (EIP-6963:
 * listen for `eip6963:announceProvider`, then dispatch the request). Duplicates (same uuid) and
 * the kit's own embedded wallet are dropped. Outside a browser it resolves to an empty list.
 *
 * @example
 * ```ts
 * const wallets = await discoverWallets();
 * const stamper = createWalletStamper({ provider: wallets[0]!.provider });
 * ```
 */
export function discoverWallets(opts: { timeoutMs?: number | undefined; target?: EventTarget | undefined } = {}): Promise<DiscoveredWallet[]> {
  const target = opts.target ?? (globalThis as { window?: EventTarget }).window;
  if (!target) return Promise.resolve([]);
  const found = new Map<string, DiscoveredWallet>();
  const onAnnounce = (event: Event) => {
    const detail = (event as CustomEvent<DiscoveredWallet>).detail;
    // The kit's own embedded wallet announces itself too; logging in with it would be circular.
    if ((detail?.provider as { isWalletKit?: boolean } | undefined)?.isWalletKit === true) return;
    if (detail?.info?.uuid && typeof detail.provider?.request === 'function') found.set(detail.info.uuid, detail);
  };
  target.addEventListener('eip6963:announceProvider', onAnnounce);
  target.dispatchEvent(new Event('eip6963:requestProvider'));
  return new Promise((resolve) => {
    setTimeout(() => {
      // A window torn down meanwhile (a test environment, a closed frame) may have lost its methods.
      if (typeof target.removeEventListener === 'function') target.removeEventListener('eip6963:announceProvider', onAnnounce);
      resolve([...found.values()]);
    }, opts.timeoutMs ?? 200);
  });
}
