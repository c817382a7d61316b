/**
 * App Proofs, verified (issue 12). The client asks for them (`generateAppProofs: true`) on the
 * activities whose result the user relies on (wallet creation, signing, export: see
 * {@link PROOF_OPERATIONS}) and checks every reply: each proof is signed by the pinned enclave
 * key, and the statement it signs is about this very request and this very result: activity
 * id, organization, type, fingerprint (SHA-256 of the body this client sent, computed here),
 * timestamp and result all match. A missing or bad proof is `ERR_APP_PROOF_INVALID`.
 * What a proof proves when the enclave is a process boundary and not a TEE: SECURITY.md.
 */
import type { ActivityReply, OperationName } from '@walletkit/protocol';
import { operationWire } from '@walletkit/protocol/wire';
import type { AppProof } from '@walletkit/crypto';
import { WalletKitError } from './errors.js';
import { activityFingerprintWeb, verifyAppProofWeb } from './webcrypto/app-proof.js';

/** The operations whose replies carry App Proofs the client verifies. */
export const PROOF_OPERATIONS: ReadonlySet<OperationName> = new Set<OperationName>([
  'create_wallet',
  'create_wallet_accounts',
  'import_wallet',
  'import_private_key',
  'sign_raw_payload',
  'sign_raw_payloads',
  'sign_transaction',
  'export_wallet',
  'export_wallet_account',
  'export_private_key',
]);

/** The statement an App Proof signs (`proofPayload`, JSON), as the walletkit enclave writes it. */
export interface AppProofStatement {
  scheme: 'APP_PROOF_SCHEME_WALLETKIT_V1';
  activityId: string;
  organizationId: string;
  type: string;
  fingerprint: string;
  timestampMs: string;
  result: Record<string, unknown>;
}

/** JSON with object keys sorted at every level: two documents with the same content compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function invalid(why: string): WalletKitError {
  return new WalletKitError('ERR_APP_PROOF_INVALID', `The server's App Proof does not vouch for this result: ${why}.`);
}

/**
 * Checks the App Proofs of a completed activity against the request that produced it. Throws
 * `ERR_APP_PROOF_INVALID` when they are missing, signed by another key, or about another
 * activity, organization, type, request or result.
 *
 * @example
 * ```ts
 * const body = JSON.stringify({ type, timestampMs, organizationId, parameters, generateAppProofs: true });
 * const reply = await post(body);
 * await verifyActivityProofs(reply, { body, enclavePublicKey });
 * ```
 */
export async function verifyActivityProofs(reply: ActivityReply, request: { body: string; enclavePublicKey: string }): Promise<void> {
  const activity = reply.activity;
  const proofs: AppProof[] = activity.appProofs ?? [];
  if (proofs.length === 0) throw invalid('the reply carries no App Proof');
  const sent = JSON.parse(request.body) as { type: string; timestampMs: string; organizationId: string };
  const fingerprint = await activityFingerprintWeb(request.body);
  for (const proof of proofs) {
    if (!(await verifyAppProofWeb(proof, request.enclavePublicKey))) throw invalid('it is not signed by the pinned enclave key');
    let statement: Partial<AppProofStatement>;
    try {
      statement = JSON.parse(proof.proofPayload) as Partial<AppProofStatement>;
    } catch {
      throw invalid('its statement is not JSON');
    }
    if (statement.scheme !== 'APP_PROOF_SCHEME_WALLETKIT_V1') throw invalid('its scheme is unknown');
    if (statement.activityId !== activity.id) throw invalid('it is about another activity');
    if (statement.organizationId !== activity.organizationId || statement.organizationId !== sent.organizationId)
      throw invalid('it is about another organization');
    if (statement.type !== activity.type || statement.type !== sent.type) throw invalid('it is about another activity type');
    // Statements signed before fingerprints carried Turnkey's `sha256:` prefix name the bare digest.
    if (statement.fingerprint !== fingerprint && `sha256:${statement.fingerprint}` !== fingerprint) throw invalid('it is about another request');
    if (statement.timestampMs !== sent.timestampMs) throw invalid('it is about another request time');
    if (canonical(statement.result) !== canonical(activity.result)) throw invalid('it vouches for another result');
  }
}

/**
 * Checks the App Proofs a signup with a wallet returns (the proxy's `create_sub_organization`,
 * passed through unverified): signed by the pinned key, about a `create_sub_organization` under
 * the integrator's organization, whose result is this sub-organization and this wallet. The client
 * did not write that activity's body, so the fingerprint is not checked here.
 *
 * @example await verifySignupProofs(reply, { enclavePublicKey, parentOrganizationId: config.organizationId });
 */
export async function verifySignupProofs(
  reply: { organizationId: string; wallet?: { walletId: string; addresses: string[] } | undefined; appProofs?: AppProof[] | undefined },
  expected: { enclavePublicKey: string; parentOrganizationId: string },
): Promise<void> {
  if (!reply.wallet) return;
  const proofs = reply.appProofs ?? [];
  if (proofs.length === 0) throw invalid('the signup reply carries no App Proof for its wallet');
  const { type, resultKey } = operationWire('create_sub_organization');
  for (const proof of proofs) {
    if (!(await verifyAppProofWeb(proof, expected.enclavePublicKey))) throw invalid('it is not signed by the pinned enclave key');
    let statement: Partial<AppProofStatement>;
    try {
      statement = JSON.parse(proof.proofPayload) as Partial<AppProofStatement>;
    } catch {
      throw invalid('its statement is not JSON');
    }
    if (statement.scheme !== 'APP_PROOF_SCHEME_WALLETKIT_V1' || statement.type !== type) throw invalid('it is about another activity type');
    if (statement.organizationId !== expected.parentOrganizationId) throw invalid('it is about another organization');
    const result = statement.result?.[resultKey] as { subOrganizationId?: unknown; wallet?: unknown } | undefined;
    if (result?.subOrganizationId !== reply.organizationId) throw invalid('it is about another sub-organization');
    if (canonical(result.wallet) !== canonical(reply.wallet)) throw invalid('it vouches for another wallet');
  }
}
