/**
 * The server's secp256k1 wallet signatures (native-crypto.ts: libsecp256k1 compiled to
 * WebAssembly, `tiny-secp256k1`) are byte for byte what @walletkit/crypto makes with noble: both
 * are RFC 6979 with low S, so a wallet's signatures do not change with the implementation.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveKey, generateMnemonic, mnemonicToSeed, signRawPayload, useNativeSecp256k1 } from '@walletkit/crypto';
import { installNativeCrypto, wasmSecp256k1 } from '../src/native-crypto';

type Request = Parameters<typeof signRawPayload>[0];

function both(request: Request): { noble: string; native: string } {
  const outcome = () => {
    try {
      return JSON.stringify(signRawPayload(request));
    } catch (err) {
      return `error ${(err as Error).message}`;
    }
  };
  useNativeSecp256k1(undefined);
  const noble = outcome();
  let calls = 0;
  useNativeSecp256k1({
    signRecoverable: (digest, key) => {
      calls += 1;
      return wasmSecp256k1.signRecoverable(digest, key);
    },
  });
  const native = outcome();
  // a key noble refuses never reaches the native signer; any other request does
  expect(calls).toBe(noble.startsWith('error ') ? 0 : 1);
  return { noble, native };
}

describe('secp256k1 signatures with the native implementation', () => {
  afterEach(() => installNativeCrypto());

  it('given 300 random keys and digests, when each is signed by noble and by libsecp256k1, then r, s and v are the same', () => {
    for (let i = 0; i < 300; i++) {
      const privateKey = new Uint8Array(randomBytes(32));
      const request: Request = {
        curve: 'CURVE_SECP256K1',
        privateKey,
        payload: `0x${randomBytes(32).toString('hex')}`,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      };
      const { noble, native } = both(request);
      expect(native).toBe(noble);
    }
  });

  it("given a wallet account and hashed payloads, when signed natively, then the signatures are noble's", () => {
    const account = deriveKey({ seed: mnemonicToSeed(generateMnemonic(12)), curve: 'CURVE_SECP256K1', path: "m/44'/60'/0'/0/0" });
    for (const hashFunction of ['HASH_FUNCTION_KECCAK256', 'HASH_FUNCTION_SHA256'] as const) {
      const request: Request = {
        curve: 'CURVE_SECP256K1',
        privateKey: account!.privateKey,
        payload: 'hello',
        encoding: 'PAYLOAD_ENCODING_TEXT_UTF8',
        hashFunction,
      };
      const { noble, native } = both(request);
      expect(native).toBe(noble);
    }
  });

  it('given a private key that is not a scalar of the curve (zero, the order), when signed, then both refuse it the same way', () => {
    const order = Buffer.from('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141', 'hex');
    for (const privateKey of [new Uint8Array(32), new Uint8Array(order)]) {
      const { noble, native } = both({
        curve: 'CURVE_SECP256K1',
        privateKey,
        payload: `0x${'ab'.repeat(32)}`,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      });
      expect(noble).toMatch(/^error /);
      expect(native).toBe(noble);
    }
  });
});
