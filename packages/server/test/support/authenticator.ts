/**
 * A software WebAuthn authenticator (P-256, 'none' attestation) for tests: it produces real
 * registration attestations (W3C WebAuthn section 6.5.4: authData with attested credential
 * data, CBOR attestation object) and real assertion stamps for the X-Stamp-WebAuthn header
 * (DESIGN section 2), so the server's SimpleWebAuthn verification runs unmodified.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type { AuthenticatorTransport, ParamsOf } from '@walletkit/protocol';

type AuthenticatorParams = ParamsOf<'create_authenticators'>['authenticators'][number];
type Attestation = AuthenticatorParams['attestation'];

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array | string) => Buffer.from(data).toString('base64url');

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

export interface SoftwareAuthenticatorOptions {
  /** Relying party id; default 'localhost' (the test config's). */
  rpId?: string;
  /** Origin written into clientDataJSON; default 'http://localhost:5173' (allowed by the test config). */
  origin?: string;
  transports?: AuthenticatorTransport[];
}

/** A passkey held in memory. @example const passkey = new SoftwareAuthenticator(); const params = passkey.authenticatorParams('laptop'); */
export class SoftwareAuthenticator {
  readonly credentialId: string;
  readonly rpId: string;
  readonly origin: string;
  readonly aaguid = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly cosePublicKey: Uint8Array;
  private readonly transports: AuthenticatorTransport[];
  private counter = 0;

  constructor(opts: SoftwareAuthenticatorOptions = {}) {
    this.rpId = opts.rpId ?? 'localhost';
    this.origin = opts.origin ?? 'http://localhost:5173';
    this.transports = opts.transports ?? ['AUTHENTICATOR_TRANSPORT_INTERNAL', 'AUTHENTICATOR_TRANSPORT_HYBRID'];
    this.credentialId = b64url(randomBytes(32));
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    // COSE_Key (RFC 9053): kty EC2 (1:2), alg ES256 (3:-7), crv P-256 (-1:1), x (-2), y (-3).
    this.cosePublicKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  /** A registration for `challenge` (base64url, as sent in `AuthenticatorParams.challenge`). */
  attest(challenge: string, opts: { origin?: string; rpId?: string; type?: string } = {}): Attestation {
    const credId = Buffer.from(this.credentialId, 'base64url');
    const credIdLength = Buffer.alloc(2);
    credIdLength.writeUInt16BE(credId.length);
    const authData = Buffer.concat([
      sha256(opts.rpId ?? this.rpId),
      Buffer.from([FLAG_UP | FLAG_UV | FLAG_AT]),
      u32(this.counter),
      this.aaguid,
      credIdLength,
      credId,
      this.cosePublicKey,
    ]);
    const clientData = JSON.stringify({ type: opts.type ?? 'webauthn.create', challenge, origin: opts.origin ?? this.origin, crossOrigin: false });
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    return { credentialId: this.credentialId, clientDataJson: b64url(clientData), attestationObject: b64url(attestationObject), transports: this.transports };
  }

  /** Parameters of create_authenticators / recover_user with a fresh random challenge. */
  authenticatorParams(name: string, challenge = b64url(randomBytes(32))): AuthenticatorParams {
    return { authenticatorName: name, challenge, attestation: this.attest(challenge) };
  }

  /** The X-Stamp-WebAuthn header value for a request body (challenge = utf8 of hex SHA-256 of the body). */
  stamp(body: string, opts: { origin?: string } = {}): string {
    this.counter += 1;
    const authData = Buffer.concat([sha256(this.rpId), Buffer.from([FLAG_UP | FLAG_UV]), u32(this.counter)]);
    const challenge = b64url(sha256(body).toString('hex'));
    const clientDataJson = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin: opts.origin ?? this.origin, crossOrigin: false }));
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJson)]), this.privateKey);
    return JSON.stringify({
      authenticatorData: b64url(authData),
      clientDataJson: b64url(clientDataJson),
      credentialId: this.credentialId,
      signature: b64url(signature),
    });
  }
}
