import { join, resolve } from 'node:path';
import { OAUTH_PROVIDERS, type Oauth2Provider, type OidcProviderId } from '@walletkit/protocol';

/** The levels LOG_LEVEL may name (pino's, and `silent` for none). */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Typed server configuration; `loadConfig` fills it from the environment with embedded, production defaults. */
export interface ServerConfig {
  /** TCP port; 0 picks a free one (tests). */
  port: number;
  host: string;
  /** PGlite data directory (embedded mode). Also holds the generated master key. */
  dataDir: string;
  /** When set, PostgreSQL is used instead of PGlite. */
  databaseUrl: string | undefined;
  /** 32-byte hex master key sealing the enclave keys; generated into dataDir when absent in embedded mode. */
  masterKey: string | undefined;
  /** Public base URL of this server (used in discovery and issued tokens); derived from host/port when unset. */
  publicUrl: string | undefined;
  /** Liveness window of `timestampMs` (DESIGN section 2). */
  liveness: { maxAgeMs: number; maxSkewMs: number };
  /** Relying-party settings for passkey attestations (recover_user, create_authenticators). */
  webauthn: { rpId: string; origins: string[] };
  /** Endpoints of the OAuth 2.0 providers of the provider table (X, Discord), by wire enum; tests point them at a local server. */
  oauth2Providers: Record<Oauth2Provider, { tokenUrl: string; userInfoUrl: string; issuer: string }>;
  /**
   * OTP delivery: email through SMTP (nodemailer) or, without SMTP, an email webhook (POST JSON
   * `{to, subject, text}`); SMS through a webhook (POST JSON `{to, text}`). A channel without a
   * transport is not configured (or the dev outbox when `devOutbox`).
   */
  delivery: { smtpUrl: string | undefined; smsWebhookUrl: string | undefined; emailWebhookUrl?: string | undefined; emailFrom: string };
  /**
   * OTP lifetimes and limits (DESIGN section 3; SECURITY.md "One-time codes"): a code lives
   * `ttlSeconds` and allows `maxAttempts` tries; one contact gets at most
   * `maxPerContactPerWindow` codes per `windowSeconds` and `maxPerContactPerDay` per 24 hours
   * (no daily cap when absent). Only the newest code of a contact verifies. From the
   * environment: WALLETKIT_OTP_CODES_PER_WINDOW and WALLETKIT_OTP_CODES_PER_DAY (`otpOf`).
   */
  otp: { ttlSeconds: number; maxAttempts: number; maxPerContactPerWindow: number; windowSeconds: number; maxPerContactPerDay?: number };
  /** The OIDC providers of the provider table whose id_tokens are accepted (Google, Apple); tests point them at a local provider. */
  oidcProviders: Array<{ name: OidcProviderId; issuer: string; jwksUri: string }>;
  /** Largest accepted request body. */
  bodyLimit: number;
  /**
   * The dev outbox: codes of unconfigured channels are stored and served at GET /v1/dev/outbox
   * to loopback clients. Off unless asked for (`walletkit-server demo`, `start --dev-outbox`,
   * `npm start`); NODE_ENV never turns it on.
   */
  devOutbox: boolean;
  logLevel: LogLevel;
  /**
   * Worker threads (WALLETKIT_SIGNER_THREADS): this many for the enclave's signatures and the
   * requests' stamp checks, with two more for stamp checks only (signer-pool.ts); one per core
   * beside the event loop's when unset; 0 does both in-process, with no thread at all.
   */
  signerThreads?: number | undefined;
}

export const DEFAULT_DATA_DIR = join('.walletkit', 'data');

/** The environment {@link loadConfig} reads (`process.env`): the variables it knows are named, any other is ignored. */
export interface ServerEnv {
  PORT?: string | undefined;
  HOST?: string | undefined;
  WALLETKIT_MASTER_KEY?: string | undefined;
  WALLETKIT_RP_ID?: string | undefined;
  WALLETKIT_DATA_DIR?: string | undefined;
  DATABASE_URL?: string | undefined;
  WALLETKIT_PUBLIC_URL?: string | undefined;
  WALLETKIT_WEBAUTHN_ORIGINS?: string | undefined;
  X_TOKEN_URL?: string | undefined;
  X_USERINFO_URL?: string | undefined;
  DISCORD_TOKEN_URL?: string | undefined;
  DISCORD_USERINFO_URL?: string | undefined;
  SMTP_URL?: string | undefined;
  SMS_WEBHOOK_URL?: string | undefined;
  EMAIL_WEBHOOK_URL?: string | undefined;
  WALLETKIT_EMAIL_FROM?: string | undefined;
  GOOGLE_ISSUER?: string | undefined;
  GOOGLE_JWKS_URL?: string | undefined;
  APPLE_ISSUER?: string | undefined;
  APPLE_JWKS_URL?: string | undefined;
  LOG_LEVEL?: string | undefined;
  WALLETKIT_SIGNER_THREADS?: string | undefined;
  WALLETKIT_OTP_CODES_PER_WINDOW?: string | undefined;
  WALLETKIT_OTP_CODES_PER_DAY?: string | undefined;
  [name: string]: string | undefined;
}

