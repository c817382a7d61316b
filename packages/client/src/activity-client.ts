import type { ActivityReply, OperationName, ParamsOf, QueryName, QueryRequestOf, QueryResponseOf, ResultOf } from '@walletkit/protocol';
import { operationWire, queryPath } from '@walletkit/protocol/wire';
import { PROOF_OPERATIONS, verifyActivityProofs } from './app-proofs.js';
import { WalletKitError } from './errors.js';
import type { Stamper } from './stampers/types.js';
import { postJson, type FetchLike } from './transport.js';

/**
 * Who signs and for which organization: usually the session (the session manager supplies
 * both), or a passkey/wallet stamper for one call.
 *
 * @example
 * ```ts
 * const auth: ActivityAuth = { stamper: createPasskeyStamper(), organizationId };
 * ```
 */
export interface ActivityAuth {
  stamper: Stamper;
  organizationId: string;
}

/**
 * Options of {@link createActivityClient}.
 *
 * @example
 * ```ts
 * const opts: ActivityClientOptions = { apiUrl: 'https://api.example', fetch, auth: () => session.auth() };
 * ```
 */
export interface ActivityClientOptions {
  apiUrl: string;
  fetch: FetchLike;
  /** The default signer and organization, looked up per call (the session changes). */
  auth: () => Promise<ActivityAuth> | ActivityAuth;
  /** Milliseconds since the epoch for `timestampMs`; `Date.now` by default. */
  now?: (() => number) | undefined;
  /**
   * The pinned enclave key (uncompressed hex). With it, the activities of `PROOF_OPERATIONS`
   * (wallet creation, signing, export) ask for App Proofs and every completed reply is verified
   * (`ERR_APP_PROOF_INVALID` otherwise).
   */
  enclavePublicKey?: string | undefined;
}

/**
 * The activity API (`/public/v1`): `submit(op, params)` typed from the protocol registry,
 * `query(name, request)` for reads. Both stamp the exact body sent.
 *
 * @example
 * ```ts
 * const { walletId, addresses } = await activity.submit('create_wallet', { walletName: 'Main', accounts: [ETH0] });
 * const { wallets } = await activity.query('list_wallets', {});
 * ```
 */
export interface ActivityClient {
  /** Submits an activity and returns its result; anything but COMPLETED is `ERR_ACTIVITY_NOT_COMPLETED`. */
  submit<N extends OperationName>(op: N, params: ParamsOf<N>, auth?: Partial<ActivityAuth>): Promise<ResultOf<N>>;
  /** Submits and returns the whole reply (for activities awaiting consensus). */
  submitRaw<N extends OperationName>(op: N, params: ParamsOf<N>, auth?: Partial<ActivityAuth>): Promise<ActivityReply>;
  /** A read; `organizationId` defaults to the session's. */
  query<N extends QueryName>(
    name: N,
    request: Omit<QueryRequestOf<N>, 'organizationId'> & { organizationId?: string },
    auth?: Partial<ActivityAuth>,
  ): Promise<QueryResponseOf<N>>;
}

/**
 * Creates an {@link ActivityClient}.
 *
 * @example
 * ```ts
 * const activity = createActivityClient({ apiUrl, fetch, auth: () => ({ stamper, organizationId }) });
 * ```
 */
export function createActivityClient(opts: ActivityClientOptions): ActivityClient {
  const base = opts.apiUrl.replace(/\/+$/, '');
  const now = opts.now ?? Date.now;

  async function resolve(auth: Partial<ActivityAuth> | undefined): Promise<ActivityAuth> {
    if (auth?.stamper && auth.organizationId) return auth as ActivityAuth;
    const fallback = await opts.auth();
    return { stamper: auth?.stamper ?? fallback.stamper, organizationId: auth?.organizationId ?? fallback.organizationId };
  }

  async function post<T>(path: string, body: string, stamper: Stamper): Promise<T> {
    const { header, value } = await stamper.stamp(body);
    return postJson<T>(opts.fetch, `${base}${path}`, body, { [header]: value });
  }

  async function submitRaw<N extends OperationName>(op: N, params: ParamsOf<N>, auth?: Partial<ActivityAuth>): Promise<ActivityReply> {
    const { stamper, organizationId } = await resolve(auth);
    const descriptor = operationWire(op);
    const proofs = opts.enclavePublicKey !== undefined && PROOF_OPERATIONS.has(op);
    const body = JSON.stringify({
      type: descriptor.type,
      timestampMs: String(now()),
      organizationId,
      parameters: params,
      ...(proofs ? { generateAppProofs: true } : {}),
    });
    const reply = await post<ActivityReply>(descriptor.path, body, stamper);
    if (proofs && reply.activity?.status === 'ACTIVITY_STATUS_COMPLETED') await verifyActivityProofs(reply, { body, enclavePublicKey: opts.enclavePublicKey! });
    return reply;
  }

  return {
    submitRaw,
    async submit(op, params, auth) {
      const reply = await submitRaw(op, params, auth);
      if (reply.activity?.status !== 'ACTIVITY_STATUS_COMPLETED') {
        throw new WalletKitError('ERR_ACTIVITY_NOT_COMPLETED', `${op}: ${reply.activity?.status ?? 'no status'}`);
      }
      return reply.activity.result[operationWire(op).resultKey] as ResultOf<typeof op>;
    },
    async query(name, request, auth) {
      const { stamper, organizationId } = await resolve(auth);
      const body = JSON.stringify({ ...request, organizationId: request.organizationId ?? organizationId });
      return post(queryPath(name), body, stamper);
    },
  };
}
