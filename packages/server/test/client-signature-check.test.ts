// The client signature of a login or signup (users-verification.ts): checked before the
// transaction on a signing thread (the prefetch's verdict) or, without one (an approved
// activity), in the handler; and the key comparisons that follow it (`sameKeyAs`).
import { describe, expect, it } from 'vitest';
import { createClientSignature, generateP256KeyPair } from '@walletkit/crypto';
import { checkClientSignature, sameKeyAs, type VerificationClaims } from '../src/activity/operations/users-verification';

/** The error code `fn` throws, or undefined. */
function codeOf(fn: () => void): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

describe('client signatures of a token use', () => {
  const key = generateP256KeyPair();
  const claims = { id: 'token-1', public_key: key.publicKey } as VerificationClaims;
  const honest = createClientSignature({ privateKey: key.privateKey, message: JSON.stringify({ type: 'USAGE_TYPE_LOGIN', tokenId: 'token-1' }) });
  const forged = { ...honest, signature: `${honest.signature.slice(0, -1)}${honest.signature.endsWith('0') ? '1' : '0'}` };

  it('given no verdict from before the transaction, when checked, then the signature itself is verified: the honest one passes, a flipped byte is refused', () => {
    expect(codeOf(() => checkClientSignature(honest, claims, 'USAGE_TYPE_LOGIN'))).toBeUndefined();
    expect(codeOf(() => checkClientSignature(forged, claims, 'USAGE_TYPE_LOGIN'))).toBe('ERR_CLIENT_SIGNATURE_INVALID');
  });

  it("given the signing thread's verdict, when checked, then a false verdict refuses even the honest signature, and the key and message checks still apply after a true one", () => {
    expect(codeOf(() => checkClientSignature(honest, claims, 'USAGE_TYPE_LOGIN', false))).toBe('ERR_CLIENT_SIGNATURE_INVALID');
    expect(codeOf(() => checkClientSignature(honest, claims, 'USAGE_TYPE_LOGIN', true))).toBeUndefined();
    expect(codeOf(() => checkClientSignature(honest, claims, 'USAGE_TYPE_SIGNUP', true))).toBe('ERR_CLIENT_SIGNATURE_INVALID');
    expect(codeOf(() => checkClientSignature(honest, { ...claims, id: 'token-2' }, 'USAGE_TYPE_LOGIN', true))).toBe('ERR_CLIENT_SIGNATURE_INVALID');
    const other = generateP256KeyPair();
    expect(codeOf(() => checkClientSignature(honest, { ...claims, public_key: other.publicKey }, 'USAGE_TYPE_LOGIN', true))).toBe(
      'ERR_CLIENT_SIGNATURE_INVALID',
    );
    expect(codeOf(() => checkClientSignature(honest, { ...claims, public_key: undefined }, 'USAGE_TYPE_LOGIN', true))).toBe('ERR_CLIENT_SIGNATURE_INVALID');
  });

  it('given a key that verified and another text, then they are the same key exactly when they encode one point, in either encoding and case', () => {
    const other = generateP256KeyPair();
    expect(sameKeyAs(key.publicKey, key.publicKey)).toBe(true);
    expect(sameKeyAs(key.publicKey, key.publicKey.toUpperCase())).toBe(true);
    expect(sameKeyAs(key.publicKey, key.publicKeyUncompressed)).toBe(true);
    expect(sameKeyAs(key.publicKeyUncompressed.toUpperCase(), key.publicKey)).toBe(true);
    expect(sameKeyAs(key.publicKey, other.publicKey)).toBe(false);
    expect(sameKeyAs(key.publicKey, other.publicKeyUncompressed)).toBe(false);
    expect(sameKeyAs(key.publicKey, undefined)).toBe(false);
    expect(sameKeyAs(key.publicKey, '')).toBe(false);
    expect(sameKeyAs(key.publicKey, `02${'ff'.repeat(32)}`)).toBe(false);
    expect(sameKeyAs(key.publicKey, 'not a key')).toBe(false);
  });
});
