/**
 * X-Stamp-Attested as `@turnkey/core` 2.8.1 builds it: its own AttestedStamper class (not
 * exported from the package index, so imported from its file), signing through Turnkey's
 * ApiKeyStamper (DER ECDSA-P256-SHA256 over the body text), and stamp_login bodies in the key
 * order of its generated client (`{parameters, organizationId, timestampMs, generateAppProofs, type}`).
 * Plus the token and signup steps before it, through the activities the proxy forwards to
 * (the server needs `devOutbox`: the code is read from the outbox as from the user's mailbox).
 */
import { ApiKeyStamper, SignatureFormat } from '@turnkey/api-key-stamper';
import { AttestedScheme, AttestedStamper } from '@turnkey/core/dist/__stampers__/attested/base.js';
import { listOutbox } from '../../src/delivery/outbox';
import type { ActivityClient, TestServer } from './harness';
import { codeIn, encryptOtpAttempt, loginSignature, otpTargetOf } from './otp';

/** What the attested stamp presents: a verification token or an OIDC token. */
export type Attestation = { verificationToken: string } | { oidcToken: string };

/**
 * The X-Stamp-Attested value `@turnkey/core` sends for `body`, signed by `key`; `publicKey`
 * (default the key's) is the key the stamp names.
 * @example const header = await attestedStamp(body, key, { verificationToken });
 */
export async function attestedStamp(
  body: string,
  key: { publicKey: string; privateKey: string },
  attestation: Attestation,
  publicKey = key.publicKey,
): Promise<string> {
  const signer = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
  // In the browser core's CrossPlatformApiKeyStamper signs with the IndexedDB key; only its sign() is used here.
  const apiKeyStamper = { sign: (payload: string, format?: SignatureFormat) => signer.sign(payload, format ?? SignatureFormat.Der) };
  const stamper = new AttestedStamper(apiKeyStamper as unknown as ConstructorParameters<typeof AttestedStamper>[0]);
  stamper.configure(
    'verificationToken' in attestation
      ? { attestedIdentity: attestation.verificationToken, publicKey, scheme: AttestedScheme.P256_VERIFICATION_TOKEN }
      : { attestedIdentity: attestation.oidcToken, publicKey, scheme: AttestedScheme.P256_OIDC },
  );
  const stamp = await stamper.stamp(body);
  if (stamp.stampHeaderName !== 'X-Stamp-Attested') throw new Error(`unexpected stamp header ${stamp.stampHeaderName}`);
  return stamp.stampHeaderValue;
}

/** The header's JSON (to tamper with it). */
export function decodeAttested(header: string): { publicKeyAttestation: string; scheme: string; publicKey: string; signature: string } {
  return JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
}

/** base64url(JSON) of any value, as a header. */
export const encodeAttested = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

/**
 * The stamp_login body `@turnkey/core`'s loginWithOtp / loginWithOauth submit.
 * @example stampLoginBody(orgId, key.publicKey, Date.now())
 */
export function stampLoginBody(
  organizationId: string,
  publicKey: string,
  timestampMs: number,
  parameters: { expirationSeconds?: string; invalidateExisting?: boolean } = {},
): string {
  return JSON.stringify({
    parameters: { publicKey, expirationSeconds: parameters.expirationSeconds ?? '900', invalidateExisting: parameters.invalidateExisting ?? false },
    organizationId,
    timestampMs: String(timestampMs),
    generateAppProofs: false,
    type: 'ACTIVITY_TYPE_STAMP_LOGIN',
  });
}

/**
 * A verification token for the email `contact` bound to `key`: init_otp and verify_otp of
 * `client`'s organization (default the server's root client), the code read from the dev outbox.
 * @example const token = await verifiedToken(server, 'a@example.com', key);
 */
export async function verifiedToken(server: TestServer, contact: string, key: { publicKey: string }, client: ActivityClient = server.client): Promise<string> {
  const init = await client.run('init_otp', { otpType: 'OTP_TYPE_EMAIL', contact });
  const target = otpTargetOf(init.otpEncryptionTargetBundle, server.enclave.signingPublicKey);
  const [message] = await listOutbox(server.store.db, { organizationId: client.organizationId, recipient: contact });
  if (!message) throw new Error(`no code was delivered to ${contact}`);
  const verified = await client.run('verify_otp', {
    otpId: init.otpId,
    encryptedOtpBundle: await encryptOtpAttempt(target.targetPublic, codeIn(message.body), key.publicKey),
  });
  return verified.verificationToken;
}

/**
 * The signup the proxy's signup_v2 forwards: create_sub_organization for the verified email with
 * the token (spent by it) and the client signature by `key`, the key the token binds.
 */
export async function signUpWithToken(
  server: TestServer,
  contact: string,
  key: { publicKey: string; privateKey: string },
  token?: string,
): Promise<{ subOrganizationId: string; userId: string; token: string }> {
  const verificationToken = token ?? (await verifiedToken(server, contact, key));
  const created = await server.client.run('create_sub_organization', {
    subOrganizationName: contact,
    rootUsers: [{ userName: contact, userEmail: contact, apiKeys: [], authenticators: [], oauthProviders: [] }],
    rootQuorumThreshold: 1,
    verificationToken,
    clientSignature: loginSignature(key.privateKey, verificationToken, 'USAGE_TYPE_SIGNUP'),
  });
  return { subOrganizationId: created.subOrganizationId, userId: created.rootUserIds[0]!, token: verificationToken };
}
