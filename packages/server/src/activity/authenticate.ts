/**
 * Stamp verification (DESIGN section 2): X-Stamp (API key) or X-Stamp-WebAuthn (passkey),
 * always over the raw body bytes received. The stamping credential must belong to a user
 * of the target organization or of its parent organization. X-Stamp-Attested (a key bound to
 * a verification token or OIDC token, attested.ts) is accepted only where the caller allows it
 * (stamp_login, decision 0020).
 */
import { verifyAuthenticationResponse } from '@simplewebauthn/server';
import { and, eq, lt, or } from 'drizzle-orm';
import {
  checkWebAuthnStampChallenge,
  parseApiKeyStamp,
  parseWebAuthnStamp,
  webAuthnChallengeForBody,
  type ParsedStamp,
  type StampScheme,
  type WebAuthnStamp,
} from '@walletkit/crypto';
import { ApiError } from '../errors.js';
import { parseStrictJson } from '../request-body.js';
import type { Store } from '../store/db.js';
import { type apiKeys, authenticators, organizations } from '../store/schema.js';
import type { Caller, Services } from './context.js';
import { authenticateAttested } from './attested.js';
import { StampProof } from './stamp-check.js';
import { relyingPartyFor, rpIdFitsOrigin } from './webauthn.js';

const CURVE_OF_SCHEME: Record<StampScheme, string> = {
  SIGNATURE_SCHEME_TK_API_P256: 'API_KEY_CURVE_P256',
  SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191: 'API_KEY_CURVE_SECP256K1',
  SIGNATURE_SCHEME_TK_API_ED25519: 'API_KEY_CURVE_ED25519',
};

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Rows of `table` that belong to `organizationId` or to its parent (whose users may act on
 * it), in one query: an unknown organization simply matches nothing, so it is refused exactly
 * like an unknown key (ERR_STAMP_KEY_UNKNOWN) and the reply says nothing about which exists.
 */
function ofActingOrganizations(table: typeof apiKeys | typeof authenticators, organizationId: string) {
  return and(
    eq(organizations.id, organizationId),
    or(eq(table.organizationId, organizations.id), eq(table.organizationId, organizations.parentOrganizationId)),
  );
}

/** What the endpoint accepts beyond X-Stamp and X-Stamp-WebAuthn. */
export interface AuthenticateOptions {
  /** X-Stamp-Attested (stamp_login only); elsewhere that header is refused with ERR_STAMP_NOT_ACCEPTED. */
  attested?: boolean;
  /**
   * A signature (execute.ts `computeNow`): an X-Stamp whose key is cached and whose user is a root
   * quorum member comes back unchecked in `Caller.stamp`, for the signature's job to check.
   */
  deferStamp?: boolean;
}

/**
 * Authenticate a stamped request for `organizationId`.
 * @throws ApiError ERR_STAMP_MISSING | ERR_STAMP_MALFORMED (also two stamp headers at once) | ERR_STAMP_NOT_ACCEPTED (X-Stamp-Attested where not allowed) | ERR_STAMP_INVALID | ERR_STAMP_KEY_UNKNOWN (unknown key or organization) | ERR_API_KEY_EXPIRED, and for X-Stamp-Attested ERR_VERIFICATION_TOKEN_INVALID | ERR_OIDC_TOKEN_INVALID
 */
export async function authenticate(
  store: Store,
  services: Services,
  headers: Headers,
  rawBody: Uint8Array,
  organizationId: string,
  opts: AuthenticateOptions = {},
): Promise<Caller> {
  const apiStamp = header(headers, 'x-stamp');
  const webauthnStamp = header(headers, 'x-stamp-webauthn');
  const attestedStamp = header(headers, 'x-stamp-attested');
  // One request, one credential: with two headers, whatever reads one of them (a gateway, an
  // audit log) and this server reading the other would disagree on who acted.
  if ([apiStamp, webauthnStamp, attestedStamp].filter((h) => h !== undefined).length > 1) {
    throw new ApiError('ERR_STAMP_MALFORMED', 'send exactly one of X-Stamp, X-Stamp-WebAuthn and X-Stamp-Attested');
  }
  if (apiStamp !== undefined) return authenticateApiKey(services, apiStamp, rawBody, organizationId, opts.deferStamp === true);
  if (webauthnStamp !== undefined) return authenticatePasskey(store, services, webauthnStamp, rawBody, organizationId);
  if (attestedStamp !== undefined) {
    // An attestation names a user, not a credential of one: it may open a session, nothing else.
    if (opts.attested !== true) throw new ApiError('ERR_STAMP_NOT_ACCEPTED', 'X-Stamp-Attested is accepted by stamp_login only');
    return authenticateAttested(store.db, services, attestedStamp, rawBody, organizationId);
  }
  throw new ApiError('ERR_STAMP_MISSING');
}

