/**
 * Passkeys under attack: X-Stamp-WebAuthn assertions and registration attestations built by a
 * software authenticator with every knob an attacker (or a broken or cloned authenticator)
 * can turn: origin, RP ID, ceremony type, challenge, flags, signature counter, signing key,
 * encodings, and the credential public key itself. Registration goes through signup_v2
 * (authenticators) and create_authenticators; stamps go to /public/v1 over real HTTP. Every
 * hostile request is a 4xx with a stable code and has no effect.
 */
import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign, type KeyObject } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type { ParamsOf } from '@walletkit/protocol';
import { authenticators, organizations, wallets } from '../../src/store/schema';
import { addOrganization } from '../support/members';
import { startProxyServer, type ProxyTestServer } from '../support/proxy';
import { storeKinds, type StoreKind } from '../support/stores';
import { envelopeText, sendRaw, type RawReply } from './support/http';
import { adversarialTally } from './support/tally';

const tally = adversarialTally('passkeys');
/** The integrator's app: the proxy allows it, so passkeys of its sub-organizations live on it. */
const APP = 'https://app.example';
const RP_ID = 'app.example';

type AuthenticatorParams = ParamsOf<'create_authenticators'>['authenticators'][number];
type Attestation = AuthenticatorParams['attestation'];
/** The X-Stamp-WebAuthn document (DESIGN section 2). */
interface WebAuthnStamp {
  authenticatorData: string;
  clientDataJson: string;
  credentialId: string;
  signature: string;
}

/** Authenticator data flags (WebAuthn section 6.1). */
const UP = 0x01;
const UV = 0x04;
const BE = 0x08;
const BS = 0x10;
const AT = 0x40;
const ED = 0x80;

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array | string) => Buffer.from(data).toString('base64url');
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** COSE_Key of an EC2 key (RFC 9053): kty 2, alg, crv, x, y. */
const coseEc2 = (x: Uint8Array, y: Uint8Array, opts: { alg?: number; crv?: number } = {}) =>
  isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, opts.alg ?? -7],
      [-1, opts.crv ?? 1],
      [-2, x],
      [-3, y],
    ]),
  );

/** What an assertion may be bent into. */
interface AssertionKnobs {
  flags?: number;
  /** The signature counter written; default: the next one (or 0 for a counter-less authenticator). */
  counter?: number;
  rpId?: string;
  origin?: string;
  type?: string;
  /** The clientDataJSON challenge (base64url); default: of the body's hex SHA-256. */
  challenge?: string;
  /** More clientDataJSON members (crossOrigin, topOrigin...). */
  clientData?: Record<string, unknown>;
  /** Sign with another private key, keeping this credential id. */
  signWith?: KeyObject;
}

/** What an attestation may be bent into. */
interface AttestationKnobs {
  flags?: number;
  rpId?: string;
  origin?: string;
  type?: string;
  /** The credential public key in authData (COSE); default: this passkey's. */
  cose?: Uint8Array;
  /** The credential id inside authData; default: this passkey's. */
  attestedCredentialId?: string;
  fmt?: string;
  attStmt?: Map<string, unknown>;
}

/**
 * A P-256 passkey with every knob exposed (test/support's SoftwareAuthenticator is the honest
 * one, shared; this one also lies). `counting: false` is an authenticator without a signature
 * counter (always 0), as many synced platform passkeys are.
 */
class HostilePasskey {
  readonly credentialId: string;
  readonly privateKey: KeyObject;
  readonly cose: Uint8Array;
  /** False for an authenticator without a signature counter (always 0). */
  readonly counting: boolean;
  counter = 0;

