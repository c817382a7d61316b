// Independent P-256 checks through WebCrypto (the platform implementation, not noble).
import { p256 } from '@noble/curves/nist.js';
import { hexToBytes } from '../src/index';

export async function webCryptoVerify(publicKeyUncompressedHex: string, rawSignature: Uint8Array, message: Uint8Array): Promise<boolean> {
  const key = await crypto.subtle.importKey(
    'raw',
    hexToBytes(publicKeyUncompressedHex) as Uint8Array<ArrayBuffer>,
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['verify'],
  );
  return crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, rawSignature as Uint8Array<ArrayBuffer>, message as Uint8Array<ArrayBuffer>);
}

/** DER ECDSA signature -> 64-byte r || s. */
export function derToRaw(derHex: string): Uint8Array {
  return p256.Signature.fromBytes(hexToBytes(derHex), 'der').toBytes('compact');
}
