/**
 * One-time codes (Turnkey init_otp V3, verify_otp V2, otp_login V2; DESIGN sections 2-3).
 *
 * init_otp issues a code to an email or phone of the target organization (the proxy's
 * organization), throttled per contact, and delivers it after commit. verify_otp counts the
 * attempt atomically before it uses the check's verdict (the attempt is opened before the
 * transaction, `otpPrefetchers`), so at most `maxAttempts` tries per code hold under
 * concurrency and across instances; every kind of failure is the same ERR_OTP_INVALID and
 * its counted attempt is committed (CommittedFailure). otp_login exchanges the single-use
 * verification token, with a client signature by the key bound at verify, for a session of
 * the sub-organization user holding the contact.
 *
 * The code never appears in a result, an error, a stored row or a log line: only the
 * delivery closure holds it (and, from init_otp's prefetcher to its handler, the request's
 * `IssuedBefore`).
 */
import type { OtpType } from '@walletkit/protocol';
import { DeliveryError, deliveryNotConfigured, otpEmail, otpSms } from '../../delivery/index.js';
import { type IssuedOtp, parseEncryptedOtpBundle } from '../../enclave/otp.js';
import { ApiError } from '../../errors.js';
import { newId } from '../../store/ids.js';
import { sendWithNext } from '../../store/round-trips.js';
import type { HandlerTable, OperationContext, PrefetchTable } from '../context.js';
import { CommittedFailure } from '../refusals.js';
import { countAttempt, insertOtp, isLive, markUsed, readOtp, spendForLogin, throttleAndRetire, useOpenedCode } from './otp-rows.js';
import { openSession } from './sessions.js';
import {
  checkClientSignature,
  checkVerificationToken,
  organizationAndParent,
  sameKeyAs,
  tokenAlreadyUsed,
  type VerifiedToken,
  verifyVerificationToken,
} from './users-verification.js';

/** Turnkey's default code length. */
export const DEFAULT_OTP_LENGTH = 6;
/** Lifetime of a verification token when verify_otp names none. */
export const DEFAULT_VERIFICATION_TOKEN_SECONDS = 3600;

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const E164 = /^\+[1-9][0-9]{6,14}$/;

/** Validate the contact for its channel and normalize it (emails lowercased). */
function normalizeContact(type: OtpType, contact: string): string {
  const value = contact.trim();
  if (type === 'OTP_TYPE_EMAIL') {
    if (!EMAIL.test(value)) throw new ApiError('ERR_INVALID_PARAMETER', 'contact must be an email address for OTP_TYPE_EMAIL', 'contact');
    return value.toLowerCase();
  }
  if (!E164.test(value)) throw new ApiError('ERR_INVALID_PARAMETER', 'contact must be an E.164 phone number (e.g. +15551234567) for OTP_TYPE_SMS', 'contact');
  return value;
}

/** Whether normalizeContact accepts the contact. */
function validContact(type: OtpType, contact: string): boolean {
  try {
    normalizeContact(type, contact);
    return true;
  } catch {
    return false;
  }
}

/** A verification token's lifetime: verify_otp's `expirationSeconds`, else the default; undefined when below 1 s. */
function tokenSecondsOf(expirationSeconds: string | undefined): number | undefined {
  const seconds = expirationSeconds === undefined ? DEFAULT_VERIFICATION_TOKEN_SECONDS : Number(expirationSeconds);
  return seconds < 1 ? undefined : seconds;
}

/** The enclave's work for a code of init_otp's request (before its transaction, or in it on an approval). */
function issueFor(
  ctx: Pick<OperationContext, 'enclave' | 'organizationId'>,
  otpId: string,
  params: { otpLength?: number; alphanumeric?: boolean },
): Promise<IssuedOtp> {
  return ctx.enclave.issueOtp({
    otpId,
    organizationId: ctx.organizationId,
    length: params.otpLength ?? DEFAULT_OTP_LENGTH,
    alphanumeric: params.alphanumeric ?? false,
  });
}

/** Open a verify attempt with its code's sealed target key: the client's key when the code is right. */
async function openAttempt(
  ctx: Pick<OperationContext, 'enclave'>,
  otp: { id: string; targetPrivateKeyEncrypted: IssuedOtp['sealedTargetKey']; codeMac: string },
  encrypted: { encappedPublic: string; ciphertext: string },
): Promise<string | undefined> {
  const opened = await ctx.enclave.checkOtpAttempt({ otpId: otp.id, sealedTargetKey: otp.targetPrivateKeyEncrypted, codeMac: otp.codeMac, encrypted });
  return opened?.clientKey;
}

