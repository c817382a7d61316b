/**
 * The only way the proxy reaches the activity API (spec A, "What the service does" 2 and 4):
 * build the envelope, open the proxy API key in memory for this one request, stamp the exact
 * body bytes with it, and POST over HTTP to the server's own public activity API. Error
 * replies come back to the caller unchanged (same code, message and field).
 */
import { stampApiKey, type AppProof } from '@walletkit/crypto';
import { isErrorCode, operations, type OperationName, type ParamsOf, type ResultOf } from '@walletkit/protocol';
import type { Services } from '../activity/context.js';
import { ApiError } from '../errors.js';
import { issuerOf } from '../oauth/issued-token.js';
import type { ProxyConfigRow } from './repository.js';

/** An outbound activity call should never hang a proxy request. */
const FORWARD_TIMEOUT_MS = 15_000;

/** The activity API base URL the proxy posts to: the server's public URL (set by startServer after listen). */
export function activityApiBase(services: Services): string {
  return `${issuerOf(services.config)}/public/v1`;
}

/** Open the proxy API private key (hex) sealed at rest in the configuration. */
async function openProxyKey(services: Services, config: ProxyConfigRow): Promise<string> {
  const revealed = await services.enclave.revealSecret(config.proxyApiPrivateKeyEncrypted);
  // Stored as the hex text of the 32-byte key (admin/proxy.ts); anything else is corrupt storage.
  if (!/^[0-9a-fA-F]{64}$/.test(revealed)) throw new ApiError('ERR_INTERNAL', 'the proxy API key is not a P-256 private key');
  return revealed;
}

/** Rebuild the activity API's error as ours, so the caller sees the same body. */
function errorFromReply(status: number, body: unknown): ApiError {
  const detail = (body as { details?: Array<{ errorCode?: unknown; field?: unknown }> } | null)?.details?.[0];
  const message = (body as { message?: unknown } | null)?.message;
  if (detail && isErrorCode(detail.errorCode)) {
    return new ApiError(detail.errorCode, typeof message === 'string' ? message : undefined, typeof detail.field === 'string' ? detail.field : undefined);
  }
  return new ApiError('ERR_UNAVAILABLE', `the activity API replied ${status} without an error code`);
}

/**
 * Submit `op` on `organizationId` with the proxy's key and return the result object.
 * @example const { otpId } = await forwardActivity(services, config, 'init_otp', config.organizationId, { otpType, contact });
 * @throws ApiError the activity API's error as is; ERR_UNAVAILABLE when it cannot be reached
 */
export async function forwardActivity<N extends OperationName>(
  services: Services,
  config: ProxyConfigRow,
  op: N,
  organizationId: string,
  parameters: ParamsOf<N>,
): Promise<ResultOf<N>> {
  return (await forwardWithProofs(services, config, op, organizationId, parameters, false)).result;
}

/**
 * {@link forwardActivity} asking the activity for App Proofs (when `appProofs`), which the proxy
 * passes through to its caller unverified (spec: end-user clients verify them).
 * @example const { result, appProofs } = await forwardWithProofs(services, config, 'create_sub_organization', orgId, params, true);
 */
export async function forwardWithProofs<N extends OperationName>(
  services: Services,
  config: ProxyConfigRow,
  op: N,
  organizationId: string,
  parameters: ParamsOf<N>,
  appProofs: boolean,
): Promise<{ result: ResultOf<N>; appProofs: AppProof[] }> {
  const descriptor = operations[op];
  const body = JSON.stringify({
    type: descriptor.type,
    timestampMs: String(services.now().getTime()),
    organizationId,
    parameters,
    ...(appProofs ? { generateAppProofs: true } : {}),
  });
  // The key exists in memory only for the stamp; as a JS string it cannot be wiped, so it is
  // dropped right away and never logged (see the report on Enclave.revealSecret).
  let stamp: string;
  {
    const privateKey = await openProxyKey(services, config);
    stamp = stampApiKey(body, { privateKey, publicKey: config.proxyApiPublicKey });
  }
  let res: Response;
  try {
    res = await services.fetch(`${activityApiBase(services)}/submit/${op}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-stamp': stamp },
      body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
  } catch (cause) {
    throw new ApiError('ERR_UNAVAILABLE', 'the activity API cannot be reached', undefined, { cause });
  }
  let reply: unknown;
  try {
    reply = await res.json();
  } catch (cause) {
    throw new ApiError('ERR_UNAVAILABLE', `the activity API replied ${res.status} without JSON`, undefined, { cause });
  }
  if (res.status !== 200) throw errorFromReply(res.status, reply);
  const activity = (reply as { activity?: { status?: string; result?: Record<string, unknown>; appProofs?: AppProof[] } }).activity;
  if (activity?.status !== 'ACTIVITY_STATUS_COMPLETED') {
    // The proxy user acts alone; anything but completion means a misconfigured quorum or policy.
    throw new ApiError('ERR_PERMISSION_DENIED', `the proxy's ${op} activity did not complete (${activity?.status ?? 'no status'})`);
  }
  const result = activity.result?.[descriptor.resultKey];
  if (typeof result !== 'object' || result === null) throw new ApiError('ERR_UNAVAILABLE', `the ${op} reply has no ${descriptor.resultKey}`);
  return { result: result as ResultOf<N>, appProofs: activity.appProofs ?? [] };
}
