/**
 * Export target keys are one-time keys (DESIGN section 2, HPKE): the client makes a fresh P-256
 * key for each export and throws it away once the bundle is opened. A key seen twice means a
 * client that keeps it (an export bundle is then readable by whoever holds that key later) or
 * a replay by someone who captured it, so the second export to one key in an organization is
 * refused. The claim is a row of the activity's transaction: a failed export leaves none.
 */
import { exportTarget } from '../../enclave/index.js';
import { ApiError } from '../../errors.js';
import { usedExportTargets } from '../../store/schema.js';
import type { OperationContext } from '../context.js';

/**
 * Record `targetPublicKey` as used by this organization.
 * @example await claimExportTarget(ctx, params.targetPublicKey);
 * @throws ApiError ERR_INVALID_PUBLIC_KEY | ERR_TARGET_KEY_REUSED
 */
export async function claimExportTarget(ctx: OperationContext, targetPublicKey: string): Promise<void> {
  const key = exportTarget(targetPublicKey).toLowerCase();
  const claimed = await ctx.tx
    .insert(usedExportTargets)
    .values({ organizationId: ctx.organizationId, targetPublicKey: key, usedAt: ctx.now() })
    .onConflictDoNothing()
    .returning({ key: usedExportTargets.targetPublicKey });
  if (claimed.length === 0) throw new ApiError('ERR_TARGET_KEY_REUSED', undefined, 'targetPublicKey');
}
