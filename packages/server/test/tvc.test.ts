import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressPublicKey } from '@walletkit/crypto';
import { tvcManifestApprovals, tvcManifests, tvcOperators } from '../src/store/schema';
import { startTestServer, type TestServer } from './support/harness';
import { addOrganization, expectError } from './support/members';
import { storeKinds } from './support/stores';

/** An operator key: compressed P-256 public key hex and a DER signer over SHA-256 of text. */
function operatorKey(): { publicKey: string; sign(text: string): string } {
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = pair.publicKey.export({ format: 'der', type: 'spki' });
  const publicKey = compressPublicKey('p256', spki.subarray(spki.length - 65).toString('hex'));
  const key: KeyObject = pair.privateKey;
  return { publicKey, sign: (text) => sign('sha256', Buffer.from(text, 'utf8'), { key, dsaEncoding: 'der' }).toString('hex') };
}

const MANIFEST = JSON.stringify({ name: 'pivot-app', version: 3, pcrs: ['00'.repeat(48)] });

describe.each(storeKinds)('TVC manifests on %s', (kind) => {
  let server: TestServer;
  const op1 = operatorKey();
  const op2 = operatorKey();
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.dispose());

  const approvalsOf = async (manifestId: string) => server.store.db.select().from(tvcManifestApprovals).where(eq(tvcManifestApprovals.manifestId, manifestId));
  const newManifest = () =>
    server.client.run('create_tvc_manifest', {
      manifest: MANIFEST,
      operators: [
        { name: 'op1', publicKey: op1.publicKey },
        { name: 'op2', publicKey: op2.publicKey.toUpperCase() },
      ],
      threshold: 2,
    });

  it('given create_tvc_manifest, then the manifest, its SHA-256 and its operators are stored', async () => {
    const { manifestId, operatorIds } = await newManifest();
    expect(operatorIds).toHaveLength(2);
    const [row] = await server.store.db.select().from(tvcManifests).where(eq(tvcManifests.id, manifestId));
    expect(row).toMatchObject({
      organizationId: server.org.organizationId,
      manifest: MANIFEST,
      manifestHash: createHash('sha256').update(MANIFEST).digest('hex'),
      threshold: 2,
    });
    const operators = await server.store.db.select().from(tvcOperators).where(eq(tvcOperators.manifestId, manifestId));
    expect(operators.map((o) => [o.id, o.name, o.publicKey]).sort()).toEqual(
      [
        [operatorIds[0], 'op1', op1.publicKey],
        [operatorIds[1], 'op2', op2.publicKey],
      ].sort(),
    );
  });

  it('given valid operator signatures, then approvals are stored and a repeated approval is idempotent', async () => {
    const { manifestId, operatorIds } = await newManifest();
    const [id1, id2] = operatorIds as [string, string];
    const first = await server.client.run('create_tvc_manifest_approvals', { manifestId, approvals: [{ operatorId: id1, signature: op1.sign(MANIFEST) }] });
    expect(first.approvalIds).toHaveLength(1);
    const both = await server.client.run('create_tvc_manifest_approvals', {
      manifestId,
      approvals: [
        { operatorId: id2, signature: op2.sign(MANIFEST) },
        { operatorId: id1, signature: op1.sign(MANIFEST) },
      ],
    });
    expect(both.approvalIds[1]).toBe(first.approvalIds[0]);
    const stored = await approvalsOf(manifestId);
    expect(stored.map((a) => a.operatorId).sort()).toEqual([id1, id2].sort());
    expect(stored.map((a) => a.id).sort()).toEqual([...both.approvalIds].sort());
  });

  it('given a signature by another key or over other bytes, then ERR_INVALID_SIGNATURE and nothing is stored', async () => {
    const { manifestId, operatorIds } = await newManifest();
    const [id1, id2] = operatorIds as [string, string];
    const cases = [
      [{ operatorId: id1, signature: op2.sign(MANIFEST) }],
      [{ operatorId: id1, signature: op1.sign(`${MANIFEST} `) }],
      // A valid approval before a bad one is rolled back with it.
      [
        { operatorId: id2, signature: op2.sign(MANIFEST) },
        { operatorId: id1, signature: '3006020101020101' },
      ],
    ];
    for (const approvals of cases) {
      expectError(await server.client.submit('create_tvc_manifest_approvals', { manifestId, approvals }), 400, 'ERR_INVALID_SIGNATURE');
    }
    expect(await approvalsOf(manifestId)).toEqual([]);
    expectError(
      await server.client.submit('create_tvc_manifest_approvals', { manifestId, approvals: [{ operatorId: id1, signature: 'zz' }] }),
      400,
      'ERR_INVALID_REQUEST',
    );
  });

  it("given an unknown or another org's manifest, or an operator of another manifest, then 404", async () => {
    const mine = await newManifest();
    const otherManifest = await newManifest();
    const other = await addOrganization(server);
    const theirs = await other.client.run('create_tvc_manifest', { manifest: MANIFEST, operators: [{ name: 'x', publicKey: op1.publicKey }], threshold: 1 });
    const approval = (operatorId: string) => [{ operatorId, signature: op1.sign(MANIFEST) }];
    expectError(
      await server.client.submit('create_tvc_manifest_approvals', { manifestId: 'nope', approvals: approval(mine.operatorIds[0]!) }),
      404,
      'ERR_MANIFEST_NOT_FOUND',
      'manifestId',
    );
    expectError(
      await server.client.submit('create_tvc_manifest_approvals', { manifestId: theirs.manifestId, approvals: approval(theirs.operatorIds[0]!) }),
      404,
      'ERR_MANIFEST_NOT_FOUND',
    );
    expectError(
      await server.client.submit('create_tvc_manifest_approvals', { manifestId: mine.manifestId, approvals: approval(otherManifest.operatorIds[0]!) }),
      404,
      'ERR_OPERATOR_NOT_FOUND',
      'approvals.0.operatorId',
    );
  });

  it('given bad operator keys or a threshold above the operators, then create_tvc_manifest answers 400', async () => {
    const submit = (operators: Array<{ name: string; publicKey: string }>, threshold = 1) =>
      server.client.submit('create_tvc_manifest', { manifest: MANIFEST, operators, threshold });
    const uncompressed = `04${'11'.repeat(64)}`;
    expectError(await submit([{ name: 'a', publicKey: uncompressed }]), 400, 'ERR_INVALID_PUBLIC_KEY', 'operators.0.publicKey');
    expectError(await submit([{ name: 'a', publicKey: `02${'ff'.repeat(32)}` }]), 400, 'ERR_INVALID_PUBLIC_KEY');
    expectError(
      await submit([
        { name: 'a', publicKey: op1.publicKey },
        { name: 'b', publicKey: op1.publicKey },
      ]),
      400,
      'ERR_INVALID_PARAMETER',
      'operators.1.publicKey',
    );
    expectError(await submit([{ name: 'a', publicKey: op1.publicKey }], 2), 400, 'ERR_INVALID_QUORUM', 'threshold');
    expectError(await submit([]), 400, 'ERR_INVALID_REQUEST');
  });
});
