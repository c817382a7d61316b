// Raw-payload signatures of wallet keys in the wire's {r, s, v} shape.
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { assertBytes, assertObject } from './assert.js';
import { assertCurve, type Curve } from './derive.js';
import { bytesToHex, concatBytes, hexToBytes, isHex } from './encoding.js';
import { nativeSecp256k1 } from './native-secp256k1.js';
import { decodePrivateKey, decodePublicKey } from './point.js';
import { payloadDigest, type PayloadRequest } from './payload.js';

/**
 * A raw signature, lowercase hex without prefix.
 *
 * @example
 * ```ts
 * const { r, s, v }: RawSignature = signRawPayload({ curve, privateKey, ...request });
 * ```
 */
export interface RawSignature {
  /** secp256k1: r (32 bytes); ed25519: R, the first half of the signature. */
  r: string;
  /** secp256k1: s (32 bytes, low-S); ed25519: S, the second half. */
  s: string;
  /** secp256k1: recovery id `00` or `01`; ed25519: always `00`. */
  v: string;
}

/**
 * Signs a raw payload with a wallet key. The signed bytes are those of
 * {@link payloadDigest}. secp256k1: RFC 6979 ECDSA, low-S, with the recovery id as `v`
 * (`00` / `01`; add 27 for legacy Ethereum `v`). ed25519: RFC 8032 over the message.
 *
 * @example
 * ```ts
 * const { r, s, v } = signRawPayload({
 *   curve: 'CURVE_SECP256K1',
 *   privateKey,
 *   payload: '0x' + 'ab'.repeat(32),
 *   encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
 *   hashFunction: 'HASH_FUNCTION_NO_OP',
 * });
 * ```
 */
export function signRawPayload(params: PayloadRequest & { curve: Curve; privateKey: Uint8Array }): RawSignature {
  assertObject(params, 'params');
  const curve = assertCurve(params.curve);
  assertBytes(params.privateKey, 'privateKey', 32);
  const message = payloadDigest(params);
  if (curve === 'CURVE_ED25519') {
    const signature = ed25519.sign(message, decodePrivateKey(params.privateKey));
    return { r: bytesToHex(signature.subarray(0, 32)), s: bytesToHex(signature.subarray(32)), v: '00' };
  }
  const privateKey = decodePrivateKey(params.privateKey, secp256k1);
  const native = nativeSecp256k1();
  if (native && message.length === 32) {
    const { signature, recovery } = native.signRecoverable(message, privateKey);
    if (signature.length !== 64 || (recovery !== 0 && recovery !== 1)) throw new Error('the native secp256k1 returned a malformed signature');
    return { r: bytesToHex(signature.subarray(0, 32)), s: bytesToHex(signature.subarray(32, 64)), v: recovery === 1 ? '01' : '00' };
  }
  const recovered = secp256k1.sign(message, privateKey, { prehash: false, lowS: true, format: 'recovered' });
  const signature = secp256k1.Signature.fromBytes(recovered, 'recovered');
  return {
    r: bytesToHex(recovered.subarray(1, 33)),
    s: bytesToHex(recovered.subarray(33, 65)),
    v: signature.recovery === 1 ? '01' : '00',
  };
}

function recoveryId(v: string): number | undefined {
  const n = Number.parseInt(v, 16);
  if (n === 0 || n === 1) return n;
  if (n === 27 || n === 28) return n - 27;
  return undefined;
}

/**
 * Verifies a raw signature against a public key (secp256k1 compressed or uncompressed;
 * ed25519 raw 32 bytes). `digestOrMessage` is what {@link payloadDigest} returns: the 32-byte
 * digest for secp256k1, the message for ed25519. For secp256k1, `v` (`00`/`01`, or `1b`/`1c`)
 * must recover to the same key. Never throws on bad signatures or keys: returns `false`.
 *
 * @example
 * ```ts
 * verifyRawSignature({ curve: 'CURVE_SECP256K1', publicKey, digestOrMessage: digest, signature: { r, s, v } }); // true
 * ```
 */
export function verifyRawSignature(params: { curve: Curve; publicKey: Uint8Array; digestOrMessage: Uint8Array; signature: RawSignature }): boolean {
  assertObject(params, 'params');
  const curve = assertCurve(params.curve);
  assertBytes(params.digestOrMessage, 'digestOrMessage');
  assertBytes(params.publicKey, 'publicKey');
  const { r, s, v } = (params.signature ?? {}) as Partial<RawSignature>;
  if (!isHex(r, 32) || !isHex(s, 32) || !isHex(v, 1)) return false;
  const signature = concatBytes(hexToBytes(r), hexToBytes(s));
  try {
    if (curve === 'CURVE_ED25519') {
      if (params.publicKey.length !== 32) return false;
      return ed25519.verify(signature, params.digestOrMessage, params.publicKey, { zip215: false });
    }
    if (params.digestOrMessage.length !== 32) return false;
    const recovery = recoveryId(v);
    if (recovery === undefined) return false;
    const expected = decodePublicKey(secp256k1, params.publicKey);
    const valid = secp256k1.verify(signature, params.digestOrMessage, expected.toBytes(true), {
      prehash: false,
      lowS: false,
      format: 'compact',
    });
    if (!valid) return false;
    const recovered = secp256k1.Signature.fromBytes(signature, 'compact').addRecoveryBit(recovery).recoverPublicKey(params.digestOrMessage);
    return recovered.equals(expected);
  } catch {
    return false;
  }
}
