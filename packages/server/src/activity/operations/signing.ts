/**
 * sign_raw_payloads (spec B) and sign_raw_payload (Turnkey's SIGN_RAW_PAYLOAD_V2, what
 * @turnkey/viem sends): resolve `signWith` within the organization, check and hash every
 * payload, then one enclave call: one unseal and at most one derivation per request.
 */
import { isCryptoError, payloadToSign, type Curve, type HashFunction, type PayloadEncoding } from '@walletkit/crypto';
import { ApiError } from '../../errors.js';
import { inTransaction } from './compute.js';
import type { ComputeTable } from '../context.js';
import { signWithSigner } from './signers.js';

/**
 * The bytes to sign for one payload, checked: `payloadToSign`'s, whose keccak-256 (the common
 * case of an Ethereum payload) the signer thread takes, off the event loop. Whatever it rejects
 * is a bad payload at `field`.
 */
function toSign(payload: string, encoding: PayloadEncoding, hashFunction: HashFunction, curve: Curve, field: string): { bytes: Uint8Array; keccak: boolean } {
  try {
    return payloadToSign({ payload, encoding, hashFunction, curve });
  } catch (cause) {
    // payloadToSign is pure over the request: whatever it rejects is a bad payload.
    const message = isCryptoError(cause) ? cause.message : 'the payload cannot be decoded or hashed as requested';
    throw new ApiError('ERR_INVALID_PAYLOAD', message, field, { cause });
  }
}

/** Signing reads and computes only: it runs outside any transaction (context.ts, ComputeContext). */
export const signingCompute = {
  /**
   * secp256k1: ECDSA over the 32-byte digest (low-S, `v` = recovery id 00/01); ed25519: over
   * the message itself (`v` = 00). Invalid encoding/hash combinations are ERR_INVALID_PAYLOAD.
   */
  sign_raw_payloads: async (params, ctx) => {
    const signer = await ctx.signer(params.signWith);
    // Check every payload before the enclave opens anything: a bad payload costs no unseal. Whether
    // a payload waits for keccak depends on the curve, encoding and hash function only, which one
    // request's payloads share: all of them wait, or none.
    const prepared = params.payloads.map((payload, i) => toSign(payload, params.encoding, params.hashFunction, signer.key.curve, `payloads.${i}`));
    const keccak = prepared[0]?.keccak === true;
    return {
      signatures: await signWithSigner(
        ctx,
        signer,
        prepared.map((p) => p.bytes),
        keccak,
      ),
    };
  },

  /** One payload of sign_raw_payloads; the result is the signature itself, `{r, s, v}`. */
  sign_raw_payload: async (params, ctx) => {
    const signer = await ctx.signer(params.signWith);
    const { bytes, keccak } = toSign(params.payload, params.encoding, params.hashFunction, signer.key.curve, 'payload');
    const [signature] = await signWithSigner(ctx, signer, [bytes], keccak);
    return signature!;
  },
} satisfies ComputeTable;

/** The same, inside a transaction (an activity approved by consensus runs there). */
export const signingHandlers = inTransaction(signingCompute);
