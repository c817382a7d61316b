import { base64urlEncode, bytesToHex, utf8ToBytes } from '@walletkit/crypto';
import { WalletKitError } from '../errors.js';
import { rawSignatureToDer } from './der.js';
import type { Stamper } from './types.js';

/**
 * A P-256 key held by the browser: the private half is a non-extractable WebCrypto key (it
 * can sign, never be read), `publicKey` is its compressed hex as the wire carries it.
 *
 * @example
 * ```ts
 * const key = await generateSessionKey();
 * key.publicKey; // '02…' (33 bytes hex)
 * ```
 */
export interface SessionKey {
  keyPair: CryptoKeyPair;
  publicKey: string;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGN = { name: 'ECDSA', hash: 'SHA-256' } as const;

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new WalletKitError('ERR_KEY_STORAGE_UNAVAILABLE', 'WebCrypto is unavailable (a secure context is required)');
  return s;
}

/**
 * Generates a session key: P-256, private key non-extractable, usable only to sign.
 *
 * @example
 * ```ts
 * const key = await generateSessionKey();
 * await store.save({ ...key, session });
 * ```
 */
export async function generateSessionKey(): Promise<SessionKey> {
  const keyPair = (await subtle().generateKey(ALGORITHM, false, ['sign', 'verify'])) as CryptoKeyPair;
  return { keyPair, publicKey: await compressedPublicKey(keyPair.publicKey) };
}

/** Compressed hex (02/03 || x) of a WebCrypto P-256 public key. @internal */
export async function compressedPublicKey(publicKey: CryptoKey): Promise<string> {
  const raw = new Uint8Array(await subtle().exportKey('raw', publicKey));
  const compressed = new Uint8Array(33);
  compressed[0] = (raw[64]! & 1) === 0 ? 0x02 : 0x03;
  compressed.set(raw.subarray(1, 33), 1);
  return bytesToHex(compressed);
}

/**
 * ECDSA-P256-SHA256 over `message` with a session key: raw `r || s` (64 bytes). High-S values
 * are left as WebCrypto returns them (the server accepts both).
 *
 * @example
 * ```ts
 * const rs = await signWithSessionKey(key, utf8ToBytes(message));
 * ```
 */
export async function signWithSessionKey(key: SessionKey, message: Uint8Array): Promise<Uint8Array> {
  const data = new Uint8Array(message);
  return new Uint8Array(await subtle().sign(SIGN, key.keyPair.privateKey, data));
}

/**
 * A stamper for a session key: `X-Stamp` = base64url(JSON {publicKey, scheme, signature})
 * with the DER hex signature over the exact body bytes (DESIGN section 2).
 *
 * @example
 * ```ts
 * const stamper = createSessionKeyStamper(await generateSessionKey());
 * const { header, value } = await stamper.stamp(body); // header === 'X-Stamp'
 * ```
 */
export function createSessionKeyStamper(key: SessionKey): Stamper & { readonly publicKey: string } {
  return {
    publicKey: key.publicKey,
    async stamp(body) {
      const signature = rawSignatureToDer(await signWithSessionKey(key, utf8ToBytes(body)));
      const stamp = { publicKey: key.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: bytesToHex(signature) };
      return { header: 'X-Stamp', value: base64urlEncode(utf8ToBytes(JSON.stringify(stamp))) };
    },
  };
}