/**
 * Build a config from environment variables and explicit overrides (CLI flags win).
 * @example const config = loadConfig(process.env, { port: 8080 });
 */
export function loadConfig(env: ServerEnv = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const port = overrides.port ?? (env.PORT ? Number(env.PORT) : 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port: ${env.PORT}`);
  const masterKey = overrides.masterKey ?? (env.WALLETKIT_MASTER_KEY || undefined);
  if (masterKey !== undefined && !/^[0-9a-fA-F]{64}$/.test(masterKey)) {
    throw new Error('WALLETKIT_MASTER_KEY must be 64 hex characters (32 bytes)');
  }
  const rpId = env.WALLETKIT_RP_ID ?? 'localhost';
  return {
    port,
    host: overrides.host ?? env.HOST ?? '127.0.0.1',
    dataDir: resolve(overrides.dataDir ?? env.WALLETKIT_DATA_DIR ?? DEFAULT_DATA_DIR),
    databaseUrl: overrides.databaseUrl ?? (env.DATABASE_URL || undefined),
    masterKey,
    publicUrl: overrides.publicUrl ?? env.WALLETKIT_PUBLIC_URL,
    liveness: overrides.liveness ?? { maxAgeMs: 60 * 60 * 1000, maxSkewMs: 5 * 60 * 1000 },
    webauthn: overrides.webauthn ?? {
      rpId,
      origins: (env.WALLETKIT_WEBAUTHN_ORIGINS ?? 'http://localhost:5173,http://localhost:8080').split(',').filter(Boolean),
    },
    // The OAuth 2.0 providers of the table; `<PREFIX>_TOKEN_URL` and `<PREFIX>_USERINFO_URL` override (DISCORD_TOKEN_URL, ...).
    oauth2Providers:
      overrides.oauth2Providers ??
      (Object.fromEntries(
        OAUTH_PROVIDERS.flatMap((p) =>
          p.kind === 'oauth2'
            ? [
                [
                  p.oauth2Provider,
                  {
                    tokenUrl: env[`${p.envPrefix}_TOKEN_URL`] ?? p.tokenUrl,
                    userInfoUrl: env[`${p.envPrefix}_USERINFO_URL`] ?? p.userInfoUrl,
                    issuer: p.issuer,
                  },
                ],
              ]
            : [],
        ),
      ) as ServerConfig['oauth2Providers']),
    delivery: overrides.delivery ?? {
      smtpUrl: env.SMTP_URL || undefined,
      smsWebhookUrl: env.SMS_WEBHOOK_URL || undefined,
      emailWebhookUrl: env.EMAIL_WEBHOOK_URL || undefined,
      emailFrom: env.WALLETKIT_EMAIL_FROM ?? 'walletkit <no-reply@localhost>',
    },
    otp: overrides.otp ?? otpOf(env),
    // The OIDC providers of the table; `<PREFIX>_ISSUER` and `<PREFIX>_JWKS_URL` override (GOOGLE_ISSUER, ...).
    oidcProviders:
      overrides.oidcProviders ??
      OAUTH_PROVIDERS.flatMap((p) =>
        p.kind === 'oidc' ? [{ name: p.id, issuer: env[`${p.envPrefix}_ISSUER`] ?? p.issuer, jwksUri: env[`${p.envPrefix}_JWKS_URL`] ?? p.jwksUri }] : [],
      ),
    bodyLimit: overrides.bodyLimit ?? 1024 * 1024,
    // Production is the default whatever NODE_ENV says (issue 9): codes are never readable.
    devOutbox: overrides.devOutbox ?? false,
    logLevel: overrides.logLevel ?? logLevelOf(env.LOG_LEVEL),
    signerThreads: overrides.signerThreads ?? signerThreadsOf(env.WALLETKIT_SIGNER_THREADS),
  };
}

/** LOG_LEVEL: one of LOG_LEVELS, or unset (info). */
function logLevelOf(value: string | undefined): LogLevel {
  if (value === undefined || value === '') return 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(value)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got ${value})`);
  return value as LogLevel;
}

/** WALLETKIT_SIGNER_THREADS: a whole number from 0 to 64, or unset (the default). */
function signerThreadsOf(value: string | undefined): number | undefined {
  return wholeNumberOf('WALLETKIT_SIGNER_THREADS', value, 0, 64);
}