/** The claims of the verification token a right attempt at a code earns, but its client key (`public_key`). */
interface TokenClaims {
  id: string;
  verification_type: string;
  contact: string;
  organization_id: string;
  exp: number;
}

/** The fields of a code's row a verification token names. */
type CodeOf = { otpType: string; contact: string; organizationId: string };

/** A new verification token's claims for a code of `otp`'s, good for `tokenSeconds` from `now`. */
function tokenClaimsFor(otp: CodeOf, now: Date, tokenSeconds: number): TokenClaims {
  return {
    id: newId(),
    verification_type: otp.otpType,
    contact: otp.contact,
    organization_id: otp.organizationId,
    exp: Math.floor(now.getTime() / 1000) + tokenSeconds,
  };
}

/** The code's lifetime: the configured one, which a request may shorten but not extend. */
function ttlOf(ctx: OperationContext, expirationSeconds: string | undefined): number {
  const configured = ctx.config.otp.ttlSeconds;
  if (expirationSeconds === undefined) return configured;
  const requested = Number(expirationSeconds);
  if (!Number.isInteger(requested) || requested < 1) throw new ApiError('ERR_INVALID_PARAMETER', 'expirationSeconds must be at least 1', 'expirationSeconds');
  return Math.min(requested, configured);
}

/** Deliver after commit; any failure is ERR_DELIVERY_FAILED with a cause free of message text. */
function deliverAfterCommit(ctx: OperationContext, send: () => Promise<void>): void {
  ctx.afterCommit(async () => {
    try {
      await send();
    } catch (err) {
      const cause = err instanceof DeliveryError ? err : new DeliveryError(`delivery failed (${(err as Error)?.name ?? 'unknown'})`);
      throw new ApiError('ERR_DELIVERY_FAILED', undefined, undefined, { cause });
    }
  });
}

const otpInvalid = () => new ApiError('ERR_OTP_INVALID');

/** Whether a token's claims name the code `otp`'s type, contact and organization. */
function sameCode(claims: TokenClaims, otp: CodeOf): boolean {
  return claims.verification_type === otp.otpType && claims.contact === otp.contact && claims.organization_id === otp.organizationId;
}

/** A code init_otp issued before its transaction (the enclave's work: its MAC, its sealed target key, the signed bundle). */
interface IssuedBefore {
  otpId: string;
  issued: IssuedOtp;
}

/** A verify attempt opened before its transaction with the sealed target key of the code `otpId`. */
interface AttemptOpened {
  otpId: string;
  /** The client's key when the code was right, else null. */
  clientKey: string | null;
  /** When the code was right: the verification token signed with it, bound to the client's key, and its other claims. */
  token?: { value: string; claims: TokenClaims };
}

/** What an otp_login checked before its transaction: its client signature (on a signing thread) and its verification token. */
interface LoginChecks {
  clientSignature: boolean;
  /** The client signature's key, compressed, when it verified. */
  clientKey?: string;
  token: VerifiedToken;
}

/**
 * The one-time codes' crypto, before the transaction (issue 14: no CPU-bound crypto while a
 * transaction is open). A prefetcher never refuses: when it cannot do its part (a request the
 * handler refuses, a code it cannot use) it returns nothing and the handler does the work in the
 * transaction, as an approval (which runs no prefetcher) does. What it computed decides nothing
 * by itself: verify_otp counts the attempt in the transaction before using the attempt's verdict,
 * and otp_login spends the token there.
 */
