/**
 * The demo's runtime settings, read from `/walletkit.config.json` on the demo's own origin:
 * the host (`npm start` in dev, `serve.ts` for the production build) writes what the server
 * it started printed, so one build of the app fits any server.
 */
import type { ChainConfig } from '@walletkit/client';
import type { OAuthProviderName } from '@walletkit/react';

export const DEMO_CONFIG_PATH = '/walletkit.config.json';
/** The path the kit returns to after a social login (popup or redirect). */
export const OAUTH_CALLBACK_PATH = '/oauth/callback';

/** The chain the demo transacts on (a local Hardhat chain) and its demo ERC-20. */
export interface DemoChainInfo {
  chain: ChainConfig;
  token: { address: string; symbol: string; decimals: number };
}

export interface DemoConfig {
  /** The kit config `walletkit-server demo` prints (+ the chains the wallet transacts on). */
  kit: {
    proxyUrl: string;
    apiUrl: string;
    configId: string;
    organizationId: string;
    enclavePublicKey: string;
    chains?: ChainConfig[];
    defaultChainId?: number;
  };
  /** The local chain's demo token (the dApp buttons approve and transfer it). */
  token?: DemoChainInfo['token'];
  /** Same-origin URL of the local chain's faucet (npm start only): POST {address} sends test ETH. */
  faucetUrl?: string;
  /** Authorization endpoints of self-hosted identity providers (the e2e suite's local ones). */
  oauthAuthorizeUrls?: Partial<Record<OAuthProviderName, string>>;
  /** Same-origin URL of the server's dev outbox (dev mode only): the demo shows OTP messages. */
  devOutboxUrl?: string;
  /** The CSP nonce of a host that serves the demo under a strict Content-Security-Policy (the kit's injected style carries it). */
  styleNonce?: string;
  /** The kit's language (`de`, `ar`, a BCP 47 tag or `auto`); a `?locale=` in the page's URL wins. Default English. */
  locale?: string;
}

/**
 * Fetch and check the runtime settings.
 * @example const config = await loadDemoConfig();
 * @throws Error naming the missing field
 */
export async function loadDemoConfig(fetchFn: typeof fetch = fetch): Promise<DemoConfig> {
  const res = await fetchFn(DEMO_CONFIG_PATH, { cache: 'no-store' });
  if (!res.ok) throw new Error(`${DEMO_CONFIG_PATH} answered ${res.status}: start the demo with \`npm start\``);
  const config = (await res.json()) as DemoConfig;
  for (const key of ['proxyUrl', 'apiUrl', 'configId', 'organizationId', 'enclavePublicKey'] as const) {
    if (typeof config.kit?.[key] !== 'string' || config.kit[key] === '') throw new Error(`${DEMO_CONFIG_PATH}: kit.${key} is missing`);
  }
  return config;
}
