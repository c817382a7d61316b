import { Type, type Static } from '@sinclair/typebox';
import { Obj } from './descriptor.js';

/** Submit request envelope (spec "Submit request envelope"). `parameters` is checked per operation. */
export const SubmitEnvelope = Obj({
  type: Type.String({ minLength: 1 }),
  // Canonical decimal only: no leading zeros, so one instant has one spelling (and one fingerprint).
  timestampMs: Type.String({ pattern: '^(0|[1-9][0-9]{0,15})$' }),
  organizationId: Type.String({ minLength: 1, maxLength: 128 }),
  parameters: Type.Object({}, { additionalProperties: true }),
  generateAppProofs: Type.Optional(Type.Boolean()),
});
export type SubmitEnvelope = Static<typeof SubmitEnvelope>;

export const ACTIVITY_STATUSES = [
  'ACTIVITY_STATUS_CREATED',
  'ACTIVITY_STATUS_PENDING',
  'ACTIVITY_STATUS_COMPLETED',
  'ACTIVITY_STATUS_FAILED',
  'ACTIVITY_STATUS_CONSENSUS_NEEDED',
  'ACTIVITY_STATUS_REJECTED',
] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];

export const Vote = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  activityId: Type.String(),
  selection: Type.Union([Type.Literal('VOTE_SELECTION_APPROVED'), Type.Literal('VOTE_SELECTION_REJECTED')]),
  createdAt: Type.String(),
});
export type Vote = Static<typeof Vote>;

/** App Proof: the enclave's signature over what an activity did, verifiable by clients. */
export const AppProof = Type.Object({
  scheme: Type.Literal('SIGNATURE_SCHEME_EPHEMERAL_KEY_P256'),
  publicKey: Type.String(),
  proofPayload: Type.String(),
  signature: Type.String(),
});
export type AppProof = Static<typeof AppProof>;

/** The full activity record (spec "Activity record"). */
export const Activity = Type.Object({
  id: Type.String(),
  organizationId: Type.String(),
  status: Type.Union(ACTIVITY_STATUSES.map((s) => Type.Literal(s))),
  type: Type.String(),
  intent: Type.Record(Type.String(), Type.Unknown()),
  result: Type.Record(Type.String(), Type.Unknown()),
  votes: Type.Array(Vote),
  fingerprint: Type.String(),
  canApprove: Type.Boolean(),
  canReject: Type.Boolean(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  appProofs: Type.Optional(Type.Array(AppProof)),
});
export type Activity = Static<typeof Activity>;

/**
 * Reply of every submit: `activity` holds the record; `id, status, type, organizationId,
 * timestampMs, result` are mirrored at the top level as the spec describes.
 */
export interface ActivityReply {
  activity: Activity;
  id: string;
  status: ActivityStatus;
  type: string;
  organizationId: string;
  timestampMs: string;
  result: Record<string, unknown>;
}
