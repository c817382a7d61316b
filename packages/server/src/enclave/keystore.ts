import { eq } from 'drizzle-orm';
import { generateP256KeyPair, p256PublicKey } from '@walletkit/crypto';
import type { Store } from '../store/db.js';
import { enclaveKeys } from '../store/schema.js';
import { openAesGcm, sealAesGcm } from './aes-gcm.js';

/** The enclave's long-lived keys, shared by every server instance on one database. */
export interface EnclaveKeyPair {
  privateKey: string;
  publicKey: string;
  publicKeyUncompressed: string;
}

const aadOf = (name: string) => Buffer.from(`walletkit-enclave-key:${name}`);

function seal(masterKey: Buffer, plaintext: Buffer, name: string) {
  const { nonce, ciphertext } = sealAesGcm(masterKey, plaintext, aadOf(name));
  return { iv: nonce, ciphertext };
}

function unseal(masterKey: Buffer, sealed: { iv: string; ciphertext: string }, name: string): Buffer {
  try {
    return openAesGcm(masterKey, sealed.iv, sealed.ciphertext, aadOf(name));
  } catch (cause) {
    throw new Error(`enclave key "${name}" cannot be unsealed: wrong WALLETKIT_MASTER_KEY for this database`, { cause });
  }
}

/**
 * Load a named P-256 key pair, creating it on first use. Concurrent first starts race
 * safely: the insert is `ON CONFLICT DO NOTHING` and everyone re-reads the winner.
 */
export async function loadOrCreateKeyPair(store: Store, masterKey: Buffer, name: string): Promise<EnclaveKeyPair> {
  const read = async () => (await store.db.select().from(enclaveKeys).where(eq(enclaveKeys.name, name)))[0];
  let row = await read();
  if (!row) {
    const fresh = generateP256KeyPair();
    await store.db
      .insert(enclaveKeys)
      .values({ name, sealed: seal(masterKey, Buffer.from(fresh.privateKey, 'hex'), name) })
      .onConflictDoNothing();
    row = await read();
    if (!row) throw new Error(`enclave key "${name}" could not be stored`);
  }
  const privateKey = unseal(masterKey, row.sealed, name).toString('hex');
  return { privateKey, publicKey: p256PublicKey(privateKey, true), publicKeyUncompressed: p256PublicKey(privateKey, false) };
}

/** A P-256 key pair's public half as a JWK (the signing key in /.well-known/jwks.json). */
export function publicJwk(pair: EnclaveKeyPair, kid: string): Record<string, string> {
  const raw = Buffer.from(pair.publicKeyUncompressed, 'hex');
  return {
    kty: 'EC',
    crv: 'P-256',
    x: raw.subarray(1, 33).toString('base64url'),
    y: raw.subarray(33, 65).toString('base64url'),
    alg: 'ES256',
    use: 'sig',
    kid,
  };
}
