import type { ChainConfig } from '@walletkit/client';
import type { Translator } from '../i18n/catalog.js';
import { english } from './words.js';

/**
 * A chain as people read it: its configured name and its id (the id is what the signature
 * commits to, so it is always shown), in the translator's language.
 * @example chainLabel(31337, [{ id: 31337, name: 'Hardhat', ... }]) // 'Hardhat (chain id 31337)'
 * @example chainLabel(10, []) // 'chain id 10'
 */
export function chainLabel(chainId: number, chains: readonly Pick<ChainConfig, 'id' | 'name'>[], translator: Translator = english): string {
  const name = chains.find((c) => c.id === chainId)?.name;
  return name ? translator.t('confirm.chainNamed', { name, id: chainId }) : translator.t('confirm.chainId', { id: chainId });
}
