import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { base64urlEncode, utf8ToBytes } from '@walletkit/crypto';
import { WalletKitError } from '../errors.js';
import { loadWebAuthn } from '../on-demand.js';
import { sha256HexWeb } from '../webcrypto/digest.js';
import type { Stamper } from './types.js';

/**
 * Options of {@link createPasskeyStamper}.
 *
 * @example
 * ```ts
 * const opts: PasskeyStamperOptions = { rpId: 'app.example', allowCredentialIds: [credentialId] };
 * ```
 */
export interface PasskeyStamperOptions {
  /** Relying party id; the page's host by default. */
  rpId?: string | undefined;
  /** Restrict the prompt to these credentials (base64url ids); any discoverable one otherwise. */
  allowCredentialIds?: string[] | undefined;
  /** Milliseconds before the prompt gives up. */
  timeout?: number | undefined;
  userVerification?: 'required' | 'preferred' | 'discouraged' | undefined;
}

/**
 * Maps a WebAuthn failure to a coded error, keeping the platform error as `cause`.
 * @internal
 */
export function passkeyError(cause: unknown): WalletKitError {
  const name = (cause as { name?: string; code?: string } | null)?.name;
  const code = (cause as { code?: string } | null)?.code;
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERR_ABORTED_BY_USER') {
    return new WalletKitError('ERR_PASSKEY_CANCELLED', undefined, { cause });
  }
  if (name === 'NotSupportedError' || /not support/i.test((cause as Error | null)?.message ?? '')) {
    return new WalletKitError('ERR_PASSKEY_UNSUPPORTED', undefined, { cause });
  }
  return new WalletKitError('ERR_PASSKEY_FAILED', (cause as Error | null)?.message, { cause });
}

/**
 * A stamper that asks the user's passkey to sign: the WebAuthn challenge is the UTF-8 bytes
 * of the lowercase hex SHA-256 of the body, and the assertion becomes the `X-Stamp-WebAuthn`
 * JSON `{authenticatorData, clientDataJson, credentialId, signature}` (DESIGN section 2).
 *
 * @example
 * ```ts
 * const stamper = createPasskeyStamper({ rpId: 'app.example' });
 * await activity.submit('stamp_login', { publicKey }, { stamper });
 * ```
 */
export function createPasskeyStamper(opts: PasskeyStamperOptions = {}): Stamper {
  return {
    async stamp(body) {
      // webAuthnChallengeForBody of @walletkit/crypto (hex SHA-256 of the body), through WebCrypto.
      const challenge = base64urlEncode(utf8ToBytes(await sha256HexWeb(body)));
      const { startAuthentication } = await loadWebAuthn();
      let assertion: AuthenticationResponseJSON;
      try {
        assertion = await startAuthentication({
          optionsJSON: {
            challenge,
            ...(opts.rpId !== undefined ? { rpId: opts.rpId } : {}),
            ...(opts.timeout !== undefined ? { timeout: opts.timeout } : {}),
            userVerification: opts.userVerification ?? 'preferred',
            allowCredentials: (opts.allowCredentialIds ?? []).map((id) => ({ id, type: 'public-key' as const })),
          },
        });
      } catch (cause) {
        throw passkeyError(cause);
      }
      const { authenticatorData, clientDataJSON, signature } = assertion.response;
      return {
        header: 'X-Stamp-WebAuthn',
        value: JSON.stringify({ authenticatorData, clientDataJson: clientDataJSON, credentialId: assertion.id, signature }),
      };
    },
  };
}
