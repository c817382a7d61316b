import { checksumAddress } from '@walletkit/crypto';

/** The outcome of checking a typed recipient address. */
export type AddressCheck = { ok: true; address: string } | { ok: false; error: string };

/**
 * Check an Ethereum address as typed or pasted: `0x` and 40 hex characters, and, when it mixes
 * upper and lower case, a correct EIP-55 checksum (a wrong one means a typo or a tampered
 * copy). All-lower or all-upper addresses carry no checksum and pass. Returns the EIP-55 form.
 * @example checkEthereumAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8') // { ok: true, address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }
 * @example checkEthereumAddress('0x70997970C51812dc3A010C7d01b50e0d17dc79c8') // { ok: false, error: '… checksum …' }
 */
export function checkEthereumAddress(input: string): AddressCheck {
  const text = input.trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) return { ok: false, error: 'Enter an Ethereum address: 0x followed by 40 hexadecimal characters.' };
  const hex = text.slice(2);
  const address = checksumAddress(text);
  if (hex !== hex.toLowerCase() && hex !== hex.toUpperCase() && address !== text) {
    return { ok: false, error: 'This address has a wrong checksum (its mix of capital letters does not match). Check it for a typo, or copy it again.' };
  }
  return { ok: true, address };
}
