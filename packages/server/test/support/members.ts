/**
 * Test fixtures written straight to the store (no activity), for what other operations
 * would otherwise have to create first: extra users with API keys (optionally root quorum
 * members), a second organization, private key rows with a dummy sealed value.
 */
import { expect } from 'vitest';
import { generateP256KeyPair } from '@walletkit/crypto';
import { createOrganization } from '../../src/admin/organizations';
import { newId } from '../../src/store/ids';
import { apiKeys, privateKeys, rootQuorumMembers, users } from '../../src/store/schema';
import type { Reply, TestServer, ActivityClient } from './harness';

export interface Member {
  userId: string;
  client: ActivityClient;
}

/** A new user of `organizationId` with a P-256 API key; a root quorum member when `root`. */
export async function addUser(server: TestServer, opts: { organizationId?: string; root?: boolean; name?: string } = {}): Promise<Member> {
  const organizationId = opts.organizationId ?? server.org.organizationId;
  const key = generateP256KeyPair();
  const userId = newId();
  await server.store.transaction(async (tx) => {
    await tx.insert(users).values({ id: userId, organizationId, userName: opts.name ?? `user-${userId.slice(0, 8)}` });
    if (opts.root) await tx.insert(rootQuorumMembers).values({ organizationId, userId });
    await tx.insert(apiKeys).values({ id: newId(), organizationId, userId, name: 'test', publicKey: key.publicKey, curve: 'API_KEY_CURVE_P256' });
  });
  return { userId, client: server.client.with({ key: { publicKey: key.publicKey, privateKey: key.privateKey }, organizationId }) };
}

/** A second top-level organization with its own root user and a client stamping for it. */
export async function addOrganization(server: TestServer, name = 'Other Org'): Promise<{ organizationId: string; userId: string; client: ActivityClient }> {
  const org = await createOrganization(server.store, { name });
  return { organizationId: org.organizationId, userId: org.userId, client: server.client.with({ key: org.apiKey, organizationId: org.organizationId }) };
}

/** A private key row (its sealed key is a placeholder: tag tests never use it). */
export async function addPrivateKey(server: TestServer, organizationId = server.org.organizationId): Promise<string> {
  const id = newId();
  await server.store.db.insert(privateKeys).values({
    id,
    organizationId,
    name: `key-${id.slice(0, 8)}`,
    curve: 'CURVE_SECP256K1',
    privateKeyEncrypted: { encappedPublic: '04', ciphertext: '00' },
    publicKey: '02'.padEnd(66, '1'),
  });
  return id;
}

/** Assert a failed reply: HTTP status and stable error code (and field, when given). */
export function expectError(reply: Reply, status: number, code: string, field?: string): void {
  expect({ status: reply.status, code: reply.body?.details?.[0]?.errorCode }).toEqual({ status, code });
  if (field !== undefined) expect(reply.body.details[0].field).toBe(field);
}