  constructor(
    readonly rpId = RP_ID,
    readonly origin = APP,
    opts: { counting?: boolean; privateKey?: KeyObject; credentialId?: string; counter?: number } = {},
  ) {
    this.counting = opts.counting ?? true;
    this.credentialId = opts.credentialId ?? b64url(randomBytes(32));
    this.privateKey = opts.privateKey ?? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    this.counter = opts.counter ?? 0;
    const jwk = this.privateKey.export({ format: 'jwk' });
    this.cose = coseEc2(Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url'));
  }

  /** The same key and credential id with the same counter: a cloned authenticator. */
  clone(): HostilePasskey {
    return new HostilePasskey(this.rpId, this.origin, {
      counting: this.counting,
      privateKey: this.privateKey,
      credentialId: this.credentialId,
      counter: this.counter,
    });
  }

  /** A 'none' registration for `challenge` (base64url), bent by `k`. */
  attest(challenge: string, k: AttestationKnobs = {}): Attestation {
    const credId = Buffer.from(k.attestedCredentialId ?? this.credentialId, 'base64url');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(credId.length);
    const authData = Buffer.concat([
      sha256(k.rpId ?? this.rpId),
      Buffer.from([k.flags ?? UP | UV | AT]),
      u32(0),
      randomBytes(16),
      length,
      credId,
      k.cose ?? this.cose,
    ]);
    const clientData = JSON.stringify({ type: k.type ?? 'webauthn.create', challenge, origin: k.origin ?? this.origin, crossOrigin: false });
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', k.fmt ?? 'none'],
        ['attStmt', k.attStmt ?? new Map()],
        ['authData', authData],
      ]) as never,
    );
    return {
      credentialId: this.credentialId,
      clientDataJson: b64url(clientData),
      attestationObject: b64url(attestationObject),
      transports: ['AUTHENTICATOR_TRANSPORT_INTERNAL'],
    };
  }

  /** create_authenticators / signup_v2 parameters; `challenge` is what the caller claims it asked for. */
  params(name: string, k: AttestationKnobs & { challenge?: string; signedChallenge?: string } = {}): AuthenticatorParams {
    const challenge = k.challenge ?? b64url(randomBytes(32));
    return { authenticatorName: name, challenge, attestation: this.attest(k.signedChallenge ?? challenge, k) };
  }

  /** An assertion over `body` (challenge = base64url of the UTF-8 hex SHA-256 of the body). */
  assert(body: string, k: AssertionKnobs = {}): WebAuthnStamp {
    const counter = k.counter ?? (this.counting ? ++this.counter : 0);
    const authData = Buffer.concat([sha256(k.rpId ?? this.rpId), Buffer.from([k.flags ?? UP | UV]), u32(counter)]);
    const challenge = k.challenge ?? b64url(sha256(body).toString('hex'));
    const clientDataJson = Buffer.from(
      JSON.stringify({ type: k.type ?? 'webauthn.get', challenge, origin: k.origin ?? this.origin, crossOrigin: false, ...k.clientData }),
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJson)]), k.signWith ?? this.privateKey);
    return { authenticatorData: b64url(authData), clientDataJson: b64url(clientDataJson), credentialId: this.credentialId, signature: b64url(signature) };
  }
}

/** The raw coordinates of a fresh P-256 point. */
function freshCoordinates(): { x: Buffer; y: Buffer } {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
  return { x: Buffer.from(jwk.x!, 'base64url'), y: Buffer.from(jwk.y!, 'base64url') };
}

/** A proxy server whose integrator allows APP (so sub-organizations' passkeys live on app.example). */
async function startPasskeyServer(kind: StoreKind): Promise<ProxyTestServer> {
  return startProxyServer(kind, { proxy: { origins: [APP] }, origin: APP });
}

/** One end user signed up through the proxy with `passkey`. */
async function signupWith(
  s: ProxyTestServer,
  passkey: HostilePasskey,
  name = `u-${randomUUID().slice(0, 8)}`,
): Promise<{ organizationId: string; userId: string }> {
  const reply = await s.browser.post('signup_v2', { userName: name, authenticators: [passkey.params('laptop')] });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return { organizationId: reply.body.organizationId, userId: reply.body.userId };
}

/** The submit of create_wallet on `organizationId`, its exact body, and a sender with any stamp header value. */
function walletSubmit(s: ProxyTestServer, organizationId: string, walletName = `w-${randomUUID().slice(0, 8)}`) {
  const body = envelopeText('create_wallet', organizationId, { walletName, accounts: [] });
  const send = (stamp: WebAuthnStamp | string, bytes: string = body): Promise<RawReply> =>
    sendRaw(s.url, '/public/v1/submit/create_wallet', bytes, { 'x-stamp-webauthn': typeof stamp === 'string' ? stamp : JSON.stringify(stamp) });
  return { body, send };
}

const walletsOf = async (s: ProxyTestServer, organizationId: string) =>
  (await s.store.db.select({ n: count() }).from(wallets).where(eq(wallets.organizationId, organizationId)))[0]!.n;