export const otpPrefetchers = {
  init_otp: async (params, ctx): Promise<IssuedBefore | undefined> => {
    const channel = params.otpType === 'OTP_TYPE_EMAIL' ? 'email' : 'sms';
    if (ctx.delivery.kinds[channel] === 'none' || !validContact(params.otpType, params.contact)) return undefined;
    const otpId = newId();
    const issued = await issueFor(ctx, otpId, params).catch(() => undefined);
    return issued ? { otpId, issued } : undefined;
  },
  verify_otp: async (params, ctx): Promise<AttemptOpened | undefined> => {
    const encrypted = parseEncryptedOtpBundle(params.encryptedOtpBundle);
    const tokenSeconds = tokenSecondsOf(params.expirationSeconds);
    if (!encrypted || tokenSeconds === undefined) return undefined;
    // Read without a lock: only a code that can still take an attempt is opened (an exhausted,
    // used, retired or expired one costs this lookup). The handler counts the attempt, and
    // checks again that the code is live, before it uses the verdict. A code's first attempt in
    // the process that issued it takes the row as committed instead (otp-issued.ts).
    const now = ctx.now();
    const otp =
      ctx.issuedCodes.take(params.otpId, ctx.organizationId) ?? (await readOtp.run(ctx.db, { id: params.otpId, organizationId: ctx.organizationId }))[0];
    if (!otp || otp.attempts >= otp.maxAttempts || !isLive(otp, now)) return undefined;
    // The token a right code earns is signed on the thread that opens the attempt (decision 0029):
    // it leaves the thread only with a right code, and the handler hands it out only once the
    // attempt is counted in its transaction and the code still live.
    const claims = tokenClaimsFor(otp, now, tokenSeconds);
    const opened = await ctx.enclave
      .checkOtpAttempt({ otpId: otp.id, sealedTargetKey: otp.targetPrivateKeyEncrypted, codeMac: otp.codeMac, encrypted, token: { ...claims } })
      .catch(() => false as const);
    if (opened === false) return undefined;
    if (opened === undefined) return { otpId: otp.id, clientKey: null };
    const token = opened.verificationToken === undefined ? {} : { token: { value: opened.verificationToken, claims } };
    return { otpId: otp.id, clientKey: opened.clientKey, ...token };
  },
  otp_login: async (params, ctx): Promise<LoginChecks> => {
    const [clientKey, token] = await Promise.all([
      ctx.enclave.clientSignatureKey(params.clientSignature),
      verifyVerificationToken(ctx.enclave, params.verificationToken, () => ctx.now().getTime()),
    ]);
    return { clientSignature: clientKey !== undefined, ...(clientKey !== undefined ? { clientKey } : {}), token };
  },
} satisfies PrefetchTable;

