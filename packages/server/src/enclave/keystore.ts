import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { generateP256KeyPair, p256PublicKey } from '@walletkit/crypto';
import type { Store } from '../store/db.js';
import { enclaveKeys } from '../store/schema.js';

/** The enclave's long-lived keys, shared by every server instance on one database. */
export interface EnclaveKeyPair {
  privateKey: string;
  publicKey: string;
  publicKeyUncompressed: string;
}

function seal(masterKey: Buffer, plaintext: Buffer, name: string) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
  cipher.setAAD(Buffer.from(`walletkit-enclave-key:${name}`));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { iv: iv.toString('hex'), ciphertext: ct.toString('hex') };
}

function unseal(masterKey: Buffer, sealed: { iv: string; ciphertext: string }, name: string): Buffer {
  const ct = Buffer.from(sealed.ciphertext, 'hex');
  const decipher = createDecipheriv('aes-256-gcm', masterKey, Buffer.from(sealed.iv, 'hex'));
  decipher.setAAD(Buffer.from(`walletkit-enclave-key:${name}`));
  decipher.setAuthTag(ct.subarray(ct.length - 16));
  try {
    return Buffer.concat([decipher.update(ct.subarray(0, ct.length - 16)), decipher.final()]);
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
