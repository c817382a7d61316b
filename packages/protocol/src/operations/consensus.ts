import { Type } from '@sinclair/typebox';
import { defineOperation, Obj } from '../descriptor.js';
import { Activity } from '../envelope.js';

/** The fingerprint of the activity voted on: `sha256:<hex>` of its body, as Turnkey writes it (a bare hex digest is accepted too). */
const Fingerprint = Type.String({ minLength: 1, maxLength: 256 });

/**
 * Extra (Turnkey ACTIVITY_TYPE_APPROVE_ACTIVITY): vote to approve an activity awaiting
 * consensus. Turnkey has no result key for it (its reply is the voted-on activity);
 * `approveActivityResult: { activity }` is this project's name for that record.
 * @example { fingerprint: activity.fingerprint } // -> { activity }
 */
export const approveActivity = defineOperation({
  name: 'approve_activity',
  spec: false,
  parameters: Obj({ fingerprint: Fingerprint }),
  result: Obj({ activity: Activity }),
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_REJECT_ACTIVITY): vote to reject an activity awaiting consensus.
 * `rejectActivityResult: { activity }` is this project's name, as for approve_activity.
 * @example { fingerprint: activity.fingerprint } // -> { activity }
 */
export const rejectActivity = defineOperation({
  name: 'reject_activity',
  spec: false,
  parameters: Obj({ fingerprint: Fingerprint }),
  result: Obj({ activity: Activity }),
});