const counterOf = async (s: ProxyTestServer, credentialId: string, organizationId: string) =>
  (
    await s.store.db
      .select({ counter: authenticators.counter, org: authenticators.organizationId })
      .from(authenticators)
      .where(eq(authenticators.credentialId, credentialId))
  ).find((r) => r.org === organizationId)?.counter;

describe('passkey stamps and registrations (PGlite)', () => {
  let s: ProxyTestServer;
  /** End user A and its sibling B, both sub-organizations of the integrator. */
  const pkA = new HostilePasskey();
  const pkB = new HostilePasskey();
  let a: { organizationId: string; userId: string };
  let sibling: { organizationId: string; userId: string };
  /** Another top-level organization (no proxy: its passkeys live on the server's own RP). */
  let other: { organizationId: string; passkey: HostilePasskey };

  beforeAll(async () => {
    s = await startPasskeyServer('pglite');
    a = await signupWith(s, pkA, 'alice');
    sibling = await signupWith(s, pkB, 'bob');
    const org = await addOrganization(s, 'Other integrator');
    const passkey = new HostilePasskey(s.config.webauthn.rpId, s.config.webauthn.origins[0]!);
    await org.client.run('create_authenticators', { userId: org.userId, authenticators: [passkey.params('other laptop')] });
    other = { organizationId: org.organizationId, passkey };
    // Control: A's passkey stamps on A.
    const { body, send } = walletSubmit(s, a.organizationId);
    const ok = await send(pkA.assert(body));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
  afterAll(async () => s?.dispose());

  it('given assertions from another origin, for another RP ID, of a registration ceremony, or over a challenge that is not the body hash (or is the hash of another body), when they stamp, then each is a 401 ERR_STAMP_INVALID and nothing is created', async () => {
    const before = await walletsOf(s, a.organizationId);
    const knobs: Array<[string, AssertionKnobs | ((body: string) => AssertionKnobs)]> = [
      ['origin: another site', { origin: 'https://evil.example' }],
      ['origin: a look-alike subdomain', { origin: 'https://app.example.evil.example' }],
      ['origin: a subdomain of the app', { origin: 'https://login.app.example' }],
      ['origin: plain http', { origin: 'http://app.example' }],
      ['origin: another port', { origin: 'https://app.example:8443' }],
      ['origin: a trailing slash', { origin: 'https://app.example/' }],
      ['origin: upper case', { origin: 'https://APP.example' }],
      ['origin: null', { origin: 'null' }],
      ['origin: absent', { origin: undefined, clientData: { origin: undefined } }],
      ['origin: in a foreign top-level frame', { clientData: { crossOrigin: true, topOrigin: 'https://evil.example' } }],
      ['RP ID: another domain', { rpId: 'evil.example' }],
      ['RP ID: the registrable parent domain', { rpId: 'example' }],
      ['RP ID: a subdomain', { rpId: 'login.app.example' }],
      ['RP ID: upper case', { rpId: 'APP.example' }],
      ['RP ID: empty', { rpId: '' }],
      ["RP ID: the server's own", { rpId: s.config.webauthn.rpId }],
      ['type: webauthn.create', { type: 'webauthn.create' }],
      ['type: payment.get', { type: 'payment.get' }],
      ['type: absent', { clientData: { type: undefined } }],
      ['challenge: random', { challenge: b64url(randomBytes(32)) }],
      ['challenge: the hash in upper-case hex', (body) => ({ challenge: b64url(sha256(body).toString('hex').toUpperCase()) })],
      ['challenge: the raw hash bytes', (body) => ({ challenge: b64url(sha256(body)) })],
      ['challenge: the body itself', (body) => ({ challenge: b64url(body) })],
      ['challenge: the hash of the body with a space added', (body) => ({ challenge: b64url(sha256(`${body} `).toString('hex')) })],
      ['challenge: standard base64 of the hash', (body) => ({ challenge: Buffer.from(sha256(body).toString('hex')).toString('base64') })],
      ['challenge: empty', { challenge: '' }],
    ];
    for (const [what, knob] of knobs) {
      const { body, send } = walletSubmit(s, a.organizationId);
      const k = typeof knob === 'function' ? knob(body) : knob;
      // An undefined member of clientData drops the field from the JSON.
      tally.refused('passkeys', what, await send(pkA.assert(body, k)), 401, 'ERR_STAMP_INVALID');
    }
    // The assertion of one body used on another (same key, same moment, different wallet).
    const first = walletSubmit(s, a.organizationId);
    const second = walletSubmit(s, a.organizationId);
    const stamp = pkA.assert(first.body);
    tally.refused('passkeys', 'assertion of another body', await second.send(stamp), 401, 'ERR_STAMP_INVALID');
    tally.refused('passkeys', 'assertion of another body, one byte appended', await first.send(stamp, `${first.body} `), 401, 'ERR_STAMP_INVALID');
    tally.refused('passkeys', 'assertion of another organization body', await walletSubmit(s, sibling.organizationId).send(stamp), 401, 'ERR_STAMP_INVALID');
    expect(await walletsOf(s, a.organizationId)).toBe(before);
  });

  it('given assertions without user presence, with a backup state but no backup eligibility, or claiming attested or extension data they lack, when they stamp, then each is a 401 ERR_STAMP_INVALID; without user verification (UV) the server accepts, as it registers passkeys without requiring it', async () => {
    const before = await walletsOf(s, a.organizationId);
    const flags: Array<[string, number]> = [
      ['UP cleared (UV set)', UV],
      ['UP and UV cleared', 0],
      ['BS without BE', UP | UV | BS],
      ['AT set without attested credential data', UP | UV | AT],
      ['ED set without extension data', UP | UV | ED],
      ['reserved bit set', UP | UV | 0x02 | 0x20],
    ];
    for (const [what, f] of flags) {
      const { body, send } = walletSubmit(s, a.organizationId);
      const reply = await send(pkA.assert(body, { flags: f }));
      if (what === 'reserved bit set') {
        // Reserved bits carry no meaning for the RP (WebAuthn section 6.1: RFU, ignored); the assertion stands.
        expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        continue;
      }
      tally.refused('passkeys', `flags: ${what}`, reply, 401, 'ERR_STAMP_INVALID');
    }
    expect(await walletsOf(s, a.organizationId)).toBe(before + 1);
    // Decision (reported): presence is required, verification is not (requireUserVerification
    // false, as at registration and as Turnkey does); a synced passkey (BE and BS) is fine too.
    for (const f of [UP, UP | BE, UP | UV | BE | BS]) {
      const { body, send } = walletSubmit(s, a.organizationId);
      const reply = await send(pkA.assert(body, { flags: f }));
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }
  });

  it("given another organization's credential, a sibling sub-organization's credential, a sub-organization's credential on its parent, or the right credential id signed by another key, when they stamp on A, then each is a 401 and A is untouched", async () => {
    const before = await walletsOf(s, a.organizationId);
    const onA = () => walletSubmit(s, a.organizationId);
    let w = onA();
    tally.refused('passkeys', "another organization's passkey on A", await w.send(other.passkey.assert(w.body)), 401, 'ERR_STAMP_KEY_UNKNOWN');
    w = onA();
    tally.refused('passkeys', "the sibling's passkey on A", await w.send(pkB.assert(w.body)), 401, 'ERR_STAMP_KEY_UNKNOWN');
    w = walletSubmit(s, s.org.organizationId);
    tally.refused('passkeys', "A's passkey on the integrator (its parent)", await w.send(pkA.assert(w.body)), 401, 'ERR_STAMP_KEY_UNKNOWN');
    w = walletSubmit(s, other.organizationId);
    tally.refused('passkeys', "A's passkey on another organization", await w.send(pkA.assert(w.body)), 401, 'ERR_STAMP_KEY_UNKNOWN');
    w = onA();
    const impostor = new HostilePasskey(RP_ID, APP, { credentialId: pkA.credentialId });
    tally.refused('passkeys', "A's credential id signed by another key", await w.send(impostor.assert(w.body)), 401, 'ERR_STAMP_INVALID');
    w = onA();
    tally.refused(
      'passkeys',
      "A's credential id signed by the sibling's key",
      await w.send(pkA.assert(w.body, { signWith: pkB.privateKey })),
      401,
      'ERR_STAMP_INVALID',
    );
    w = onA();
    tally.refused('passkeys', 'an unregistered passkey', await w.send(new HostilePasskey().assert(w.body)), 401, 'ERR_STAMP_KEY_UNKNOWN');
    expect(await walletsOf(s, a.organizationId)).toBe(before);
  });

  it('given a signature counter that went backwards, stood still, or a cloned authenticator behind the original, when they stamp, then each is a 401 ERR_STAMP_INVALID, the stored counter keeps the highest value and the original goes on', async () => {
    const passkey = new HostilePasskey();
    const user = await signupWith(s, passkey);
    const clone = passkey.clone();
    const step = async (k: AssertionKnobs = {}) => {
      const { body, send } = walletSubmit(s, user.organizationId);
      return send(passkey.assert(body, k));
    };
    expect((await step({ counter: 10 })).status).toBe(200);
    expect((await step({ counter: 20 })).status).toBe(200);
    expect(await counterOf(s, passkey.credentialId, user.organizationId)).toBe(20);
    tally.refused('passkeys', 'counter lower than stored', await step({ counter: 15 }), 401, 'ERR_STAMP_INVALID');
    tally.refused('passkeys', 'counter equal to stored', await step({ counter: 20 }), 401, 'ERR_STAMP_INVALID');
    tally.refused('passkeys', 'counter 0 after a counting authenticator', await step({ counter: 0 }), 401, 'ERR_STAMP_INVALID');
    tally.refused('passkeys', 'counter 1', await step({ counter: 1 }), 401, 'ERR_STAMP_INVALID');
    // The clone was copied at counter 0 and counts on its own: its next values are behind.
    for (let i = 0; i < 3; i += 1) {
      const { body, send } = walletSubmit(s, user.organizationId);
      tally.refused('passkeys', `cloned authenticator, use ${i + 1}`, await send(clone.assert(body)), 401, 'ERR_STAMP_INVALID');
    }
    expect(await counterOf(s, passkey.credentialId, user.organizationId)).toBe(20);
    expect(await walletsOf(s, user.organizationId)).toBe(2);
    // The original goes on past the stored value.
    expect((await step({ counter: 21 })).status).toBe(200);
    expect(await counterOf(s, passkey.credentialId, user.organizationId)).toBe(21);
  });

  it('given a header that is not JSON, lacks a member, uses standard base64, or carries authenticator data too short, clientDataJSON that is not JSON, or a signature that is not DER, when it stamps, then each is a 401 (ERR_STAMP_MALFORMED or ERR_STAMP_INVALID)', async () => {
    const before = await walletsOf(s, a.organizationId);
    const variants: Array<[string, (st: WebAuthnStamp, body: string) => WebAuthnStamp | string, string]> = [
      ['header not JSON', () => 'not json', 'ERR_STAMP_MALFORMED'],
      ['header a JSON array', (st) => JSON.stringify([st]), 'ERR_STAMP_MALFORMED'],
      ['header base64url of the JSON', (st) => b64url(JSON.stringify(st)), 'ERR_STAMP_MALFORMED'],
      ['no signature member', (st) => JSON.stringify({ ...st, signature: undefined }), 'ERR_STAMP_MALFORMED'],
      ['an empty credential id', (st) => ({ ...st, credentialId: '' }), 'ERR_STAMP_MALFORMED'],
      ['a numeric signature', (st) => JSON.stringify({ ...st, signature: 42 }), 'ERR_STAMP_MALFORMED'],
      ['standard base64 everywhere', (st) => toStandardBase64(st), 'ERR_STAMP_MALFORMED'],
      [
        'authenticator data of 10 bytes',
        (st) => ({ ...st, authenticatorData: b64url(Buffer.from(st.authenticatorData, 'base64url').subarray(0, 10)) }),
        'ERR_STAMP_INVALID',
      ],
      [
        'authenticator data of 36 bytes',
        (st) => ({ ...st, authenticatorData: b64url(Buffer.from(st.authenticatorData, 'base64url').subarray(0, 36)) }),
        'ERR_STAMP_INVALID',
      ],
      [
        'authenticator data with trailing bytes',
        (st) => ({ ...st, authenticatorData: b64url(Buffer.concat([Buffer.from(st.authenticatorData, 'base64url'), randomBytes(8)])) }),
        'ERR_STAMP_INVALID',
      ],
      ['clientDataJSON not JSON', (st) => ({ ...st, clientDataJson: b64url('{type: webauthn.get') }), 'ERR_STAMP_INVALID'],
      ['clientDataJSON the JSON null', (st) => ({ ...st, clientDataJson: b64url('null') }), 'ERR_STAMP_INVALID'],
      [
        'clientDataJSON with a BOM',
        (st) => ({ ...st, clientDataJson: b64url(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(st.clientDataJson, 'base64url')])) }),
        'ERR_STAMP_INVALID',
      ],
      ['a raw r||s signature', (st) => ({ ...st, signature: b64url(derToRaw(Buffer.from(st.signature, 'base64url'))) }), 'ERR_STAMP_INVALID'],
      ['a truncated signature', (st) => ({ ...st, signature: b64url(Buffer.from(st.signature, 'base64url').subarray(0, 20)) }), 'ERR_STAMP_INVALID'],
      ['a signature of zeros', (st) => ({ ...st, signature: b64url(Buffer.alloc(72)) }), 'ERR_STAMP_INVALID'],
    ];
    for (const [what, bend, code] of variants) {
      const { body, send } = walletSubmit(s, a.organizationId);
      tally.refused('passkeys', `encoding: ${what}`, await send(bend(pkA.assert(body), body)), 401, code);
    }
    expect(await walletsOf(s, a.organizationId)).toBe(before);
    // ECDSA is malleable: (r, n - s) verifies as well. The twin of an accepted assertion is the
    // same assertion (same body, same counter), so the counter refuses it as a replay.
    const { body, send } = walletSubmit(s, a.organizationId);
    const stamp = pkA.assert(body);
    expect((await send(stamp)).status).toBe(200);
    tally.refused(
      'passkeys',
      'encoding: the high-S twin of an accepted signature',
      await send({ ...stamp, signature: b64url(highS(Buffer.from(stamp.signature, 'base64url'))) }),
      401,
      'ERR_STAMP_INVALID',
    );
    expect(await walletsOf(s, a.organizationId)).toBe(before + 1);
  });

  it('given attestations for another RP ID or origin, a challenge mismatch, a get ceremony, no user presence, a forged format, or a credential key that is not a P-256 point, when create_authenticators (stamped by the user) or signup_v2 registers them, then each is a 400 ERR_INVALID_ATTESTATION and nothing is stored', async () => {
    const { x, y } = freshCoordinates();
    const offCurve = Buffer.from(y);
    offCurve[31]! ^= 0x01;
    const attacks: Array<[string, (p: HostilePasskey) => AuthenticatorParams]> = [
      ['another RP ID', (p) => p.params('a', { rpId: 'evil.example' })],
      ["the server's RP ID on the app's origin", (p) => p.params('a', { rpId: 'localhost' })],
      ['another origin', (p) => p.params('a', { origin: 'https://evil.example' })],
      ['a look-alike origin', (p) => p.params('a', { origin: 'https://app.example.evil.example' })],
      ['a challenge mismatch', (p) => p.params('a', { challenge: b64url(randomBytes(32)), signedChallenge: b64url(randomBytes(32)) })],
      ['type webauthn.get', (p) => p.params('a', { type: 'webauthn.get' })],
      ['UP cleared', (p) => p.params('a', { flags: UV | AT })],
      ['AT cleared (no credential)', (p) => p.params('a', { flags: UP | UV })],
      ['a credential id other than the attested one', (p) => ({ ...p.params('a', { attestedCredentialId: b64url(randomBytes(32)) }) })],
      ['fmt packed without a statement', (p) => p.params('a', { fmt: 'packed' })],
      ['fmt fido-u2f without a statement', (p) => p.params('a', { fmt: 'fido-u2f' })],
      ['a point off the curve', (p) => p.params('a', { cose: coseEc2(x, offCurve) })],
      ['the point at the origin (0, 0)', (p) => p.params('a', { cose: coseEc2(Buffer.alloc(32), Buffer.alloc(32)) })],
      ['a 31-byte x coordinate', (p) => p.params('a', { cose: coseEc2(x.subarray(1), y) })],
      [
        'ES256 on P-384 coordinates',
        (p) => p.params('a', { cose: coseEc2(Buffer.concat([x, x.subarray(0, 16)]), Buffer.concat([y, y.subarray(0, 16)]), { crv: 2 }) }),
      ],
      ['ES256 declared on curve secp256k1', (p) => p.params('a', { cose: coseEc2(x, y, { crv: 8 }) })],
      ['a COSE key that is not CBOR', (p) => p.params('a', { cose: Buffer.from('not cbor') })],
      ['an attestation object that is not CBOR', (p) => ({ ...p.params('a'), attestation: { ...p.attest('c'), attestationObject: b64url('garbage') } })],
    ];
    const stored = async () => (await s.store.db.select({ n: count() }).from(authenticators))[0]!.n;
    const subOrgs = async () =>
      (await s.store.db.select({ n: count() }).from(organizations).where(eq(organizations.parentOrganizationId, s.org.organizationId)))[0]!.n;
    const before = { stored: await stored(), subOrgs: await subOrgs() };
    for (const [what, build] of attacks) {
      const add = envelopeText('create_authenticators', a.organizationId, { userId: a.userId, authenticators: [build(new HostilePasskey())] });
      tally.refused(
        'passkeys',
        `create_authenticators: ${what}`,
        await sendRaw(s.url, '/public/v1/submit/create_authenticators', add, { 'x-stamp-webauthn': JSON.stringify(pkA.assert(add)) }),
        400,
        'ERR_INVALID_ATTESTATION',
      );
      const signup = await s.browser.post('signup_v2', { userName: 'mallory', authenticators: [build(new HostilePasskey())] });
      tally.refused('passkeys', `signup_v2: ${what}`, signup, 400, 'ERR_INVALID_ATTESTATION');
    }
    expect({ stored: await stored(), subOrgs: await subOrgs() }).toEqual(before);
  });

  it("given a passkey already registered, when it is registered again for the same user, twice in one request, or by an attacker's signup that attests the victim's credential id, then each is a 409 ERR_ALREADY_EXISTS and the victim's passkey still stamps for the victim alone", async () => {
    const stored = async () => (await s.store.db.select({ n: count() }).from(authenticators))[0]!.n;
    const before = await stored();
    const again = envelopeText('create_authenticators', a.organizationId, { userId: a.userId, authenticators: [pkA.params('again')] });
    tally.refused(
      'passkeys',
      'the same passkey again',
      await sendRaw(s.url, '/public/v1/submit/create_authenticators', again, { 'x-stamp-webauthn': JSON.stringify(pkA.assert(again)) }),
      409,
      'ERR_ALREADY_EXISTS',
    );
    const fresh = new HostilePasskey();
    const twice = envelopeText('create_authenticators', a.organizationId, { userId: a.userId, authenticators: [fresh.params('one'), fresh.params('two')] });
    tally.refused(
      'passkeys',
      'one passkey twice in a request',
      await sendRaw(s.url, '/public/v1/submit/create_authenticators', twice, { 'x-stamp-webauthn': JSON.stringify(pkA.assert(twice)) }),
      409,
      'ERR_ALREADY_EXISTS',
    );
    tally.refused(
      'passkeys',
      'one passkey twice in a signup',
      await s.browser.post('signup_v2', { userName: 'twice', authenticators: [fresh.params('one'), fresh.params('two')] }),
      409,
      'ERR_ALREADY_EXISTS',
    );
    // The attacker attests A's credential id with the attacker's own key: the id is A's identity.
    const squatter = new HostilePasskey(RP_ID, APP, { credentialId: pkA.credentialId });
    tally.refused(
      'passkeys',
      "an attacker's signup with the victim's credential id",
      await s.browser.post('signup_v2', { userName: 'squatter', authenticators: [squatter.params('stolen id')] }),
      409,
      'ERR_ALREADY_EXISTS',
    );
    tally.refused(
      'passkeys',
      "the victim's own passkey in a second signup",
      await s.browser.post('signup_v2', { userName: 'second', authenticators: [pkA.params('second account')] }),
      409,
      'ERR_ALREADY_EXISTS',
    );
    expect(await stored()).toBe(before);
    expect((await s.browser.post('account', { filterType: 'CREDENTIAL_ID', filterValue: pkA.credentialId })).body).toEqual({
      organizationId: a.organizationId,
    });
    const { body, send } = walletSubmit(s, a.organizationId);
    expect((await send(pkA.assert(body))).status).toBe(200);
  });
});