async function authenticateApiKey(services: Services, value: string, rawBody: Uint8Array, organizationId: string, defer: boolean): Promise<Caller> {
  let stamp: ParsedStamp;
  try {
    // The header is JSON too, held to the body's rules (decision 0012): a key given twice would
    // name one signer to a reader keeping the first (a gateway, a log) and another to this one.
    stamp = parseApiKeyStamp(value, { parseJson: parseStrictJson });
  } catch (cause) {
    throw new ApiError('ERR_STAMP_MALFORMED', undefined, undefined, { cause });
  }
  // The signature is verified before the database is touched and before any other refusal: a
  // bad stamp learns nothing. Deferred, it is checked where that would happen (`settle`).
  const proof = new StampProof({ body: rawBody, stamp }, (job) => services.enclave.stamps.checkStamp(job.body, job.stamp));
  if (!defer) await proof.settle();
  const settle = () => proof.settle();
  const { keys, versions, seen } = await services.facts.apiKey(organizationId, stamp.publicKey.toLowerCase(), CURVE_OF_SCHEME[stamp.scheme], settle);
  if (keys.length === 0) {
    await settle();
    throw new ApiError('ERR_STAMP_KEY_UNKNOWN');
  }
  const now = services.now().getTime();
  // Prefer a key of the target organization itself over its parent's.
  const live =
    keys.find((k) => k.organizationId === organizationId && (k.expiresAt === null || k.expiresAt > now)) ??
    keys.find((k) => k.expiresAt === null || k.expiresAt > now);
  if (!live) {
    await settle();
    throw new ApiError('ERR_API_KEY_EXPIRED');
  }
  // Only a root quorum member is authorized from these facts alone; anyone else's policies are read.
  if (!live.rootMember || live.isProxy) await settle();
  return {
    userId: live.userId,
    organizationId: live.organizationId,
    credential: { kind: 'api_key', id: live.id, publicKey: live.publicKey },
    facts: { isProxy: live.isProxy, proxyEnabled: live.proxyEnabled, rootMember: live.rootMember, threshold: live.threshold },
    versions,
    ...(seen ? { seen } : {}),
    stamp: proof,
  };
}

async function authenticatePasskey(store: Store, services: Services, value: string, rawBody: Uint8Array, organizationId: string): Promise<Caller> {
  let stamp: WebAuthnStamp;
  try {
    stamp = parseWebAuthnStamp(value, { parseJson: parseStrictJson }); // as for X-Stamp: no repeated keys
  } catch (cause) {
    throw new ApiError('ERR_STAMP_MALFORMED', undefined, undefined, { cause });
  }
  if (!checkWebAuthnStampChallenge(rawBody, stamp)) throw new ApiError('ERR_STAMP_INVALID', 'the WebAuthn challenge is not the SHA-256 of the body');
  const [row] = await store.db
    .select({ cred: authenticators })
    .from(authenticators)
    .innerJoin(organizations, ofActingOrganizations(authenticators, organizationId))
    .where(eq(authenticators.credentialId, stamp.credentialId));
  const cred = row?.cred;
  if (!cred) throw new ApiError('ERR_STAMP_KEY_UNKNOWN');
  const challenge = Buffer.from(webAuthnChallengeForBody(rawBody), 'utf8').toString('base64url');
  // Passkeys created on the integrator's origin (allowed by its proxy config) sign there too.
  const rp = await relyingPartyFor(store.db, organizationId, services.config);
  let verified = false;
  let newCounter = cred.counter;
  try {
    const result = await verifyAuthenticationResponse({
      response: {
        id: stamp.credentialId,
        rawId: stamp.credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        response: { authenticatorData: stamp.authenticatorData, clientDataJSON: stamp.clientDataJson, signature: stamp.signature },
      },
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpIds,
      credential: { id: cred.credentialId, publicKey: Buffer.from(cred.credentialPublicKey, 'base64url'), counter: cred.counter },
      requireUserVerification: false,
    });
    verified = result.verified && rpIdFitsOrigin(result.authenticationInfo.rpID, result.authenticationInfo.origin);
    newCounter = result.authenticationInfo.newCounter;
  } catch (cause) {
    throw new ApiError('ERR_STAMP_INVALID', 'the passkey assertion does not verify', undefined, { cause });
  }
  if (!verified) throw new ApiError('ERR_STAMP_INVALID', 'the passkey assertion does not verify');
  if (newCounter > 0) {
    // The counter check above read a snapshot: advance it only from below, so that of two
    // assertions racing with one counter value (a cloned authenticator, a replay) one wins.
    const advanced = await store.db
      .update(authenticators)
      .set({ counter: newCounter })
      .where(and(eq(authenticators.id, cred.id), lt(authenticators.counter, newCounter)))
      .returning({ id: authenticators.id });
    if (advanced.length === 0) throw new ApiError('ERR_STAMP_INVALID', 'the passkey signature counter did not advance');
  }
  return { userId: cred.userId, organizationId: cred.organizationId, credential: { kind: 'authenticator', id: cred.id } };
}
