/**
 * The one signing step that needs a plaintext key, shared by the enclave's worker threads
 * (signer-worker.ts) and its in-process fallback: open a sealed private key, sign the prepared
 * messages, zero the key. Nothing else holds it.
 */
import type { Curve, HpkeRecipient } from '@walletkit/crypto';
import { signMessages, type RawSignature } from './key-material.js';

/** A sealed key (HPKE to the at-rest key) and what to sign with it. */
export interface SignJob {
  sealedPrivateKey: { encappedPublic: string; ciphertext: string };
  curve: Curve;
  /** What `payloadDigest` prepared: 32-byte digests (secp256k1) or messages (ed25519). */
  messages: Uint8Array[];
}

/**
 * Open, sign, zero.
 * @throws Error when the sealed key does not open (corrupt storage or another at-rest key)
 */
export async function signSealed(atRest: HpkeRecipient, job: SignJob): Promise<RawSignature[]> {
  const privateKey = await atRest.open(job.sealedPrivateKey);
  try {
    return signMessages(job.curve, privateKey, job.messages);
  } finally {
    privateKey.fill(0);
  }
}
