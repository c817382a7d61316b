/**
 * In-process server for tests: a fresh store of the given kind, the real enclave, build()
 * (no listen), a bootstrapped organization with its root API key, and a stamping client
 * that talks to the app through inject() exactly as an HTTP client would.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { stampApiKey } from '@walletkit/crypto';
import type { OperationName, ParamsOf, QueryName, QueryRequestOf, ResultOf } from '@walletkit/protocol';
import { operations } from '@walletkit/protocol';
import { build, type AppDeps } from '../../src/app';
import { createOrganization, type CreatedOrganization } from '../../src/admin/organizations';
import { loadConfig, type ServerConfig } from '../../src/config';
import { Enclave } from '../../src/enclave';
import { openTestStore, type StoreKind } from './stores';
import type { Store } from '../../src/store/db';

export interface StampKey {
  publicKey: string;
  privateKey: string;
}

export interface Reply<T = any> {
  status: number;
  body: T;
}

/** A client that stamps envelopes with one API key, like any integrator's backend. */
export class ActivityClient {
  constructor(
    private readonly app: FastifyInstance,
    readonly key: StampKey,
    readonly organizationId: string,
    private readonly clock: () => number = () => Date.now(),
  ) {}

  /** Re-target the client at another organization or key. */
  with(opts: { key?: StampKey; organizationId?: string }): ActivityClient {
    return new ActivityClient(this.app, opts.key ?? this.key, opts.organizationId ?? this.organizationId, this.clock);
  }

  /** Build the exact body text of a submit envelope. */
  envelope<N extends OperationName>(
    op: N,
    parameters: ParamsOf<N>,
    opts: { organizationId?: string; timestampMs?: string; generateAppProofs?: boolean } = {},
  ): string {
    return JSON.stringify({
      type: operations[op].type,
      timestampMs: opts.timestampMs ?? String(this.clock()),
      organizationId: opts.organizationId ?? this.organizationId,
      parameters,
      ...(opts.generateAppProofs !== undefined ? { generateAppProofs: opts.generateAppProofs } : {}),
    });
  }

  /** POST a raw body to a path, stamped with this client's key (or the given headers). */
  async post(path: string, body: string, headers?: Record<string, string>): Promise<Reply> {
    const res = await this.app.inject({
      method: 'POST',
      url: path,
      payload: body,
      headers: { 'content-type': 'application/json', ...(headers ?? { 'x-stamp': stampApiKey(body, this.key) }) },
    });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
  }

  async submit<N extends OperationName>(
    op: N,
    parameters: ParamsOf<N>,
    opts: { organizationId?: string; timestampMs?: string; generateAppProofs?: boolean } = {},
  ): Promise<Reply> {
    return this.post(operations[op].path, this.envelope(op, parameters, opts));
  }

  /** Submit and return the result object; fails the test with the error body otherwise. */
  async run<N extends OperationName>(op: N, parameters: ParamsOf<N>, opts: { organizationId?: string } = {}): Promise<ResultOf<N>> {
    const reply = await this.submit(op, parameters, opts);
    if (reply.status !== 200) throw new Error(`${op} -> ${reply.status} ${JSON.stringify(reply.body)}`);
    if (reply.body.activity.status !== 'ACTIVITY_STATUS_COMPLETED') throw new Error(`${op} -> ${reply.body.activity.status}`);
    return reply.body.activity.result[operations[op].resultKey] as ResultOf<N>;
  }

  async query<N extends QueryName>(name: N, request: Omit<QueryRequestOf<N>, 'organizationId'> & { organizationId?: string }): Promise<Reply> {
    return this.post(`/public/v1/query/${name}`, JSON.stringify({ organizationId: this.organizationId, ...request }));
  }
}

export interface TestServer {
  app: FastifyInstance;
  store: Store;
  enclave: Enclave;
  config: ServerConfig;
  org: CreatedOrganization;
  /** Stamps with the organization's root API key. */
  client: ActivityClient;
  dispose(): Promise<void>;
}

export async function startTestServer(
  kind: StoreKind,
  opts: { config?: Partial<ServerConfig>; deps?: Partial<AppDeps>; clock?: () => number; poolSize?: number } = {},
): Promise<TestServer> {
  const store = await openTestStore(kind, opts.poolSize ? { poolSize: opts.poolSize } : {});
  const config = loadConfig({}, { port: 0, logLevel: 'silent', masterKey: randomBytes(32).toString('hex'), dataDir: '/nonexistent-test-dir', ...opts.config });
  const enclave = await Enclave.open(store, config);
  const now = opts.clock ? () => new Date(opts.clock!()) : undefined;
  const app = await build(config, { store, enclave, ...(now ? { now } : {}), ...opts.deps });
  const org = await createOrganization(store, { name: 'Test Org' });
  return {
    app,
    store,
    enclave,
    config,
    org,
    client: new ActivityClient(app, org.apiKey, org.organizationId, opts.clock),
    async dispose() {
      await app.close();
      await store.dispose();
    },
  };
}