export const otpHandlers = {
  /** Send a code to an email or phone; returns its id and the signed encryption target. */
  init_otp: async (params, ctx) => {
    const contact = normalizeContact(params.otpType, params.contact);
    // Production without a transport: refuse before anything is stored (no readable code anywhere).
    const channel = params.otpType === 'OTP_TYPE_EMAIL' ? 'email' : 'sms';
    if (ctx.delivery.kinds[channel] === 'none') throw deliveryNotConfigured(channel);
    const ttl = ttlOf(ctx, params.expirationSeconds);
    await throttleAndRetire(ctx, contact);
    // Issued before the transaction by the prefetcher; here only on an approval, or when it could not.
    const before = ctx.prefetched as IssuedBefore | undefined;
    const otpId = before?.otpId ?? newId();
    const issued = before?.issued ?? (await issueFor(ctx, otpId, params));
    const now = ctx.now();
    const row = {
      id: otpId,
      organizationId: ctx.organizationId,
      otpType: params.otpType,
      contact,
      codeMac: issued.codeMac,
      targetPublicKey: issued.targetPublicKey,
      targetPrivateKeyEncrypted: issued.sealedTargetKey,
      maxAttempts: ctx.config.otp.maxAttempts,
      expiresAt: new Date(now.getTime() + ttl * 1000),
      createdAt: now,
    };
    // Written with the activity's UPDATE and COMMIT (store/round-trips.ts): nothing reads its answer.
    await sendWithNext(ctx.tx, insertOtp.bind(row));
    // Its first attempt takes the row from memory once it is committed (otp-issued.ts, decision 0041).
    ctx.afterCommit(async () => ctx.issuedCodes.remember({ ...row, attempts: 0, usedAt: null }));
    const { code } = issued;
    const orgId = ctx.organizationId;
    if (params.otpType === 'OTP_TYPE_EMAIL') {
      const message = otpEmail({ to: contact, code, appName: params.appName, logoUrl: params.emailCustomization?.logoUrl, expiresInSeconds: ttl });
      deliverAfterCommit(ctx, () => ctx.delivery.sendEmail(orgId, message));
    } else {
      const message = otpSms({ to: contact, code, appName: params.appName, expiresInSeconds: ttl });
      deliverAfterCommit(ctx, () => ctx.delivery.sendSms(orgId, message));
    }
    return { otpId, otpEncryptionTargetBundle: issued.otpEncryptionTargetBundle };
  },

  /** Check an encrypted code attempt; returns a verification token bound to the client key. */
  verify_otp: async (params, ctx) => {
    const encrypted = parseEncryptedOtpBundle(params.encryptedOtpBundle);
    if (!encrypted) throw new ApiError('ERR_INVALID_ENCRYPTED_BUNDLE', 'encryptedOtpBundle must be JSON {encappedPublic, ciphertext}', 'encryptedOtpBundle');
    const tokenSeconds = tokenSecondsOf(params.expirationSeconds);
    if (tokenSeconds === undefined) throw new ApiError('ERR_INVALID_PARAMETER', 'expirationSeconds must be at least 1', 'expirationSeconds');
    const opened = ctx.prefetched as AttemptOpened | undefined;
    // The right code's attempt, opened and its token signed before the transaction: the database
    // counts it and uses the code in one statement with the activity's INSERT and COMMIT, or has
    // the activity run again below when the code changed meanwhile. The token's claims are the
    // row's (type, contact and organization never change, and the row was read in this organization).
    if (ctx.decidedInDatabase && opened?.otpId === params.otpId && opened.clientKey !== null && opened.token) {
      await sendWithNext(ctx.tx, useOpenedCode(ctx, params.otpId));
      return { verificationToken: opened.token.value };
    }
    // Count first, atomically: the row lock serializes concurrent attempts and the condition
    // is re-checked after the wait, so no more than maxAttempts ever pass this line.
    const [otp] = await countAttempt.run(ctx.tx, { id: params.otpId, organizationId: ctx.organizationId });
    if (!otp) {
      const [exists] = await readOtp.run(ctx.tx, { id: params.otpId, organizationId: ctx.organizationId });
      throw exists ? new ApiError('ERR_OTP_ATTEMPTS_EXCEEDED') : otpInvalid();
    }
    const now = ctx.now();
    const live = isLive(otp, now);
    // The attempt is counted and the code live: now its verdict may be used, the one opened
    // before the transaction (prefetcher) or, without one, opened here.
    const clientKey = !live ? undefined : opened?.otpId === otp.id ? (opened.clientKey ?? undefined) : await openAttempt(ctx, otp, encrypted);
    if (clientKey === undefined) throw new CommittedFailure(otpInvalid());
    await sendWithNext(ctx.tx, markUsed.bind({ id: otp.id, usedAt: now }));
    // Signed with the attempt before the transaction when there was one for this very code (its
    // claims are the row's: type, contact and organization never change), else here.
    const signed = opened?.otpId === otp.id ? opened.token : undefined;
    if (signed && sameCode(signed.claims, otp)) return { verificationToken: signed.value };
    const verificationToken = ctx.enclave.signJwt({ ...tokenClaimsFor(otp, now, tokenSeconds), public_key: clientKey });
    return { verificationToken };
  },

  /** Exchange a verification token and a client signature for a session of the contact's user. */
  otp_login: async (params, ctx) => {
    // A login, and the token's only use: the login after a signup is stamp_login's (decision 0020).
    const checked = ctx.prefetched as LoginChecks | undefined;
    const claims = checkVerificationToken(ctx, params.verificationToken, {
      organizationIds: await organizationAndParent(ctx.tx, ctx.organizationId, ctx.caller),
      ...(checked ? { verified: checked.token } : {}),
    });
    // The token is spent and the contact's user read in one statement; they refuse in this order:
    // a spent token, the client signature, its key, no user.
    const { spent, userId } = await spendForLogin(ctx, claims);
    if (!spent) throw tokenAlreadyUsed();
    checkClientSignature(params.clientSignature, claims, 'USAGE_TYPE_LOGIN', checked?.clientSignature);
    // Spec A: the signature is "made with the private key matching publicKey".
    const sameKey = sameKeyAs(params.clientSignature.publicKey, params.publicKey);
    if (!sameKey) throw new ApiError('ERR_CLIENT_SIGNATURE_INVALID', 'publicKey must be the key that made the client signature', 'publicKey');
    if (userId === null) throw new ApiError('ERR_VERIFICATION_TOKEN_INVALID', 'no user of this organization has the verified contact', 'verificationToken');
    // The session key as written is the client signature's, which its check proved a point and compressed.
    const checkedKey = params.publicKey === params.clientSignature.publicKey ? checked?.clientKey : undefined;
    const session = await openSession(
      ctx,
      { organizationId: ctx.organizationId, userId },
      {
        publicKey: params.publicKey,
        ...(checkedKey !== undefined ? { checkedPublicKey: checkedKey } : {}),
        ...(params.expirationSeconds !== undefined ? { expirationSeconds: params.expirationSeconds } : {}),
        ...(params.invalidateExisting !== undefined ? { invalidateExisting: params.invalidateExisting } : {}),
      },
    );
    return { session };
  },
} satisfies HandlerTable;
