import type { WalletAccountParams, WalletAccountSummary } from '../client-contract.js';

/**
 * The next Ethereum account of a wallet (BIP44 m/44'/60'/0'/0/n after the highest index used).
 * @example nextEthereumAccount([]) // { curve: 'CURVE_SECP256K1', path: "m/44'/60'/0'/0/0", ... }
 */
export function nextEthereumAccount(accounts: readonly WalletAccountSummary[]): WalletAccountParams {
  const used = accounts
    .map((a) => /^m\/44'\/60'\/0'\/0\/(\d+)$/.exec(a.path)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  const next = used.length ? Math.max(...used) + 1 : 0;
  return { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: `m/44'/60'/0'/0/${next}`, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' };
}
