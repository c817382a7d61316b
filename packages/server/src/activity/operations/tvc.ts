/**
 * TVC manifests (create_tvc_manifest, this project's) and their operator approvals (spec B
 * create_tvc_manifest_approvals). An approval is a DER hex ECDSA-P256 signature over SHA-256
 * of the manifest's UTF-8 bytes by the operator's key.
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { compressPublicKey } from '@walletkit/crypto';
import { ApiError } from '../../errors.js';
import { newId } from '../../store/ids.js';
import { tvcManifestApprovals, tvcManifests, tvcOperators } from '../../store/schema.js';
import type { HandlerTable } from '../context.js';
import { verifyP256Node } from '../p256-node.js';

/** @throws ApiError ERR_INVALID_PUBLIC_KEY unless `hex` is a compressed P-256 point. */
function compressedP256(hex: string, field: string): string {
  const key = hex.toLowerCase();
  if (!/^0[23][0-9a-f]{64}$/.test(key)) throw new ApiError('ERR_INVALID_PUBLIC_KEY', 'an operator key is a compressed P-256 public key (33 bytes hex)', field);
  try {
    return compressPublicKey('p256', key);
  } catch (cause) {
    throw new ApiError('ERR_INVALID_PUBLIC_KEY', 'the operator key is not a point of P-256', field, { cause });
  }
}

/** Handlers of create_tvc_manifest and create_tvc_manifest_approvals. */
export const tvcHandlers = {
  create_tvc_manifest: async (params, ctx) => {
    const keys = params.operators.map((op, i) => compressedP256(op.publicKey, `operators.${i}.publicKey`));
    const repeated = keys.findIndex((k, i) => keys.indexOf(k) !== i);
    if (repeated >= 0) throw new ApiError('ERR_INVALID_PARAMETER', 'each operator has its own key', `operators.${repeated}.publicKey`);
    if (params.threshold > keys.length) {
      throw new ApiError('ERR_INVALID_QUORUM', `threshold ${params.threshold} exceeds the ${keys.length} operators`, 'threshold');
    }
    const manifestId = newId();
    await ctx.tx.insert(tvcManifests).values({
      id: manifestId,
      organizationId: ctx.organizationId,
      manifest: params.manifest,
      manifestHash: createHash('sha256').update(params.manifest, 'utf8').digest('hex'),
      threshold: params.threshold,
      createdAt: ctx.now(),
    });
    const operatorIds = keys.map(() => newId());
    await ctx.tx
      .insert(tvcOperators)
      .values(params.operators.map((op, i) => ({ id: operatorIds[i]!, organizationId: ctx.organizationId, manifestId, name: op.name, publicKey: keys[i]! })));
    return { manifestId, operatorIds };
  },

  create_tvc_manifest_approvals: async (params, ctx) => {
    const [manifest] = await ctx.tx
      .select()
      .from(tvcManifests)
      .where(and(eq(tvcManifests.id, params.manifestId), eq(tvcManifests.organizationId, ctx.organizationId)));
    if (!manifest) throw new ApiError('ERR_MANIFEST_NOT_FOUND', `manifest ${params.manifestId} not found`, 'manifestId');
    const operators = await ctx.tx.select().from(tvcOperators).where(eq(tvcOperators.manifestId, manifest.id));
    const existing = await ctx.tx
      .select({ id: tvcManifestApprovals.id, operatorId: tvcManifestApprovals.operatorId })
      .from(tvcManifestApprovals)
      .where(eq(tvcManifestApprovals.manifestId, manifest.id));
    const approvalOf = new Map(existing.map((a) => [a.operatorId, a.id]));
    const message = new TextEncoder().encode(manifest.manifest);
    const approvalIds: string[] = [];
    for (const [i, approval] of params.approvals.entries()) {
      const operator = operators.find((o) => o.id === approval.operatorId);
      if (!operator)
        throw new ApiError('ERR_OPERATOR_NOT_FOUND', `operator ${approval.operatorId} is not an operator of this manifest`, `approvals.${i}.operatorId`);
      if (!verifyP256Node(operator.publicKey, message, approval.signature)) {
        throw new ApiError('ERR_INVALID_SIGNATURE', `the signature of operator ${operator.id} does not verify over the manifest`, `approvals.${i}.signature`);
      }
      // An operator approves once; approving again is idempotent and returns the first approval.
      let id = approvalOf.get(operator.id);
      if (id === undefined) {
        id = newId();
        await ctx.tx
          .insert(tvcManifestApprovals)
          .values({ id, manifestId: manifest.id, operatorId: operator.id, signature: approval.signature.toLowerCase(), createdAt: ctx.now() });
        approvalOf.set(operator.id, id);
      }
      approvalIds.push(id);
    }
    return { approvalIds };
  },
} satisfies HandlerTable;
