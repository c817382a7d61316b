import { Type } from '@sinclair/typebox';
import { defineOperation, Obj, Enum } from '../descriptor.js';
import { POLICY_EFFECTS } from '../enums.js';
import { Id, Name, Notes } from '../fields.js';

/** A policy condition or consensus expression (Turnkey policy language). */
const Expression = Type.String({ maxLength: 8192 });

/**
 * Spec B: create a policy. Path has no suffix, type and intent carry V3, the result key does
 * not (spec "Versioning" 2-3). `condition`, `consensus` and `notes` are optional: a policy
 * without a condition matches every activity, without a consensus needs no approvals.
 * @example { policyName: 'Allow signing', effect: 'EFFECT_ALLOW', condition: "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS'" }
 */
export const createPolicy = defineOperation({
  name: 'create_policy',
  spec: true,
  parameters: Obj({
    policyName: Name,
    effect: Enum(POLICY_EFFECTS),
    condition: Type.Optional(Expression),
    consensus: Type.Optional(Expression),
    notes: Type.Optional(Notes),
  }),
  result: Obj({ policyId: Type.String() }),
});

/**
 * Spec B: update a policy; only condition, consensus and notes are optional (as the spec marks
 * them). An absent optional field keeps its stored value.
 * @example { policyId, policyName: 'Allow signing', policyEffect: 'EFFECT_DENY' }
 */
export const updatePolicy = defineOperation({
  name: 'update_policy',
  spec: true,
  parameters: Obj({
    policyId: Id,
    policyName: Name,
    policyEffect: Enum(POLICY_EFFECTS),
    policyCondition: Type.Optional(Expression),
    policyConsensus: Type.Optional(Expression),
    policyNotes: Type.Optional(Notes),
  }),
  result: Obj({ policyId: Type.String() }),
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_DELETE_POLICY): delete a policy of the organization. The result
 * names the deleted policy.
 * @example { policyId } // -> { policyId }
 */
export const deletePolicy = defineOperation({
  name: 'delete_policy',
  spec: false,
  parameters: Obj({ policyId: Id }),
  result: Obj({ policyId: Type.String() }),
});