/** The variable `name` as a whole number from `min` to `max`, undefined when unset or empty. */
function wholeNumberOf(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new Error(`${name} must be a whole number from ${min} to ${max} (got ${value})`);
  return n;
}

/** One contact's codes per 10 minutes and per day unless WALLETKIT_OTP_CODES_PER_WINDOW / _PER_DAY say otherwise (SECURITY.md). */
const OTP_CODES_PER_WINDOW = 5;
const OTP_CODES_PER_DAY = 20;
/** The most either variable may allow. */
const MAX_OTP_CODES = 10_000;

/**
 * A code lives 5 minutes and allows 3 tries; one contact's codes per 10 minutes and per day are
 * WALLETKIT_OTP_CODES_PER_WINDOW and WALLETKIT_OTP_CODES_PER_DAY (5 and 20 when unset). A window
 * allowing more than the day would be a limit that never applies: refused, naming both.
 */
function otpOf(env: ServerEnv): ServerConfig['otp'] {
  const perWindow = wholeNumberOf('WALLETKIT_OTP_CODES_PER_WINDOW', env.WALLETKIT_OTP_CODES_PER_WINDOW, 1, MAX_OTP_CODES) ?? OTP_CODES_PER_WINDOW;
  const perDay = wholeNumberOf('WALLETKIT_OTP_CODES_PER_DAY', env.WALLETKIT_OTP_CODES_PER_DAY, 1, MAX_OTP_CODES) ?? OTP_CODES_PER_DAY;
  if (perWindow > perDay) {
    throw new Error(`WALLETKIT_OTP_CODES_PER_WINDOW (${perWindow}) must not be more than WALLETKIT_OTP_CODES_PER_DAY (${perDay}): raise both`);
  }
  return { ttlSeconds: 300, maxAttempts: 3, maxPerContactPerWindow: perWindow, windowSeconds: 600, maxPerContactPerDay: perDay };
}

/**
 * The code limits when raised above the defaults: each code allows `maxAttempts` tries, so the
 * guesses one contact's codes get grow with them (SECURITY.md "One-time codes and the guess budget").
 */
function raisedOtpLimits(config: ServerConfig): string | undefined {
  const { maxPerContactPerWindow, windowSeconds, maxPerContactPerDay, maxAttempts } = config.otp;
  const perDay = maxPerContactPerDay ?? Number.POSITIVE_INFINITY;
  if (maxPerContactPerWindow <= OTP_CODES_PER_WINDOW && perDay <= OTP_CODES_PER_DAY) return undefined;
  return (
    `one-time codes: one contact may get ${maxPerContactPerWindow} codes per ${windowSeconds} s and ${maxPerContactPerDay ?? 'any number of'} per day ` +
    `(defaults ${OTP_CODES_PER_WINDOW} and ${OTP_CODES_PER_DAY}), so up to ${maxPerContactPerWindow * maxAttempts} guesses per ${windowSeconds} s ` +
    `and ${maxPerContactPerDay === undefined ? 'no limit' : maxPerContactPerDay * maxAttempts} per day at one contact's code: ` +
    'raise them only for test accounts or with longer codes (otpLength, otpAlphanumeric)'
  );
}

/**
 * What an operator must know at start: the dev outbox is on, the code limits are raised above
 * the defaults, or a code channel has no transport (its one-time codes are refused with
 * ERR_DELIVERY_NOT_CONFIGURED).
 * @example startupWarnings(loadConfig({})) // ['email one-time codes are disabled: no SMTP_URL ...', ...]
 */
export function startupWarnings(config: ServerConfig): string[] {
  const lines: string[] = [];
  if (config.devOutbox) {
    lines.push(
      'WARNING: the dev outbox is on: one-time codes are stored readable and served at GET /v1/dev/outbox to loopback clients. Never use it in production.',
    );
  }
  const limits = raisedOtpLimits(config);
  if (limits) lines.push(limits);
  // The dev outbox stands in for every transport: nothing more to say of them.
  if (config.devOutbox) return lines;
  if (config.delivery.smtpUrl && config.delivery.emailWebhookUrl) {
    lines.push('both SMTP_URL and EMAIL_WEBHOOK_URL are set: email one-time codes go through SMTP, EMAIL_WEBHOOK_URL is not used');
  }
  if (!config.delivery.smtpUrl && !config.delivery.emailWebhookUrl) {
    lines.push('email one-time codes are refused (ERR_DELIVERY_NOT_CONFIGURED): set SMTP_URL or EMAIL_WEBHOOK_URL to deliver them');
  }
  if (!config.delivery.smsWebhookUrl) lines.push('SMS one-time codes are refused (ERR_DELIVERY_NOT_CONFIGURED): set SMS_WEBHOOK_URL to deliver them');
  return lines;
}