describe.each(storeKinds)('passkey replays and counter races on %s', (kind) => {
  let s: ProxyTestServer;
  beforeAll(async () => {
    s = await startPasskeyServer(kind);
  });
  afterAll(async () => s?.dispose());

  it('given an assertion that already stamped a request, when the same header and body are sent again, then a counting passkey is refused (401, counter) and a counter-less one returns the same activity: one wallet either way', async () => {
    const counting = new HostilePasskey();
    const countingUser = await signupWith(s, counting);
    let w = walletSubmit(s, countingUser.organizationId, 'once');
    let stamp = counting.assert(w.body);
    const first = await w.send(stamp);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    for (let i = 0; i < 3; i += 1) tally.refused('passkeys', 'replayed assertion (counting)', await w.send(stamp), 401, 'ERR_STAMP_INVALID');
    // The honest retry signs again: a new assertion over the same body finds the same activity.
    const retry = await w.send(counting.assert(w.body));
    expect(retry.body.activity.id).toBe(first.body.activity.id);
    tally.duplicates('passkeys', 'wallets after replays (counting)', (await walletsOf(s, countingUser.organizationId)) - 1);

    const synced = new HostilePasskey(RP_ID, APP, { counting: false });
    const syncedUser = await signupWith(s, synced);
    w = walletSubmit(s, syncedUser.organizationId, 'once');
    stamp = synced.assert(w.body);
    const original = await w.send(stamp);
    expect(original.status, JSON.stringify(original.body)).toBe(200);
    const replays = await Promise.all([0, 1, 2].map(() => w.send(stamp)));
    // Same body, same fingerprint: the existing activity, never a second run.
    for (const r of replays) expect({ status: r.status, id: r.body?.activity?.id }).toEqual({ status: 200, id: original.body.activity.id });
    tally.duplicates('passkeys', 'wallets after replays (counter-less)', (await walletsOf(s, syncedUser.organizationId)) - 1);
  });

  it('given two different requests stamped with the same counter value, when they race, then at most one is accepted (the counter advances atomically)', async () => {
    const passkey = new HostilePasskey();
    const user = await signupWith(s, passkey);
    let accepted = 0;
    for (let round = 1; round <= 3; round += 1) {
      const counter = round * 10;
      const submits = [0, 1, 2, 3].map(() => walletSubmit(s, user.organizationId));
      const replies = await Promise.all(submits.map((w) => w.send(passkey.assert(w.body, { counter }))));
      const ok = replies.filter((r) => r.status === 200);
      expect(ok.length, JSON.stringify(replies.map((r) => r.status))).toBe(1);
      accepted += ok.length;
      for (const r of replies.filter((r) => r.status !== 200)) tally.refused('passkeys', 'a raced assertion with a used counter', r, 401, 'ERR_STAMP_INVALID');
      tally.duplicates('passkeys', 'assertions accepted for one counter value', ok.length - 1);
      expect(await counterOf(s, passkey.credentialId, user.organizationId)).toBe(counter);
    }
    expect(await walletsOf(s, user.organizationId)).toBe(accepted);
  });
});

