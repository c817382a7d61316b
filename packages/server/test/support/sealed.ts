/**
 * What someone holding the master key and a copy of the database can open: the tests' way to
 * read a value the enclave sealed at rest (the server itself has no API that returns one).
 */
import { createDecipheriv, hkdfSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { hpkeOpen } from '@walletkit/crypto';
import type { Sealed } from '../../src/enclave';
import type { Store } from '../../src/store/db';
import { enclaveKeys } from '../../src/store/schema';

/** The hex private key of a named enclave key pair, unsealed with the master key (AES-256-GCM, as keystore.ts seals it). */
export function unsealEnclaveKey(masterKey: string, name: string, sealed: { iv: string; ciphertext: string }): string {
  const ct = Buffer.from(sealed.ciphertext, 'hex');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(masterKey, 'hex'), Buffer.from(sealed.iv, 'hex'));
  decipher.setAAD(Buffer.from(`walletkit-enclave-key:${name}`));
  decipher.setAuthTag(ct.subarray(ct.length - 16));
  return Buffer.concat([decipher.update(ct.subarray(0, ct.length - 16)), decipher.final()]).toString('hex');
}

/**
 * The plaintext bytes of a value sealed to the enclave's at-rest key.
 * @example const key = await openSealedBytes(server, account.privateKeyEncrypted);
 */
export async function openSealedBytes(server: { store: Store; config: { masterKey: string | undefined } }, sealed: Sealed): Promise<Uint8Array> {
  const [row] = await server.store.db.select().from(enclaveKeys).where(eq(enclaveKeys.name, 'at-rest'));
  if (!row || server.config.masterKey === undefined) throw new Error('no at-rest key or master key');
  const receiverPrivateKey = unsealEnclaveKey(server.config.masterKey, 'at-rest', row.sealed);
  if ('encappedPublic' in sealed) return hpkeOpen({ ...sealed, receiverPrivateKey });
  // AES-256-GCM under HKDF-SHA256(at-rest private key, no salt, info), the info also the AAD (at-rest.ts).
  const info = 'walletkit/at-rest/aes-256-gcm/v1';
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(receiverPrivateKey, 'hex'), Buffer.alloc(0), info, 32));
  const ct = Buffer.from(sealed.ciphertext, 'hex');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.nonce, 'hex'));
  decipher.setAAD(Buffer.from(info));
  decipher.setAuthTag(ct.subarray(ct.length - 16));
  return new Uint8Array(Buffer.concat([decipher.update(ct.subarray(0, ct.length - 16)), decipher.final()]));
}

/**
 * The plaintext (UTF-8) of a value sealed to the enclave's at-rest key.
 * @example expect(await openSealed(server, row.clientSecretEncrypted)).toBe(CLIENT_SECRET);
 */
export async function openSealed(server: { store: Store; config: { masterKey: string | undefined } }, sealed: Sealed): Promise<string> {
  return new TextDecoder().decode(await openSealedBytes(server, sealed));
}
