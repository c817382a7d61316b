/**
 * A fake `navigator.credentials` backed by the server's software authenticator
 * (packages/server/test/support/authenticator.ts), so that @simplewebauthn/browser runs
 * unmodified and the server verifies real attestations and assertions.
 */
import { createHash, sign, type KeyObject } from 'node:crypto';
import type { SoftwareAuthenticator } from '../../../server/test/support/authenticator';

const b64url = (data: Uint8Array | string) => Buffer.from(data).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const buffer = (b64: string) => new Uint8Array(Buffer.from(b64, 'base64url'));

/** The authenticator's assertion over an arbitrary challenge (W3C WebAuthn 6.3.3). */
function assert(auth: SoftwareAuthenticator, challenge: Uint8Array) {
  const internals = auth as unknown as { privateKey: KeyObject; counter: number };
  internals.counter += 1;
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(internals.counter);
  const authData = Buffer.concat([sha256(auth.rpId), Buffer.from([0x05]), counter]);
  const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: b64url(challenge), origin: auth.origin, crossOrigin: false }));
  const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), internals.privateKey);
  return { authData, clientData, signature };
}

/**
 * A `navigator.credentials` whose passkey is `state.authenticator` (switch it to hold another
 * passkey); `cancel` makes the next prompt fail like a dismissed one, `fail` makes the next
 * prompt throw that error.
 */
export function fakeCredentials(first: SoftwareAuthenticator) {
  const state: { cancel: boolean; fail: Error | undefined; authenticator: SoftwareAuthenticator } = { cancel: false, fail: undefined, authenticator: first };
  const failure = () => {
    const error = state.fail;
    state.fail = undefined;
    if (error) throw error;
  };
  const credentials = {
    async create({ publicKey }: { publicKey: { challenge: ArrayBuffer } }) {
      failure();
      const auth = state.authenticator;
      const att = auth.attest(b64url(new Uint8Array(publicKey.challenge)));
      return {
        id: att.credentialId,
        rawId: buffer(att.credentialId).buffer,
        type: 'public-key',
        authenticatorAttachment: 'platform',
        getClientExtensionResults: () => ({}),
        response: {
          clientDataJSON: buffer(att.clientDataJson).buffer,
          attestationObject: buffer(att.attestationObject).buffer,
          getTransports: () => ['internal', 'hybrid'],
        },
      };
    },
    async get({ publicKey }: { publicKey: { challenge: ArrayBuffer } }) {
      if (state.cancel) {
        state.cancel = false;
        throw Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' });
      }
      failure();
      const auth = state.authenticator;
      const { authData, clientData, signature } = assert(auth, new Uint8Array(publicKey.challenge));
      return {
        id: auth.credentialId,
        rawId: buffer(auth.credentialId).buffer,
        type: 'public-key',
        authenticatorAttachment: 'platform',
        getClientExtensionResults: () => ({}),
        response: {
          authenticatorData: new Uint8Array(authData).buffer,
          clientDataJSON: new Uint8Array(clientData).buffer,
          signature: new Uint8Array(signature).buffer,
          userHandle: null,
        },
      };
    },
  };
  return { credentials, state };
}
