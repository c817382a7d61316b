/**
 * EIP-6963 (multi injected provider discovery), the wallet's side: announce the kit's provider
 * so that RainbowKit, ConnectKit, plain wagmi or any other dApp code on the page finds it
 * without `window.ethereum`.
 */
import type { WalletKitEthereumProvider } from './provider.js';

/** EIP-6963 `EIP6963ProviderInfo`. */
export interface Eip6963ProviderInfo {
  /** UUIDv4, unique per page session. */
  uuid: string;
  name: string;
  /** A data URI (RFC 2397) of a square image, at least 96x96 px. */
  icon: string;
  /** Reverse-DNS name of the wallet, e.g. `com.example.wallet`. */
  rdns: string;
}

/** The kit's mark: a rounded square with a "W" (SVG, scales to any size). */
export const WALLETKIT_ICON = `data:image/svg+xml;base64,${btoa(
  '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" rx="20" fill="#4f46e5"/><path d="M22 30l10 36 8-26 8 26 8-26 8 26 10-36" fill="none" stroke="#fff" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/></svg>',
)}`;

/**
 * The info the kit announces unless told otherwise: a fresh uuid, name "WalletKit", the kit's
 * icon, and rdns `dev.walletkit` (an integrator announcing under their own brand passes their
 * name, icon and reverse domain).
 *
 * @example
 * ```ts
 * announceProvider(provider, walletKitProviderInfo({ name: 'Acme Wallet', rdns: 'com.acme.wallet' }));
 * ```
 */
export function walletKitProviderInfo(overrides: Partial<Eip6963ProviderInfo> = {}): Eip6963ProviderInfo {
  return { uuid: crypto.randomUUID(), name: 'WalletKit', icon: WALLETKIT_ICON, rdns: 'dev.walletkit', ...overrides };
}

/**
 * Announces `provider` on `eip6963:announceProvider` now and again on every
 * `eip6963:requestProvider` (EIP-6963: the detail is frozen, `{ info, provider }`). Returns the
 * function that stops answering requests. Outside a browser (no `window`) it does nothing.
 *
 * @example
 * ```ts
 * const stop = announceProvider(createEthereumProvider(kit), walletKitProviderInfo());
 * ```
 */
export function announceProvider(provider: WalletKitEthereumProvider, info: Eip6963ProviderInfo = walletKitProviderInfo(), target?: EventTarget): () => void {
  const window = target ?? (globalThis as { window?: EventTarget }).window;
  if (!window) return () => undefined;
  const detail = Object.freeze({ info: Object.freeze({ ...info }), provider });
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
  return () => window.removeEventListener('eip6963:requestProvider', announce);
}
