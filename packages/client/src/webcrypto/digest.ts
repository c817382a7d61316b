import { bytesToHex, utf8ToBytes } from '@walletkit/crypto';
import { subtle } from './p256.js';

/**
 * Lowercase hex SHA-256 of `data` (UTF-8 of a string) through WebCrypto: the same digest as
 * `sha256Hex` of @walletkit/crypto, without a hash implementation in the kit's first chunk.
 * @example await sha256HexWeb('abc') // 'ba7816bf…'
 */
export async function sha256HexWeb(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === 'string' ? utf8ToBytes(data) : data;
  return bytesToHex(new Uint8Array(await subtle().digest('SHA-256', new Uint8Array(bytes))));
}
