import { describe, expect, it } from 'vitest';
import {
  base64urlEncode,
  checkWebAuthnStampChallenge,
  parseWebAuthnStamp,
  sha256Hex,
  utf8ToBytes,
  webAuthnChallengeForBody,
  type WebAuthnStamp,
} from '../src/index';
import { codeOf } from './support';

const BODY = '{"type":"ACTIVITY_TYPE_STAMP_LOGIN","timestampMs":"1700000000000","organizationId":"o","parameters":{}}';
const b64 = (text: string) => base64urlEncode(utf8ToBytes(text));

function stampFor(clientData: unknown): WebAuthnStamp {
  return {
    authenticatorData: b64('authdata'),
    clientDataJson: b64(JSON.stringify(clientData)),
    credentialId: b64('cred'),
    signature: b64('sig'),
  };
}

describe('WebAuthn stamps', () => {
  it('given a body, then the challenge is the lowercase hex SHA-256 of its bytes', () => {
    expect(webAuthnChallengeForBody(BODY)).toBe(sha256Hex(BODY));
    expect(webAuthnChallengeForBody(utf8ToBytes(BODY))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('given clientDataJSON whose challenge is base64url(utf8(hex sha256(body))), then the stamp is bound to that body only', () => {
    const challenge = b64(webAuthnChallengeForBody(BODY));
    const stamp = parseWebAuthnStamp(JSON.stringify(stampFor({ type: 'webauthn.get', challenge, origin: 'https://app.example' })));
    expect(checkWebAuthnStampChallenge(BODY, stamp)).toBe(true);
    expect(checkWebAuthnStampChallenge(utf8ToBytes(BODY), stamp)).toBe(true);
    expect(checkWebAuthnStampChallenge(`${BODY} `, stamp)).toBe(false);
  });

  it('given a registration (webauthn.create), a raw-hash challenge or broken clientDataJSON, then the check fails without throwing', () => {
    const hex = webAuthnChallengeForBody(BODY);
    expect(checkWebAuthnStampChallenge(BODY, stampFor({ type: 'webauthn.create', challenge: b64(hex) }))).toBe(false);
    // The challenge is the UTF-8 of the hex string, not the 32 hash bytes themselves.
    const rawHash = base64urlEncode(Uint8Array.from(hex.match(/../g)!.map((h) => Number.parseInt(h, 16))));
    expect(checkWebAuthnStampChallenge(BODY, stampFor({ type: 'webauthn.get', challenge: rawHash }))).toBe(false);
    expect(checkWebAuthnStampChallenge(BODY, { ...stampFor({}), clientDataJson: b64('not json') })).toBe(false);
    expect(checkWebAuthnStampChallenge(BODY, { ...stampFor({}), clientDataJson: '!!' })).toBe(false);
    expect(checkWebAuthnStampChallenge(BODY, stampFor({ type: 'webauthn.get', challenge: 42 }))).toBe(false);
  });

  const good = stampFor({ type: 'webauthn.get', challenge: 'x' });
  it.each([
    ['empty', ''],
    ['not JSON', '{'],
    ['an array', JSON.stringify([good])],
    ['base64url instead of JSON', b64(JSON.stringify(good))],
    ['missing credentialId', JSON.stringify({ ...good, credentialId: undefined })],
    ['numeric signature', JSON.stringify({ ...good, signature: 5 })],
    ['non-base64url authenticatorData', JSON.stringify({ ...good, authenticatorData: 'a+b/' })],
  ])('given a WebAuthn header that is %s, when parsed, then ERR_STAMP_MALFORMED', (_name, bad) => {
    expect(codeOf(() => parseWebAuthnStamp(bad))).toBe('ERR_STAMP_MALFORMED');
  });
});
