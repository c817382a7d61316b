import { checksumAddress } from '@walletkit/crypto';

/** The outcome of checking a typed recipient address: the EIP-55 form, or what is wrong with it. */
export type AddressCheck = { ok: true; address: string } | { ok: false; error: 'format' | 'checksum' };

/**
 * Check an Ethereum address as typed or pasted: `0x` and 40 hex characters, and, when it mixes
 * upper and lower case, a correct EIP-55 checksum (a wrong one means a typo or a tampered
 * copy). All-lower or all-upper addresses carry no checksum and pass. Returns the EIP-55 form.
 * @example checkEthereumAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8') // { ok: true, address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }
 * @example checkEthereumAddress('0x70997970C51812dc3A010C7d01b50e0d17dc79c8') // { ok: false, error: 'checksum' }
 */
export function checkEthereumAddress(input: string): AddressCheck {
  const text = input.trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) return { ok: false, error: 'format' };
  const hex = text.slice(2);
  const address = checksumAddress(text);
  if (hex !== hex.toLowerCase() && hex !== hex.toUpperCase() && address !== text) return { ok: false, error: 'checksum' };
  return { ok: true, address };
}

/** Whether `address` is an Ethereum address (the balance and Send need one). */
export const isEthereumAddress = (address: string): boolean => /^0x[0-9a-fA-F]{40}$/.test(address);

/**
 * An address shortened for headers and lists (never where it is approved or copied: there it
 * is shown whole, as address poisoning imitates the ends).
 * @example shortAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266') // '0xf39F…2266'
 */
export function shortAddress(address: string): string {
  const head = address.startsWith('0x') ? 6 : 4;
  return address.length > head + 6 ? `${address.slice(0, head)}…${address.slice(-4)}` : address;
}
