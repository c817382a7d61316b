/**
 * Organization bootstrap (the "dashboard" surface): an organization with a root user in
 * its root quorum and a root P-256 API key. Used by the CLI and the demo's `npm start`.
 */
import { generateP256KeyPair } from '@walletkit/crypto';
import type { Store } from '../store/db.js';
import { newId } from '../store/ids.js';
import { apiKeys, organizations, rootQuorumMembers, users } from '../store/schema.js';

export interface CreatedOrganization {
  organizationId: string;
  userId: string;
  /** The root API key; the private key is returned once and never stored. */
  apiKey: { publicKey: string; privateKey: string };
}

/**
 * Create a top-level organization in one transaction.
 * @example const { organizationId, apiKey } = await createOrganization(store, { name: 'Acme' });
 */
export async function createOrganization(store: Store, input: { name: string; userName?: string; userEmail?: string }): Promise<CreatedOrganization> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 256) throw new Error('organization name must be 1 to 256 characters');
  const key = generateP256KeyPair();
  const organizationId = newId();
  const userId = newId();
  await store.transaction(async (tx) => {
    await tx.insert(organizations).values({ id: organizationId, name, rootQuorumThreshold: 1 });
    await tx.insert(users).values({ id: userId, organizationId, userName: input.userName ?? 'root', userEmail: input.userEmail ?? null });
    await tx.insert(rootQuorumMembers).values({ organizationId, userId });
    await tx.insert(apiKeys).values({ id: newId(), organizationId, userId, name: 'root', publicKey: key.publicKey, curve: 'API_KEY_CURVE_P256' });
  });
  return { organizationId, userId, apiKey: { publicKey: key.publicKey, privateKey: key.privateKey } };
}
