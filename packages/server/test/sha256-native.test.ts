/**
 * The server's SHA-256 (native-crypto.ts: node:crypto, installed in place of noble's) gives
 * noble's bytes, as a plain Uint8Array, so an activity's fingerprint does not change with the
 * implementation; and what the server installs is what fingerprints use.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { activityFingerprint, bytesToHex, sha256, sha256Hex, useNativeSha256 } from '@walletkit/crypto';
import { installNativeCrypto, nodeSha256 } from '../src/native-crypto';

describe('SHA-256 with the native implementation', () => {
  afterEach(() => installNativeCrypto());

  it('given 500 random inputs of 0 to 1,000 bytes and a text, when each is hashed by noble and by node:crypto, then the bytes and the hex are the same', () => {
    const inputs: (Uint8Array | string)[] = ['', 'abc', 'ünïcödé ✓', randomBytes(1 << 20)];
    for (let i = 0; i < 500; i++) inputs.push(new Uint8Array(randomBytes(Math.floor(Math.random() * 1001))));
    for (const input of inputs) {
      useNativeSha256(undefined);
      const noble = bytesToHex(sha256(input));
      expect(sha256Hex(input)).toBe(noble);
      useNativeSha256(nodeSha256);
      expect(bytesToHex(sha256(input))).toBe(noble);
      expect(sha256Hex(input)).toBe(noble);
    }
  });

  it('given node:crypto installed, when a digest is taken, then it is a 32-byte Uint8Array on its own ArrayBuffer, not a Buffer', () => {
    installNativeCrypto();
    const digest = sha256('abc');
    expect(Buffer.isBuffer(digest)).toBe(false);
    expect(digest.byteLength).toBe(32);
    expect(digest.buffer.byteLength).toBe(32);
    expect(bytesToHex(digest)).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('given the server installs its crypto, then node:crypto is the SHA-256 in use', () => {
    useNativeSha256(undefined);
    installNativeCrypto();
    expect(useNativeSha256(undefined)).toBe(nodeSha256);
  });

  it('given an installed SHA-256, when an activity body is fingerprinted, then it hashes the body once, straight to hex, and the fingerprint is the standard one', () => {
    let calls = 0;
    useNativeSha256({
      bytes: (data) => {
        calls += 100;
        return nodeSha256.bytes(data);
      },
      hex: (data) => {
        calls += 1;
        return nodeSha256.hex(data);
      },
    });
    const body = '{"type":"ACTIVITY_TYPE_SIGN_RAW_PAYLOADS","timestampMs":"1"}';
    const fingerprint = activityFingerprint(body);
    expect(calls).toBe(1);
    useNativeSha256(undefined);
    expect(activityFingerprint(body)).toBe(fingerprint);
    expect(fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
