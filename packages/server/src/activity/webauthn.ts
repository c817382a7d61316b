/**
 * Passkey registration: verify a WebAuthn attestation (create_authenticators, recover_user,
 * root users of create_sub_organization) with SimpleWebAuthn and return what the
 * `authenticators` table stores. Any failure is ERR_INVALID_ATTESTATION (400) with the
 * library's reason as the message; the stored key is later used by authenticate.ts to verify
 * X-Stamp-WebAuthn assertions.
 */
import { createPublicKey } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { type VerifiedRegistrationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import { cose, decodeCredentialPublicKey } from '@simplewebauthn/server/helpers';
import { compressPublicKey } from '@walletkit/crypto';
import type { AuthenticatorTransport, ParamsOf } from '@walletkit/protocol';
import type { ServerConfig } from '../config.js';
import { ApiError } from '../errors.js';
import type { Executor } from '../store/db.js';
import { organizations, proxyConfigs } from '../store/schema.js';

/** One passkey as sent on the wire (v1AuthenticatorParamsV2). */
export type AuthenticatorInput = ParamsOf<'create_authenticators'>['authenticators'][number];

/** A verified passkey, ready for the `authenticators` table. */
export interface VerifiedPasskey {
  name: string;
  /** base64url credential id (as attested by the authenticator). */
  credentialId: string;
  /** base64url COSE public key. */
  credentialPublicKey: string;
  counter: number;
  transports: AuthenticatorTransport[];
  aaguid: string;
  attestationFormat: string;
}

const TRANSPORT_OF: Record<AuthenticatorTransport, 'ble' | 'internal' | 'nfc' | 'usb' | 'hybrid'> = {
  AUTHENTICATOR_TRANSPORT_BLE: 'ble',
  AUTHENTICATOR_TRANSPORT_INTERNAL: 'internal',
  AUTHENTICATOR_TRANSPORT_NFC: 'nfc',
  AUTHENTICATOR_TRANSPORT_USB: 'usb',
  AUTHENTICATOR_TRANSPORT_HYBRID: 'hybrid',
};

/** Where passkey ceremonies of an organization may happen: origins and RP IDs. */
export interface RelyingParty {
  origins: string[];
  rpIds: string[];
}

/**
 * The relying party of an organization: `config.webauthn` plus the exact allowed origins of the
 * authentication proxy of the organization or of its parent (the integrator's app registers
 * passkeys on its own origin), each origin's host also accepted as RP ID. A proxy allowing `*`
 * adds nothing: a wildcard never widens passkey origins.
 * @example const rp = await relyingPartyFor(ctx.tx, ctx.organizationId, ctx.config);
 */
export async function relyingPartyFor(db: Executor, organizationId: string, config: Pick<ServerConfig, 'webauthn'>): Promise<RelyingParty> {
  const [org] = await db.select({ parent: organizations.parentOrganizationId }).from(organizations).where(eq(organizations.id, organizationId));
  const orgs = org?.parent ? [organizationId, org.parent] : [organizationId];
  const rows = await db
    .select({ enabled: proxyConfigs.enabled, settings: proxyConfigs.settings })
    .from(proxyConfigs)
    .where(inArray(proxyConfigs.organizationId, orgs));
  const origins = new Set(config.webauthn.origins);
  const rpIds = new Set([config.webauthn.rpId]);
  for (const row of rows) {
    if (!row.enabled) continue;
    for (const origin of row.settings.allowedOrigins) {
      if (origin === '*') continue;
      origins.add(origin);
      rpIds.add(new URL(origin).hostname);
    }
  }
  return { origins: [...origins], rpIds: [...rpIds] };
}

/**
 * Whether a ceremony's RP ID fits its origin by the browser's own rule (WebAuthn section 5.1.3:
 * the RP ID is the origin's host or a registrable suffix of it). A relying party's origins and
 * RP IDs are separate lists, so without this a ceremony could pair the server's RP ID with an
 * integrator's origin (or the reverse): no browser produces that, only a forged client.
 * @example rpIdFitsOrigin('app.example', 'https://login.app.example') // true
 */
export function rpIdFitsOrigin(rpId: string | undefined, origin: string): boolean {
  if (rpId === undefined || rpId === '') return false;
  let host: string;
  try {
    host = new URL(origin).hostname;
  } catch {
    return false;
  }
  return host === rpId || host.endsWith(`.${rpId}`);
}

/** EC2 curves of COSE (RFC 9053 section 7.1) with the one signature algorithm each is used with and its coordinate size. */
const EC2_CURVES: Record<number, { crv: string; alg: number; size: number }> = {
  1: { crv: 'P-256', alg: -7, size: 32 },
  2: { crv: 'P-384', alg: -35, size: 48 },
  3: { crv: 'P-521', alg: -36, size: 66 },
};

/**
 * Why an attested EC2 credential key is unusable, or undefined. With 'none' attestation nothing
 * was signed by the key at registration, so SimpleWebAuthn stores whatever bytes arrive: a point
 * off its curve (or an ES256 key on another curve) would be kept as a passkey that can never
 * verify, and shown as one. Other key types (RS256, EdDSA) are left to SimpleWebAuthn.
 */
function unusableEc2Key(cosePublicKey: Uint8Array<ArrayBuffer>): string | undefined {
  const key = decodeCredentialPublicKey(cosePublicKey);
  if (!cose.isCOSEPublicKeyEC2(key)) return undefined;
  const curve = EC2_CURVES[Number(key.get(cose.COSEKEYS.crv))];
  if (!curve || key.get(cose.COSEKEYS.alg) !== curve.alg) return 'the credential key algorithm does not match its curve';
  const x = key.get(cose.COSEKEYS.x);
  const y = key.get(cose.COSEKEYS.y);
  if (!x || !y || x.length !== curve.size || y.length !== curve.size) return 'the credential key coordinates have the wrong length';
  try {
    createPublicKey({ key: { kty: 'EC', crv: curve.crv, x: Buffer.from(x).toString('base64url'), y: Buffer.from(y).toString('base64url') }, format: 'jwk' });
  } catch {
    return 'the credential key is not a point of its curve';
  }
  return undefined;
}

/**
 * Verify a registration attestation against the configured relying party. The challenge is
 * the one the client says it used (Turnkey's contract: the caller, already authenticated by
 * its stamp, vouches for it); origin and RP ID must match `config.webauthn`.
 * @example const passkey = await verifyPasskeyAttestation(params.authenticator, ctx.config, 'authenticator');
 * @throws ApiError ERR_INVALID_ATTESTATION
 */
export async function verifyPasskeyAttestation(
  input: AuthenticatorInput,
  config: Pick<ServerConfig, 'webauthn'>,
  field: string,
  /** Wider origins and RP IDs (relyingPartyFor); default `config.webauthn` alone. */
  relyingParty?: RelyingParty,
): Promise<VerifiedPasskey> {
  const { attestation } = input;
  let result: VerifiedRegistrationResponse;
  try {
    result = await verifyRegistrationResponse({
      response: {
        id: attestation.credentialId,
        rawId: attestation.credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: attestation.clientDataJson,
          attestationObject: attestation.attestationObject,
          transports: attestation.transports.map((t) => TRANSPORT_OF[t]),
        },
      },
      expectedChallenge: input.challenge,
      expectedOrigin: relyingParty?.origins ?? config.webauthn.origins,
      expectedRPID: relyingParty?.rpIds ?? config.webauthn.rpId,
      // Turnkey registers passkeys without demanding UV; presence is still required.
      requireUserVerification: false,
    });
  } catch (cause) {
    throw new ApiError('ERR_INVALID_ATTESTATION', `${field}: ${(cause as Error)?.message ?? 'attestation does not verify'}`, field, { cause });
  }
  if (!result.verified) throw new ApiError('ERR_INVALID_ATTESTATION', `${field}: attestation does not verify`, field);
  const info = result.registrationInfo;
  if (!rpIdFitsOrigin(info.rpID, info.origin))
    throw new ApiError('ERR_INVALID_ATTESTATION', `${field}: the RP ID is not the origin's host or a parent of it`, field);
  const badKey = unusableEc2Key(info.credential.publicKey);
  if (badKey !== undefined) throw new ApiError('ERR_INVALID_ATTESTATION', `${field}: ${badKey}`, field);
  // SimpleWebAuthn trusts the JSON id; the stored id must be the one inside authData.
  if (info.credential.id !== attestation.credentialId) {
    throw new ApiError('ERR_INVALID_ATTESTATION', `${field}: credentialId is not the attested credential id`, field);
  }
  return {
    name: input.authenticatorName,
    credentialId: info.credential.id,
    credentialPublicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: [...new Set(attestation.transports)],
    aaguid: info.aaguid,
    attestationFormat: info.fmt,
  };
}

/**
 * The public key of a stored passkey as shown in records: compressed P-256 hex for ES256
 * keys (Turnkey's form), otherwise the hex of the COSE key.
 * @example credentialPublicKeyHex(row.credentialPublicKey) // '02ab...'
 */
export function credentialPublicKeyHex(coseBase64url: string): string {
  const bytes = Buffer.from(coseBase64url, 'base64url');
  try {
    const key = decodeCredentialPublicKey(bytes);
    if (cose.isCOSEPublicKeyEC2(key) && key.get(cose.COSEKEYS.crv) === cose.COSECRV.P256) {
      const x = key.get(cose.COSEKEYS.x);
      const y = key.get(cose.COSEKEYS.y);
      if (x && y) return compressPublicKey('p256', `04${Buffer.from(x).toString('hex')}${Buffer.from(y).toString('hex')}`);
    }
  } catch {
    // fall through: show the raw COSE bytes
  }
  return bytes.toString('hex');
}
