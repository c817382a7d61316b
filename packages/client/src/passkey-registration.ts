import type { RegistrationResponseJSON } from '@simplewebauthn/browser';
import type { ParamsOf } from '@walletkit/protocol';
import { AUTHENTICATOR_TRANSPORTS, type AuthenticatorTransport } from '@walletkit/protocol/wire';
import { base64urlEncode } from '@walletkit/crypto';
import { loadWebAuthn } from './on-demand.js';
import { passkeyError } from './stampers/passkey.js';

type Attestation = ParamsOf<'create_authenticators'>['authenticators'][number]['attestation'];

/**
 * Options of a passkey registration (signup or add passkey).
 *
 * @example
 * ```ts
 * const opts: PasskeyRegistrationOptions = { rpName: 'My App', userName: 'alice@example.com' };
 * ```
 */
export interface PasskeyRegistrationOptions {
  /** Shown by the browser; the app name. */
  rpName?: string | undefined;
  /** Relying party id; the page's host by default. */
  rpId?: string | undefined;
  /** The account label shown in the passkey list. */
  userName?: string | undefined;
  timeout?: number | undefined;
}

/**
 * Registers a new passkey with @simplewebauthn/browser (ES256 or RS256, resident key, no
 * attestation) and returns the challenge and attestation in the wire's shape.
 *
 * @example
 * ```ts
 * const { challenge, attestation } = await createPasskeyRegistration({ rpName: 'My App', userName: 'alice' });
 * await proxy.signup({ userName: 'alice', authenticators: [{ authenticatorName: 'laptop', challenge, attestation }] });
 * ```
 */
export async function createPasskeyRegistration(opts: PasskeyRegistrationOptions = {}): Promise<{ challenge: string; attestation: Attestation }> {
  const { startRegistration } = await loadWebAuthn();
  const random = globalThis.crypto.getRandomValues(new Uint8Array(32));
  const challenge = base64urlEncode(random);
  const userName = opts.userName ?? 'walletkit user';
  let response: RegistrationResponseJSON;
  try {
    response = await startRegistration({
      optionsJSON: {
        challenge,
        rp: { name: opts.rpName ?? 'walletkit', ...(opts.rpId !== undefined ? { id: opts.rpId } : {}) },
        user: { id: base64urlEncode(globalThis.crypto.getRandomValues(new Uint8Array(16))), name: userName, displayName: userName },
        pubKeyCredParams: [
          { type: 'public-key', alg: -7 },
          { type: 'public-key', alg: -257 },
        ],
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
        attestation: 'none',
        ...(opts.timeout !== undefined ? { timeout: opts.timeout } : {}),
      },
    });
  } catch (cause) {
    throw passkeyError(cause);
  }
  const transports = (response.response.transports ?? [])
    .map((t) => `AUTHENTICATOR_TRANSPORT_${t.toUpperCase()}`)
    .filter((t): t is AuthenticatorTransport => (AUTHENTICATOR_TRANSPORTS as readonly string[]).includes(t));
  return {
    challenge,
    attestation: {
      credentialId: response.id,
      clientDataJson: response.response.clientDataJSON,
      attestationObject: response.response.attestationObject,
      transports,
    },
  };
}