/** The stamp with every member in standard base64 (with '+', '/' and padding), as a careless client would send it. */
function toStandardBase64(st: WebAuthnStamp): string {
  const std = (v: string) => Buffer.from(v, 'base64url').toString('base64');
  const out = {
    authenticatorData: std(st.authenticatorData),
    clientDataJson: std(st.clientDataJson),
    credentialId: std(st.credentialId),
    signature: std(st.signature),
  };
  // Only a spelling that differs from base64url tests anything: force a '+' or '/' into view.
  if (!/[+/]/.test(Object.values(out).join(''))) out.credentialId = `${out.credentialId.slice(0, -1)}+`;
  return JSON.stringify(out);
}

/** ASN.1 DER ECDSA signature -> raw r||s (32 bytes each). */
function derToRaw(der: Buffer): Buffer {
  let offset = 2;
  const read = () => {
    const length = der[offset + 1]!;
    const value = der.subarray(offset + 2, offset + 2 + length);
    offset += 2 + length;
    return Buffer.from(value.subarray(Math.max(value.length - 32, 0)))
      .toString('hex')
      .padStart(64, '0');
  };
  const r = read();
  const s = read();
  return Buffer.from(r + s, 'hex');
}

const P256_N = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

/** The malleable twin of a DER signature: (r, n - s). */
function highS(der: Buffer): Buffer {
  const raw = derToRaw(der);
  const r = BigInt(`0x${raw.subarray(0, 32).toString('hex')}`);
  const s = BigInt(`0x${raw.subarray(32).toString('hex')}`);
  const int = (v: bigint) => {
    let hex = v.toString(16);
    if (hex.length % 2) hex = `0${hex}`;
    let bytes = Buffer.from(hex, 'hex');
    if (bytes[0]! & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
    return Buffer.concat([Buffer.from([0x02, bytes.length]), bytes]);
  };
  const body = Buffer.concat([int(r), int(P256_N - s)]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
}
