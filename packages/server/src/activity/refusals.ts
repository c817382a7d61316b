/**
 * How an activity's handler and its statements refuse it (execute.ts answers them): a thrown
 * ApiError rolls the transaction back; a {@link CommittedFailure} commits what the handler wrote;
 * a statement raising `walletkit_refuse` (migration 0014, decision 0034) refuses from the
 * database, read back by {@link refusalRaised}.
 */
import { isErrorCode } from '@walletkit/protocol';
import { ApiError } from '../errors.js';
import { raisedRefusal } from '../store/db-errors.js';

/**
 * Thrown by a handler whose failure must still commit what it wrote (e.g. a wrong OTP
 * attempt is counted): the activity is stored as ACTIVITY_STATUS_FAILED with the error,
 * the transaction commits, and the caller gets `error`. A replay of the same body gets
 * the same error and runs nothing.
 */
export class CommittedFailure extends Error {
  readonly error: ApiError;

  constructor(error: ApiError) {
    super(error.message, { cause: error });
    this.error = error;
    this.name = 'CommittedFailure';
  }
}

/**
 * The refusal a statement raised with `walletkit_refuse` (migration 0014) as the ApiError it
 * names, when `err` is one; undefined otherwise. An unknown code is an internal error, never a
 * 4xx nobody wrote.
 */
export function refusalRaised(err: unknown): ApiError | undefined {
  const raised = raisedRefusal(err);
  if (!raised) return undefined;
  if (!isErrorCode(raised.code)) return new ApiError('ERR_INTERNAL', undefined, undefined, { cause: err });
  return new ApiError(raised.code, raised.message, raised.field, { cause: err });
}
