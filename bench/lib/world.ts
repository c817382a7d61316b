/**
 * One database under test and the walletkit server on it: PGlite in a temporary data directory,
 * or a fresh database in the bench's PostgreSQL cluster. Set up as an integrator would: `org
 * create` (the parent organization and its root API key), `proxy enable`, `start` with the
 * email webhook pointing at the bench's code sink; then two end users signed up by email code
 * through the proxy: the template (cloned by `seedTo`) and the probe (the account the signing
 * and read figures use, stamped with its device key, as a logged-in user's client would).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { operations, type OperationName } from '@walletkit/protocol';
import { type BenchKey, encryptOtpAttempt, keyOf, newKey, openBundle, stamp, tokenSignature } from './client-crypto.js';
import { post, type Reply } from './http.js';
import { runCli, type Running, startWalletkit } from './processes.js';
import { cloneEmail, type ClonePlan, openSeedConnection, planClone, type Template, writeClones } from './seed.js';
import type { CodeSink } from './sink.js';
import { ANALYZE_LIMIT } from '../../packages/server/src/store/maintenance.js';

export type DbKind = 'pglite' | 'postgres';

/** The origin the bench's simulated browsers send to the proxy (allowed by `proxy enable --origin`). */
export const ORIGIN = 'http://bench.localhost';

/** One Ethereum account, the kit's default wallet. */
export const ETH_WALLET = {
  walletName: 'main',
  accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }],
};

export interface Account {
  organizationId: string;
  email: string;
  key: BenchKey;
  address: string;
  walletId: string;
}

/** An activity envelope for `op`, timestamped now. */
export function envelope(op: OperationName, organizationId: string, parameters: unknown): string {
  return JSON.stringify({ type: operations[op].type, timestampMs: String(Date.now()), organizationId, parameters });
}

/**
 * Logins one seeded account may make in a run. Every login sends one code, and the server's
 * default 5 codes per contact per 10 minutes let the 1,000 accounts of the smallest scale last
 * about 20 seconds on a fast host, so the bench's server allows this many per window and per
 * day (WALLETKIT_OTP_CODES_PER_WINDOW, _PER_DAY): the same throttle statement runs at every
 * code, counting a contact's codes as at the defaults.
 */
export const LOGINS_PER_ACCOUNT = 20;

export class World {
  /** Worlds not disposed yet (the bench disposes them on Ctrl-C, even half set up). */
  static readonly live = new Set<World>();
  /** Copies of the template written so far. */
  seeded = 0;
  /** Logins taken so far (takeLoginEmail). */
  private loginsTaken = 0;
  /** Emails given back unused (giveBackLoginEmails), handed out first. */
  private readonly givenBack: string[] = [];
  private plan: ClonePlan | undefined;
  /** The simulated browsers' connections to the server (`post`). */
  private agent = new Agent({ keepAlive: true });
  server: Running | undefined;
  url = '';
  enclaveKey = '';
  parent!: { organizationId: string; key: BenchKey };
  configId = '';
  template!: Template;
  probe!: Account;

  private constructor(
    readonly kind: DbKind,
    private readonly dir: string,
    readonly env: NodeJS.ProcessEnv,
    private readonly sink: CodeSink,
    private readonly nodeArgs: string[],
    private readonly dropDatabase: () => Promise<void>,
    readonly log: (line: string) => void,
  ) {}

  get dataDir(): string | undefined {
    return this.kind === 'pglite' ? join(this.dir, 'data') : undefined;
  }

  get databaseUrl(): string | undefined {
    return this.env.DATABASE_URL || undefined;
  }

