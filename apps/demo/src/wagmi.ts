/**
 * The demo's wagmi config, as a dApp writes it with the kit: the chains from the runtime
 * settings and the kit's connector (`@walletkit/client/wagmi`) over the same client the
 * WalletKitProvider shows, so every wagmi signature goes through the kit's confirmation dialog.
 */
import { defineChain, http } from 'viem';
import { createConfig, type Config } from 'wagmi';
import type { ChainConfig, WalletKitClient } from '@walletkit/client';
import { walletKit } from '@walletkit/client/wagmi';

/** A kit chain as viem and wagmi name it. */
export function toViemChain(chain: ChainConfig) {
  return defineChain({
    id: chain.id,
    name: chain.name,
    nativeCurrency: chain.nativeCurrency,
    rpcUrls: { default: { http: [chain.rpcUrl] } },
    ...(chain.blockExplorerUrl ? { blockExplorers: { default: { name: 'Explorer', url: chain.blockExplorerUrl } } } : {}),
  });
}

/**
 * wagmi over the kit's chains, or undefined when the demo has none (no local chain).
 * @example const wagmiConfig = demoWagmiConfig(kit, config.kit.chains);
 */
export function demoWagmiConfig(kit: WalletKitClient, chains: ChainConfig[] | undefined): Config | undefined {
  const [first, ...rest] = (chains ?? []).map(toViemChain);
  if (!first) return undefined;
  return createConfig({
    chains: [first, ...rest],
    connectors: [walletKit(kit)],
    transports: Object.fromEntries([first, ...rest].map((c) => [c.id, http(c.rpcUrls.default.http[0])])),
    multiInjectedProviderDiscovery: false,
  });
}
