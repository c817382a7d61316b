import type { ChainConfig } from '@walletkit/client';

/**
 * A chain as people read it: its configured name and its id (the id is what the signature
 * commits to, so it is always shown).
 * @example chainLabel(31337, [{ id: 31337, name: 'Hardhat', ... }]) // 'Hardhat (chain id 31337)'
 * @example chainLabel(10, []) // 'chain id 10'
 */
export function chainLabel(chainId: number, chains: readonly Pick<ChainConfig, 'id' | 'name'>[]): string {
  const name = chains.find((c) => c.id === chainId)?.name;
  return name ? `${name} (chain id ${chainId})` : `chain id ${chainId}`;
}