  static async create(opts: {
    kind: DbKind;
    pgAdminUrl?: string;
    sink: CodeSink;
    nodeArgs?: string[];
    log: (line: string) => void;
    /** Where the world's directory (PGlite's data) is made; default the OS temp directory. */
    parentDir?: string;
  }): Promise<World> {
    const dir = mkdtempSync(join(opts.parentDir ?? tmpdir(), `walletkit-bench-${opts.kind}-`));
    let databaseUrl = '';
    let drop = async () => {};
    if (opts.kind === 'postgres') {
      if (!opts.pgAdminUrl) throw new Error('postgres world without a cluster');
      const name = `bench_${randomBytes(4).toString('hex')}`;
      const admin = async (statement: string) => {
        const client = new pg.Client({ connectionString: opts.pgAdminUrl });
        await client.connect();
        try {
          await client.query(statement);
        } finally {
          await client.end();
        }
      };
      await admin(`CREATE DATABASE ${name}`);
      const url = new URL(opts.pgAdminUrl);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      drop = () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
    const env = {
      WALLETKIT_MASTER_KEY: randomBytes(32).toString('hex'),
      DATABASE_URL: databaseUrl,
      EMAIL_WEBHOOK_URL: opts.sink.url,
      SMTP_URL: '',
      WALLETKIT_PUBLIC_URL: '',
      WALLETKIT_OTP_CODES_PER_WINDOW: String(LOGINS_PER_ACCOUNT),
      WALLETKIT_OTP_CODES_PER_DAY: String(LOGINS_PER_ACCOUNT),
    };
    const world = new World(opts.kind, dir, env, opts.sink, opts.nodeArgs ?? [], drop, opts.log);
    World.live.add(world);
    try {
      await world.setUp();
    } catch (err) {
      await world.dispose();
      throw err;
    }
    return world;
  }

  private dataDirArgs(): string[] {
    return this.dataDir ? ['--data-dir', this.dataDir] : [];
  }

  private async setUp(): Promise<void> {
    const org = JSON.parse(await runCli(['org', 'create', '--name', 'bench', '--json', ...this.dataDirArgs()], this.env));
    this.parent = { organizationId: org.organizationId, key: keyOf(org.apiKey.privateKey, org.apiKey.publicKey) };
    const proxy = JSON.parse(await runCli(['proxy', 'enable', '--org', org.organizationId, '--origin', ORIGIN, '--json', ...this.dataDirArgs()], this.env));
    this.configId = proxy.configId;
    await this.start();
    const discovery = (await (await fetch(`${this.url}/.well-known/walletkit.json`)).json()) as { enclaveSigningPublicKey: string };
    this.enclaveKey = discovery.enclaveSigningPublicKey;

    // The template: an end user as the proxy signs one up, with a few activities of its own.
    const t0 = new Date(Date.now() - 1000);
    const template = await this.signupByCode('template@bench.test');
    const t1 = new Date(Date.now() + 1000);
    for (let i = 0; i < 3; i++) {
      const reply = await this.submit(
        'sign_raw_payloads',
        template.organizationId,
        { signWith: template.address, payloads: [`template activity ${i}`], encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_KECCAK256' },
        template.key,
      );
      if (reply.status !== 200) throw new Error(`template activity failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    }
    this.template = { organizationId: template.organizationId, parentOrganizationId: org.organizationId, parentActivityIds: [], email: template.email };
    this.templateWindow = [t0, t1];
    this.probe = await this.signupByCode('probe@bench.test');
  }

  private templateWindow: [Date, Date] = [new Date(0), new Date(0)];

  /** Start the server (again); `workers` > 1 runs `--workers N` (PostgreSQL only); `env` adds to its environment. */
  async start(workers = 1, env: NodeJS.ProcessEnv = {}): Promise<void> {
    if (this.server) throw new Error('server already running');
    this.server = await startWalletkit({
      env: { ...this.env, ...env },
      ...(this.dataDir ? { dataDir: this.dataDir } : {}),
      workers,
      nodeArgs: this.nodeArgs,
    });
    this.url = this.server.url;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    // Kept-alive connections end with their server; the next start opens new ones.
    this.agent.destroy();
    this.agent = new Agent({ keepAlive: true });
    await server?.stop();
  }

  /**
   * Rows of `table` still to change before its next ANALYZE comes due by autovacuum's rule
   * (store/maintenance.ts `ANALYZE_LIMIT`, less the changes since the last one), read with the server
   * stopped (PGlite's directory belongs to one process). On PGlite the server runs that ANALYZE
   * itself (store/maintenance.ts), in its own memory.
   */
  async changesBeforeAnalyze(table: string): Promise<number> {
    await this.stop();
    const db = await openSeedConnection(this.databaseUrl ? { databaseUrl: this.databaseUrl } : { dataDir: this.dataDir! });
    try {
      const [row] = await db.rows<{ due: string | number }>(
        `SELECT greatest(0, ${ANALYZE_LIMIT} - s.n_mod_since_analyze) AS due
         FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.relname = '${table}'`,
      );
      return Math.ceil(Number(row?.due ?? 0));
    } finally {
      await db.close();
    }
  }

  async restart(workers = 1, env: NodeJS.ProcessEnv = {}): Promise<void> {
    await this.stop();
    await this.start(workers, env);
  }

  /**
   * Bring the number of template copies up to `total`: stop the server (PGlite's directory
   * belongs to one process), write the copies through a store connection, start it again.
   */
  async seedTo(total: number): Promise<void> {
    if (total <= this.seeded) return;
    // takeLoginEmail deals the accounts in rounds of `seeded`: more accounts mid-way would move the rounds.
    if (this.loginsTaken > 0) throw new Error('seed a world before its first login');
    await this.stop();
    const db = await openSeedConnection(this.databaseUrl ? { databaseUrl: this.databaseUrl } : { dataDir: this.dataDir! });
    try {
      if (!this.plan) {
        const [from, to] = this.templateWindow;
        const rows = await db.rows<{ id: string }>(
          `SELECT id FROM activities WHERE organization_id = '${this.template.parentOrganizationId}'
           AND created_at BETWEEN '${from.toISOString()}' AND '${to.toISOString()}'`,
        );
        this.template.parentActivityIds = rows.map((r) => r.id);
        this.plan = await planClone(db, this.template);
        const perCopy = Object.entries(this.plan.rowsPerCopy)
          .map(([t, n]) => `${t} ${n}`)
          .join(', ');
        this.log(`  seeding: each copy of the template is ${perCopy}`);
      }
      const started = performance.now();
      const from = this.seeded + 1;
      let lastReport = started;
      await writeClones(db, this.plan, from, total, (done) => {
        if (performance.now() - lastReport > 10_000) {
          lastReport = performance.now();
          this.log(`  seeding: ${from + done - 1} / ${total}`);
        }
      });
      this.seeded = total;
      this.log(`  seeded ${total - from + 1} sub-organizations in ${((performance.now() - started) / 1000).toFixed(1)} s (${total} in all)`);
      // What an operator runs after a bulk load: the copies' pages marked all-visible and their
      // statistics gathered, so neither the embedded server's passes (store/maintenance.ts) nor
      // PostgreSQL's autovacuum catch up on them in the middle of a figure (decision 0028).
      const vacuumStarted = performance.now();
      await db.rows('VACUUM (ANALYZE)');
      this.log(`  vacuumed and analyzed in ${((performance.now() - vacuumStarted) / 1000).toFixed(1)} s`);
    } finally {
      await db.close();
    }
    await this.start();
  }

  /**
   * The email of the next seeded account to log in: the accounts in turn, round after round (a
   * returning user's login from the second round on), each at most LOGINS_PER_ACCOUNT times.
   * Undefined when every account has had its logins. An account's turns are `seeded` logins
   * apart, so the simulated users never hold one account at once.
   */
  takeLoginEmail(): string | undefined {
    const back = this.givenBack.shift();
    if (back !== undefined) return back;
    if (this.loginsTaken >= this.seeded * LOGINS_PER_ACCOUNT) return undefined;
    return cloneEmail(this.template, (this.loginsTaken++ % this.seeded) + 1);
  }

  /**
   * Emails taken for a window that ended before their login ran (load.ts `unused`): the next ones
   * takeLoginEmail hands out. No code was sent for them, and nobody holds their accounts.
   */
  giveBackLoginEmails(emails: string[]): void {
    this.givenBack.push(...emails);
  }

  /** Logins the seeded accounts have left (takeLoginEmail). */
  loginAccountsLeft(): number {
    return this.seeded * LOGINS_PER_ACCOUNT - this.loginsTaken + this.givenBack.length;
  }

  /** POST as the simulated browsers do (http.ts). */
  post(path: string, body: string, headers: Record<string, string>): Promise<Reply> {
    return post(`${this.url}${path}`, this.agent, body, headers);
  }

  submit(op: OperationName, organizationId: string, parameters: unknown, key: BenchKey): Promise<Reply> {
    const body = envelope(op, organizationId, parameters);
    return this.post(operations[op].path, body, { 'x-stamp': stamp(body, key) });
  }

  /** A proxy call as the bench's browser makes it; throws unless 200. */
  // biome-ignore lint/suspicious/noExplicitAny: a caller that does not name the reply's type reads it as it pleases (scratch scripts)
  async proxy<T = any>(name: string, body: unknown): Promise<T> {
    const reply = await this.post(`/v1/${name}`, JSON.stringify(body), { 'x-auth-proxy-config-id': this.configId, origin: ORIGIN });
    if (reply.status !== 200) throw new Error(`${name}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
    return reply.body as T;
  }

  /** A verification token for `email`, bound to `key`: otp_init_v2, the code from the sink, otp_verify_v2. */
  async verifiedToken(email: string, key: BenchKey): Promise<string> {
    this.sink.forget(email);
    const init = await this.proxy<{ otpId: string; otpEncryptionTargetBundle: string }>('otp_init_v2', { otpType: 'OTP_TYPE_EMAIL', contact: email });
    const code = await this.sink.codeFor(email);
    const { targetPublic } = openBundle<{ targetPublic: string }>(init.otpEncryptionTargetBundle, this.enclaveKey);
    const verified = await this.proxy<{ verificationToken: string }>('otp_verify_v2', {
      otpId: init.otpId,
      encryptedOtpBundle: encryptOtpAttempt(targetPublic, code, key.publicKey),
    });
    return verified.verificationToken;
  }

  /** Sign up by email code with a device key and an Ethereum wallet (signup_v2). */
  async signupByCode(email: string): Promise<Account> {
    const key = newKey();
    const token = await this.verifiedToken(email, key);
    const reply = await this.proxy<{ organizationId: string; wallet: { walletId: string; addresses: string[] } }>('signup_v2', {
      userEmail: email,
      verificationToken: token,
      clientSignature: tokenSignature(key, token, 'USAGE_TYPE_SIGNUP'),
      apiKeys: [{ apiKeyName: 'device', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }],
      wallet: ETH_WALLET,
    });
    return { organizationId: reply.organizationId, email, key, address: reply.wallet.addresses[0]!, walletId: reply.wallet.walletId };
  }

  /** Log in by email code: a session for a fresh key (otp_login_v2); throws unless it is one. */
  async loginByCode(email: string, key: BenchKey): Promise<void> {
    const token = await this.verifiedToken(email, key);
    const reply = await this.proxy<{ session?: unknown }>('otp_login_v2', {
      verificationToken: token,
      publicKey: key.publicKey,
      clientSignature: tokenSignature(key, token, 'USAGE_TYPE_LOGIN'),
    });
    if (typeof reply.session !== 'string') throw new Error(`otp_login_v2 answered without a session: ${JSON.stringify(reply).slice(0, 200)}`);
  }

  async dispose(): Promise<void> {
    World.live.delete(this);
    await this.stop().catch(() => {});
    await this.dropDatabase().catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }
}
