/**
 * Compute handlers (context.ts, ComputeContext) as ordinary handlers: an activity that waited for
 * consensus is executed later inside its approval's transaction, where the transaction is the
 * reader (of the signer too: no cached fact inside a transaction).
 */
import type { OperationName } from '@walletkit/protocol';
import type { ComputeHandler, ComputeTable, HandlerTable, OperationHandler } from '../context.js';
import { resolveSigner } from './signers.js';

/**
 * The handlers of `table`, run with the transaction as their reader.
 * @example export const signingHandlers = inTransaction(signingCompute);
 */
export function inTransaction<T extends ComputeTable>(table: T): { [N in keyof T & OperationName]: OperationHandler<N> } {
  const out: HandlerTable = {};
  for (const [name, compute] of Object.entries(table) as Array<[OperationName, ComputeHandler<OperationName>]>) {
    (out as Record<string, unknown>)[name] = ((params, ctx) =>
      compute(params as never, {
        ...ctx,
        db: ctx.tx,
        signer: (signWith) => resolveSigner(ctx.tx, ctx.organizationId, signWith),
      })) as OperationHandler<OperationName>;
  }
  return out as { [N in keyof T & OperationName]: OperationHandler<N> };
}
