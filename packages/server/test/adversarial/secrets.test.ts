/**
 * Secrets hygiene: one server (PGlite, log level debug, every log line captured) driven
 * through every flow that handles a secret (email and SMS codes, signup and login, wallets
 * created, exported and imported, raw signing, stamp_login, OAuth 2.0), the failed attempts
 * of each, and the server's error paths forced through broken dependencies (a delivery that
 * throws with the message, an HTTP client whose error carries the request, a clock that makes
 * the activity's final write fail). Then every secret learned on the way is searched for in
 * every reply body, every log line and every database row.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { hashMessage, recoverAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  bytesToHex,
  bytesToUtf8,
  decodeJwt,
  generateMnemonic,
  generateP256KeyPair,
  generateSecp256k1KeyPair,
  hexToBytes,
  hpkeOpen,
  hpkeSeal,
  sha256Hex,
  stampApiKey,
  utf8ToBytes,
  validateMnemonic,
  verifyBundle,
  type EcKeyPair,
} from '@walletkit/crypto';
import { operations, type OperationName } from '@walletkit/protocol';
import { updateProxySettings } from '../../src/admin/proxy';
import { createDelivery, type Delivery } from '../../src/delivery';
import { enclaveKeys } from '../../src/store/schema';
import { codeChallengeOf, newCodeVerifier, startOAuth2Provider, type LocalOAuth2Provider } from '../support/oauth2-provider';
import { captureLogs, codeIn, encryptOtpAttempt, loginSignature } from '../support/otp';
import type { StampKey } from '../support/harness';
import { startProxyServer, type ProxyReply, type ProxyTestServer } from '../support/proxy';
import { openSealed, unsealEnclaveKey } from '../support/sealed';
import { ETH_WALLET, freshEmail, freshPhone } from './support/flows';
import { envelopeText, sendRaw, sendStamped } from './support/http';
import { adversarialTally, type SeenReply } from './support/tally';

const tally = adversarialTally('secrets');
const APP = 'https://secrets.example';
const CLIENT_ID = 'secrets-discord-client';
const CLIENT_SECRET = `discord-secret-${randomBytes(12).toString('hex')}`;
const REDIRECT_URI = 'https://secrets.example/oauth/callback';
/** Recipients whose delivery throws an error quoting the whole message (code included). */
const POISONED = /^(poisoned|\+1666)/;
const ETH0 = ETH_WALLET.accounts[0]!;

type SecretKind = 'otp code' | 'mnemonic' | 'private key' | 'token' | 'client secret' | 'master key';

/** A secret the test learned, and where (if anywhere) it may be seen. */
interface Secret {
  kind: SecretKind;
  label: string;
  value: string;
  /** Tokens: the one reply that issued them to their owner. */
  issuedIn?: Seen;
  /**
   * Tokens issued by an activity the owner stamped (stamp_login): the key whose own reads of
   * that activity may show it (how a session approved by consensus reaches its owner).
   */
  owner?: string;
}

/** Whether `reply` may show the token `secret`: the reply that issued it, or its owner's own read. */
const mayShow = (secret: Secret, reply: Seen) => reply === secret.issuedIn || (secret.owner !== undefined && reply.reader === secret.owner);

/** A reply body as text, with what produced it. */
interface Seen {
  what: string;
  text: string;
  /** Reads of the activity API: the public key that stamped them. */
  reader?: string;
}

/** A compact JWS (every token this server issues is an ES256 JWT). */
const JWT = /eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{20,}/g;

/** Whole-token search: an OTP code inside an id, a number or a hex string is no leak. */
function hasToken(haystack: string, token: string): boolean {
  return new RegExp(`(?<![0-9A-Za-z.])${token}(?![0-9A-Za-z.])`).test(haystack);
}

/** The alphanumeric runs of a text, lowercased: the words of any phrase, whatever joins them. */
const wordsOf = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** Every run of 3 consecutive words of a mnemonic, joined by one space. */
function windowsOf(mnemonic: string): string[] {
  const words = wordsOf(mnemonic);
  return words.slice(0, -2).map((_, i) => words.slice(i, i + 3).join(' '));
}

/** The spellings under which bytes leak: hex (any case), base64, base64url. */
function spellingsOf(hex: string): string[] {
  const bytes = Buffer.from(hex, 'hex');
  return [hex.toLowerCase(), bytes.toString('base64').replace(/=+$/, ''), bytes.toString('base64url')];
}

/** Where `secret` occurs in `haystack` (a reason), or undefined. */
function occurrence(secret: Secret, haystack: string, words?: string): string | undefined {
  switch (secret.kind) {
    case 'otp code':
      return hasToken(haystack, secret.value) ? 'the code' : undefined;
    case 'mnemonic': {
      if (haystack.toLowerCase().includes(secret.value.toLowerCase())) return 'the whole phrase';
      const joined = ` ${words ?? wordsOf(haystack).join(' ')} `;
      const run = windowsOf(secret.value).find((w) => joined.includes(` ${w} `));
      return run ? `the words "${run}"` : undefined;
    }
    case 'private key':
    case 'master key': {
      const lower = haystack.toLowerCase();
      return spellingsOf(secret.value).find((s, i) => (i === 0 ? lower.includes(s) : haystack.includes(s))) ? 'the key bytes' : undefined;
    }
    case 'token':
      // The signature alone identifies the token (and a truncated log would keep it).
      return haystack.includes(secret.value) || haystack.includes(secret.value.split('.')[2]!) ? 'the token' : undefined;
    case 'client secret': {
      const basic = Buffer.from(`${CLIENT_ID}:${secret.value}`).toString('base64');
      return [secret.value, encodeURIComponent(secret.value), basic].some((s) => haystack.includes(s)) ? 'the secret' : undefined;
    }
  }
}

/**
 * A clock that can fail once: armed with the name of a function, the next reading taken
 * directly by that function is a date PostgreSQL cannot store, so the write that uses it fails
 * inside the activity's transaction (a database fault at the worst moment: with the result).
 */
class BreakableClock {
  private breakIn: string | undefined;
  readonly now = (): Date => {
    if (this.breakIn) {
      const caller = new Error().stack?.split('\n')[2] ?? '';
      if (caller.includes(this.breakIn)) {
        this.breakIn = undefined;
        return new Date(8.64e15); // +275760-09-13: out of the timestamptz range
      }
    }
    return new Date();
  };
  /** @example clock.arm('ActivityRunner.outcomeOf') // the final update of the next activity fails */
  arm(fn: string): void {
    this.breakIn = fn;
  }
}

describe('secrets hygiene on one server (pglite)', () => {
  let s: ProxyTestServer;
  let logs: string[];
  let discord: LocalOAuth2Provider;
  let credentialId: string;
  let outbox: Delivery | undefined;
  const clock = new BreakableClock();
  /** When set, the provider's token endpoint fails with an HTTP-client error that carries the request. */
  let providerDown = false;
  const seen: Seen[] = [];
  /** The accounts signed up, read back at the end by the integrator and by their owners. */
  const accounts: Array<{ organizationId: string; key: EcKeyPair }> = [];
  const secrets: Secret[] = [];
  /** Messages the poisoned delivery refused (their codes are secrets too). */
  const refusedMessages: string[] = [];

  const keep = <R extends SeenReply>(what: string, reply: R): R => {
    seen.push({ what, text: typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body) });
    return reply;
  };
  const learn = (kind: SecretKind, label: string, value: string, issuedIn?: Seen, owner?: string) =>
    secrets.push({ kind, label, value, ...(issuedIn ? { issuedIn } : {}), ...(owner ? { owner } : {}) });
  /** The reply just kept. */
  const last = () => seen.at(-1)!;

  /** A browser call to the proxy, kept. */
  const browser = async (name: Parameters<ProxyTestServer['browser']['post']>[0], body: object, what: string = name): Promise<ProxyReply> =>
    keep(what, await s.browser.raw('POST', `/v1/${name}`, JSON.stringify(body)));
  /** A stamped submit over HTTP, kept. */
  const submit = async (op: OperationName, organizationId: string, parameters: unknown, key: StampKey, what: string = op) =>
    keep(what, await sendStamped(s.url, operations[op].path, envelopeText(op, organizationId, parameters), key));
  /** A stamped read over HTTP, kept. */
  const query = async (name: string, organizationId: string, request: object, key: StampKey) => {
    const reply = keep(`query ${name}`, await sendStamped(s.url, `/public/v1/query/${name}`, JSON.stringify({ organizationId, ...request }), key));
    last().reader = key.publicKey;
    return reply;
  };
  const resultOf = (reply: SeenReply, op: OperationName) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return (reply.body as any).activity.result[operations[op].resultKey];
  };
  /** A bad input: counted and asserted refused. */
  const refused = (what: string, reply: SeenReply, status: number, code: string | string[]) => tally.refused('secrets', what, reply, status, code);

  /** The code delivered to `contact` (dev outbox), read as the user reads their mailbox. */
  async function codeFor(contact: string): Promise<string> {
    const res = await fetch(`${s.url}/v1/dev/outbox?recipient=${encodeURIComponent(contact)}&limit=1`);
    const { messages } = (await res.json()) as { messages: Array<{ body: string }> };
    return codeIn(messages[0]!.body);
  }

  /** otp_init_v2 for `contact`; the code, learned as a secret, and what verifying needs. */
  async function requestCode(contact: string) {
    const init = await browser('otp_init_v2', { otpType: contact.includes('@') ? 'OTP_TYPE_EMAIL' : 'OTP_TYPE_SMS', contact });
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    const target = verifyBundle<{ targetPublic: string }>(init.body.otpEncryptionTargetBundle, s.enclave.signingPublicKey);
    const code = await codeFor(contact);
    learn('otp code', `code to ${contact}`, code);
    return { otpId: init.body.otpId as string, targetPublic: target.targetPublic, code };
  }

  /** A verification token for `contact` bound to `key`, after one wrong code. */
  async function verifiedToken(contact: string, key: EcKeyPair): Promise<string> {
    const otp = await requestCode(contact);
    const wrong = otp.code === '000000' ? '000001' : '000000';
    refused(
      `wrong code for ${contact}`,
      await browser(
        'otp_verify_v2',
        { otpId: otp.otpId, encryptedOtpBundle: await encryptOtpAttempt(otp.targetPublic, wrong, key.publicKey) },
        'otp_verify_v2 wrong',
      ),
      401,
      'ERR_OTP_INVALID',
    );
    const ok = await browser('otp_verify_v2', { otpId: otp.otpId, encryptedOtpBundle: await encryptOtpAttempt(otp.targetPublic, otp.code, key.publicKey) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    learn('token', `verification token of ${contact}`, ok.body.verificationToken, last());
    return ok.body.verificationToken;
  }

  /** Sign up by code with a wallet: the account, its device key and address. */
  async function signup(contact: string) {
    const key = generateP256KeyPair();
    const token = await verifiedToken(contact, key);
    const reply = await browser('signup_v2', {
      ...(contact.includes('@') ? { userEmail: contact } : { userPhoneNumber: contact }),
      verificationToken: token,
      clientSignature: loginSignature(key.privateKey, token, 'USAGE_TYPE_SIGNUP'),
      apiKeys: [{ apiKeyName: 'device', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }],
      wallet: ETH_WALLET,
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    accounts.push({ organizationId: reply.body.organizationId, key });
    return {
      organizationId: reply.body.organizationId as string,
      userId: reply.body.userId as string,
      key,
      address: reply.body.wallet.addresses[0] as string,
      token,
    };
  }

  /** Log in by code; the session is learned as a token of this reply. */
  async function login(contact: string) {
    const key = generateP256KeyPair();
    const token = await verifiedToken(contact, key);
    const reply = await browser('otp_login_v2', { verificationToken: token, publicKey: key.publicKey, clientSignature: loginSignature(key.privateKey, token) });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    learn('token', `session of ${contact}`, reply.body.session, last());
    return { key, session: reply.body.session as string, token };
  }

  /** Open an export bundle (enclave signature checked) with the target's private key. */
  function openExport(bundle: string, target: EcKeyPair): Promise<Uint8Array> {
    const data = verifyBundle<{ encappedPublic: string; ciphertext: string }>(bundle, s.enclave.signingPublicKey);
    return hpkeOpen({ encappedPublic: data.encappedPublic, ciphertext: data.ciphertext, receiverPrivateKey: target.privateKey });
  }

  /** A hash signed by `signWith`, stamped with `key`; the recovered address. */
  async function signedBy(organizationId: string, key: StampKey, signWith: string): Promise<string> {
    const hash = hashMessage(`secrets ${signWith}`);
    const reply = await submit(
      'sign_raw_payloads',
      organizationId,
      { signWith, payloads: [hash], encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' },
      key,
    );
    const [sig] = resultOf(reply, 'sign_raw_payloads').signatures as Array<{ r: string; s: string; v: string }>;
    return recoverAddress({ hash, signature: { r: `0x${sig!.r}` as Hex, s: `0x${sig!.s}` as Hex, yParity: Number.parseInt(sig!.v, 16) } });
  }

  beforeAll(async () => {
    discord = await startOAuth2Provider({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, shape: 'discord' });
    const endpoints = { tokenUrl: discord.tokenUrl, userInfoUrl: discord.userInfoUrl, issuer: discord.url };
    // The delivery of the dev outbox, except for poisoned recipients: a transport whose error
    // quotes the message, as a chatty SMTP relay or SMS gateway would.
    const delivery: Delivery = {
      kinds: { email: 'outbox', sms: 'outbox' },
      async sendEmail(organizationId, message) {
        if (POISONED.test(message.to)) {
          refusedMessages.push(message.text);
          throw new Error(`550 mailbox unavailable for ${message.to}: ${message.text}`);
        }
        return outbox!.sendEmail(organizationId, message);
      },
      async sendSms(organizationId, message) {
        if (POISONED.test(message.to)) {
          refusedMessages.push(message.text);
          throw Object.assign(new Error(`gateway refused: ${message.text}`), { request: { body: message.text } });
        }
        return outbox!.sendSms(organizationId, message);
      },
    };
    // An HTTP client whose errors carry the request (headers included), as axios' do.
    const fetchWith: typeof fetch = async (input, init) => {
      if (providerDown && String(input).startsWith(discord.tokenUrl)) {
        throw Object.assign(new Error(`connect ECONNRESET ${String(input)} (authorization: ${new Headers(init?.headers).get('authorization')})`), {
          config: { url: String(input), headers: Object.fromEntries(new Headers(init?.headers)), data: init?.body },
        });
      }
      return fetch(input, init);
    };
    s = await startProxyServer('pglite', {
      config: { logLevel: 'debug', oauth2Providers: { OAUTH2_PROVIDER_DISCORD: endpoints, OAUTH2_PROVIDER_X: endpoints } },
      deps: { delivery, now: clock.now, fetch: fetchWith },
      proxy: { origins: [APP] },
      origin: APP,
    });
    outbox = createDelivery(s.config, s.store);
    logs = captureLogs(s.app);
    learn('master key', 'WALLETKIT_MASTER_KEY', s.config.masterKey!);
    learn('private key', "the proxy's API key", await openSealed(s, s.proxy.proxyApiPrivateKeyEncrypted));
    for (const row of await s.store.db.select().from(enclaveKeys))
      learn('private key', `enclave key ${row.name}`, unsealEnclaveKey(s.config.masterKey!, row.name, row.sealed));
    learn('private key', "the organization's root API key", s.org.apiKey.privateKey);
    learn('client secret', 'Discord client secret', CLIENT_SECRET);
    const encryptedClientSecret = JSON.stringify(await hpkeSeal({ plaintext: utf8ToBytes(CLIENT_SECRET), receiverPublicKey: s.enclave.encryptionPublicKey }));
    credentialId = resultOf(
      await submit(
        'create_oauth2_credential',
        s.org.organizationId,
        { provider: 'OAUTH2_PROVIDER_DISCORD', clientId: CLIENT_ID, encryptedClientSecret },
        s.org.apiKey,
      ),
      'create_oauth2_credential',
    ).oauth2CredentialId;
    await updateProxySettings(s.store, s.org.organizationId, {
      social: { discord: { enabled: true, clientIds: [CLIENT_ID], oauth2CredentialId: credentialId } },
    });
  });
  afterAll(async () => {
    await s?.dispose();
    await discord?.close();
  });

  it('given email and SMS codes, signups and logins with their failed attempts, when driven through the proxy, then each session works and every wrong code, bad signature, used or forged token is refused', async () => {
    const email = freshEmail('secrets');
    const phone = freshPhone();
    const alice = await signup(email);
    const bob = await signup(phone);
    expect(await signedBy(alice.organizationId, alice.key, alice.address)).toBe(alice.address);
    const aliceSession = await login(email);
    const bobSession = await login(phone);
    expect(decodeJwt<{ organization_id: string }>(aliceSession.session).organization_id).toBe(alice.organizationId);
    expect(decodeJwt<{ organization_id: string }>(bobSession.session).organization_id).toBe(bob.organizationId);

    // Used tokens, forged ones, signatures by the wrong key or for the wrong use.
    const stranger = generateP256KeyPair();
    refused(
      'used token replayed at login',
      await browser('otp_login_v2', {
        verificationToken: aliceSession.token,
        publicKey: aliceSession.key.publicKey,
        clientSignature: loginSignature(aliceSession.key.privateKey, aliceSession.token),
      }),
      401,
      'ERR_VERIFICATION_TOKEN_INVALID',
    );
    const fresh = await verifiedToken(email, aliceSession.key);
    refused(
      'token signed for by another key',
      await browser('otp_login_v2', { verificationToken: fresh, publicKey: stranger.publicKey, clientSignature: loginSignature(stranger.privateKey, fresh) }),
      401,
      'ERR_CLIENT_SIGNATURE_INVALID',
    );
    refused(
      'login signature used for signup',
      await browser('signup_v2', {
        userEmail: freshEmail('other'),
        verificationToken: fresh,
        clientSignature: loginSignature(aliceSession.key.privateKey, fresh),
        apiKeys: [],
      }),
      401,
      ['ERR_CLIENT_SIGNATURE_INVALID', 'ERR_VERIFICATION_TOKEN_INVALID'],
    );
    const forged = `${fresh.slice(0, -8)}AAAAAAAA`;
    refused(
      'forged token',
      await browser('otp_login_v2', {
        verificationToken: forged,
        publicKey: aliceSession.key.publicKey,
        clientSignature: loginSignature(aliceSession.key.privateKey, forged),
      }),
      401,
      'ERR_VERIFICATION_TOKEN_INVALID',
    );

    // Codes: garbage bundles, a bundle to another target, the code of another OTP id.
    const otp = await requestCode(phone);
    const other = await requestCode(freshPhone());
    // The code in clear where its ciphertext belongs is no attempt; an undecryptable one is a wrong one.
    refused('OTP code in clear', await browser('otp_verify_v2', { otpId: otp.otpId, encryptedOtpBundle: otp.code }), 400, 'ERR_INVALID_ENCRYPTED_BUNDLE');
    refused(
      'garbage OTP bundle',
      await browser('otp_verify_v2', { otpId: otp.otpId, encryptedOtpBundle: '{"encappedPublic":"04","ciphertext":"00"}' }),
      401,
      'ERR_OTP_INVALID',
    );
    refused(
      'OTP bundle sealed to another target',
      await browser('otp_verify_v2', { otpId: otp.otpId, encryptedOtpBundle: await encryptOtpAttempt(other.targetPublic, otp.code, stranger.publicKey) }),
      401,
      'ERR_OTP_INVALID',
    );
    refused(
      "another contact's code",
      await browser('otp_verify_v2', { otpId: otp.otpId, encryptedOtpBundle: await encryptOtpAttempt(otp.targetPublic, other.code, stranger.publicKey) }),
      401,
      'ERR_OTP_INVALID',
    );
    refused(
      'a fourth try',
      await browser('otp_verify_v2', { otpId: otp.otpId, encryptedOtpBundle: await encryptOtpAttempt(otp.targetPublic, otp.code, stranger.publicKey) }),
      429,
      'ERR_OTP_ATTEMPTS_EXCEEDED',
    );
  });

  it('given wallets created, exported and imported, keys created and imported, signatures and stamp_login, when driven with their bad bundles and bad stamps, then the exported secrets control the addresses and every bad input is refused', async () => {
    const user = await signup(freshEmail('wallets'));
    const org = user.organizationId;
    const key = user.key;

    // The signup wallet and a created one: the mnemonic and the account key, by export.
    const wallets = [{ walletId: undefined as string | undefined, address: user.address }];
    const created = resultOf(await submit('create_wallet', org, { walletName: 'second', accounts: [ETH0], mnemonicLength: 24 }, key), 'create_wallet');
    wallets.push({ walletId: created.walletId, address: created.addresses[0] });
    const listed = (await query('list_wallets', org, {}, key)).body.wallets as Array<{ walletId: string; walletName: string }>;
    wallets[0]!.walletId = listed.find((w) => w.walletName === ETH_WALLET.walletName)!.walletId;
    for (const w of wallets) {
      const target = generateP256KeyPair();
      const mnemonic = bytesToUtf8(
        await openExport(
          resultOf(await submit('export_wallet', org, { walletId: w.walletId, targetPublicKey: target.publicKeyUncompressed }, key), 'export_wallet')
            .exportBundle,
          target,
        ),
      );
      learn('mnemonic', `mnemonic of ${w.address}`, mnemonic);
      const accountTarget = generateP256KeyPair();
      const exported = resultOf(
        await submit('export_wallet_account', org, { address: w.address, targetPublicKey: accountTarget.publicKeyUncompressed }, key),
        'export_wallet_account',
      );
      const accountKey = bytesToHex(await openExport(exported.exportBundle, accountTarget));
      expect(privateKeyToAccount(`0x${accountKey}`).address).toBe(w.address);
      learn('private key', `account key of ${w.address}`, accountKey);
      refused(
        'export target reused',
        await submit('export_wallet', org, { walletId: w.walletId, targetPublicKey: target.publicKeyUncompressed }, key),
        409,
        'ERR_TARGET_KEY_REUSED',
      );
      expect(await signedBy(org, key, w.address)).toBe(w.address);
    }
    refused(
      'export to an off-curve target',
      await submit('export_wallet', org, { walletId: created.walletId, targetPublicKey: `04${'11'.repeat(64)}` }, key),
      400,
      'ERR_INVALID_PUBLIC_KEY',
    );

    // A private key created, exported, signing.
    const pk = resultOf(
      await submit(
        'create_private_keys',
        org,
        { privateKeys: [{ privateKeyName: 'pk', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] }] },
        key,
      ),
      'create_private_keys',
    );
    const pkId: string = pk.privateKeys[0].privateKeyId;
    const pkAddress: string = pk.privateKeys[0].addresses[0].address;
    const pkTarget = generateP256KeyPair();
    const pkHex = bytesToHex(
      await openExport(
        resultOf(await submit('export_private_key', org, { privateKeyId: pkId, targetPublicKey: pkTarget.publicKeyUncompressed }, key), 'export_private_key')
          .exportBundle,
        pkTarget,
      ),
    );
    expect(privateKeyToAccount(`0x${pkHex}`).address).toBe(pkAddress);
    learn('private key', 'created private key', pkHex);
    expect(await signedBy(org, key, pkAddress)).toBe(pkAddress);

    // Imports of secrets we know, and the bundles a confused or hostile client sends.
    const importTarget = async (op: 'init_import_wallet' | 'init_import_private_key') =>
      verifyBundle<{ targetPublic: string }>(resultOf(await submit(op, org, { userId: user.userId }, key), op).importBundle, s.enclave.signingPublicKey)
        .targetPublic;
    const sealTo = async (target: string, plaintext: Uint8Array) => JSON.stringify(await hpkeSeal({ plaintext, receiverPublicKey: target }));
    const mnemonic = generateMnemonic(24);
    learn('mnemonic', 'imported mnemonic', mnemonic);
    const imported = resultOf(
      await submit(
        'import_wallet',
        org,
        {
          userId: user.userId,
          walletName: 'imported',
          encryptedBundle: await sealTo(await importTarget('init_import_wallet'), utf8ToBytes(mnemonic)),
          accounts: [ETH0],
        },
        key,
      ),
      'import_wallet',
    );
    expect(await signedBy(org, key, imported.addresses[0])).toBe(imported.addresses[0]);
    // A typo in the last word (checksum fails): the other words are still the user's secret. A
    // last word is also a valid checksum for 1 in 16 choices: take the first that is not.
    const words = generateMnemonic(12).split(' ');
    const typo = ['zoo', 'zone', 'zero', 'youth', 'young']
      .map((last) => [...words.slice(0, -1), last].join(' '))
      .find((candidate) => !validateMnemonic(candidate));
    if (!typo) throw new Error('no typo of the last word fails the checksum');
    learn('mnemonic', 'mnemonic with a typo', typo);
    const plainMnemonic = generateMnemonic(12);
    learn('mnemonic', 'mnemonic sent in clear', plainMnemonic);
    const walletTarget = await importTarget('init_import_wallet');
    const badWallets: Array<[string, string, number, string]> = [
      ['import sealed to another key', await sealTo(generateP256KeyPair().publicKeyUncompressed, utf8ToBytes(mnemonic)), 400, 'ERR_INVALID_ENCRYPTED_BUNDLE'],
      ['import of a mnemonic with a bad checksum', await sealTo(walletTarget, utf8ToBytes(typo)), 400, 'ERR_INVALID_PARAMETER'],
      ['import of a mnemonic in clear', plainMnemonic, 400, 'ERR_INVALID_ENCRYPTED_BUNDLE'],
      [
        'import of a mnemonic in clear as JSON',
        JSON.stringify({ encappedPublic: plainMnemonic, ciphertext: plainMnemonic }),
        400,
        'ERR_INVALID_ENCRYPTED_BUNDLE',
      ],
    ];
    for (const [what, encryptedBundle, status, code] of badWallets) {
      refused(
        what,
        await submit(
          'import_wallet',
          org,
          { userId: user.userId, walletName: `bad-${randomBytes(3).toString('hex')}`, encryptedBundle, accounts: [ETH0] },
          key,
          what,
        ),
        status,
        code,
      );
    }

    const secp = generateSecp256k1KeyPair();
    learn('private key', 'imported private key', secp.privateKey);
    const keyTarget = await importTarget('init_import_private_key');
    const importedKey = resultOf(
      await submit(
        'import_private_key',
        org,
        {
          userId: user.userId,
          privateKeyName: 'imported',
          encryptedBundle: await sealTo(keyTarget, hexToBytes(secp.privateKey)),
          curve: 'CURVE_SECP256K1',
          addressFormats: ['ADDRESS_FORMAT_ETHEREUM'],
        },
        key,
      ),
      'import_private_key',
    );
    const importedAddress: string = importedKey.addresses[0].address;
    expect(importedAddress).toBe(privateKeyToAccount(`0x${secp.privateKey}`).address);
    expect(await signedBy(org, key, importedAddress)).toBe(importedAddress);
    const short = generateSecp256k1KeyPair().privateKey;
    learn('private key', 'private key sent in clear', short);
    const nextKeyTarget = await importTarget('init_import_private_key');
    const badKeys: Array<[string, string, number, string]> = [
      ['key import of 31 bytes', await sealTo(nextKeyTarget, hexToBytes(short).slice(1)), 400, 'ERR_INVALID_PARAMETER'],
      ['key import sealed to another key', await sealTo(generateP256KeyPair().publicKeyUncompressed, hexToBytes(short)), 400, 'ERR_INVALID_ENCRYPTED_BUNDLE'],
      ['key import in clear', short, 400, 'ERR_INVALID_ENCRYPTED_BUNDLE'],
    ];
    for (const [what, encryptedBundle, status, code] of badKeys) {
      refused(
        what,
        await submit(
          'import_private_key',
          org,
          {
            userId: user.userId,
            privateKeyName: `bad-${randomBytes(3).toString('hex')}`,
            encryptedBundle,
            curve: 'CURVE_SECP256K1',
            addressFormats: ['ADDRESS_FORMAT_ETHEREUM'],
          },
          key,
          what,
        ),
        status,
        code,
      );
    }

    // stamp_login: a session for a new key; then stamps that must not pass.
    const sessionKey = generateP256KeyPair();
    const stamped = await submit('stamp_login', org, { publicKey: sessionKey.publicKey }, key);
    learn('token', 'stamp_login session', resultOf(stamped, 'stamp_login').session, last(), key.publicKey);
    expect(await signedBy(org, sessionKey, user.address)).toBe(user.address);
    refused('stamp_login with an off-curve key', await submit('stamp_login', org, { publicKey: `02${'ff'.repeat(32)}` }, key), 400, 'ERR_INVALID_PUBLIC_KEY');
    const body = envelopeText('sign_raw_payloads', org, {
      signWith: user.address,
      payloads: [hashMessage('x')],
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    });
    const path = operations.sign_raw_payloads.path;
    refused(
      'body changed after stamping',
      keep('tampered', await sendRaw(s.url, path, body.replace('"x', '"y').replace(hashMessage('x'), hashMessage('y')), { 'x-stamp': stampApiKey(body, key) })),
      401,
      'ERR_STAMP_INVALID',
    );
    refused('stamp by a stranger', keep('stranger', await sendStamped(s.url, path, body, generateP256KeyPair())), 401, 'ERR_STAMP_KEY_UNKNOWN');
    refused('malformed stamp', keep('malformed', await sendRaw(s.url, path, body, { 'x-stamp': 'not-a-stamp' })), 401, 'ERR_STAMP_MALFORMED');
    refused(
      'stamp carrying a private key',
      keep(
        'stamp with private key',
        await sendRaw(s.url, path, body, {
          'x-stamp': Buffer.from(
            JSON.stringify({ publicKey: key.publicKey, privateKey: key.privateKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: '00' }),
          ).toString('base64url'),
        }),
      ),
      401,
      ['ERR_STAMP_MALFORMED', 'ERR_STAMP_INVALID'],
    );
    learn('private key', 'device key sent in a stamp', key.privateKey);
  });

  it('given Discord sign-in through the proxy with a stored client secret, when the exchange succeeds, is replayed, or the provider refuses the secret, then the session works, the bad attempts are refused, and the secret stays in the enclave', async () => {
    const grant = (id: string) => {
      const codeVerifier = newCodeVerifier();
      const authCode = discord.authorize({ user: { id, username: `u${id}` }, redirectUri: REDIRECT_URI, codeChallenge: codeChallengeOf(codeVerifier) });
      return { provider: 'OAUTH2_PROVIDER_DISCORD' as const, authCode, codeVerifier, redirectUri: REDIRECT_URI, clientId: CLIENT_ID };
    };
    const key = generateP256KeyPair();
    const g = grant('7001');
    const auth = await browser('oauth2_authenticate', { ...g, nonce: sha256Hex(key.publicKey) });
    expect(auth.status, JSON.stringify(auth.body)).toBe(200);
    learn('token', 'Discord id token', auth.body.oidcToken, last());
    refused('authorization code replayed', await browser('oauth2_authenticate', { ...g, nonce: sha256Hex(key.publicKey) }), 400, 'ERR_INVALID_PARAMETER');
    const signup = await browser('signup_v2', { userName: 'discord-user', oauthProviders: [{ providerName: 'discord', oidcToken: auth.body.oidcToken }] });
    expect(signup.status, JSON.stringify(signup.body)).toBe(200);
    const session = await browser('oauth_login', { oidcToken: auth.body.oidcToken, publicKey: key.publicKey });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    learn('token', 'Discord session', session.body.session, last());
    refused(
      'oauth_login for another key than the nonce',
      await browser('oauth_login', { oidcToken: auth.body.oidcToken, publicKey: generateP256KeyPair().publicKey }),
      401,
      'ERR_OIDC_TOKEN_INVALID',
    );
    refused(
      'forged id token',
      await browser('oauth_login', { oidcToken: `${auth.body.oidcToken.slice(0, -8)}AAAAAAAA`, publicKey: key.publicKey }),
      401,
      'ERR_OIDC_TOKEN_INVALID',
    );
    // The client secret in clear where its ciphertext belongs: refused, and not kept anywhere.
    refused(
      'client secret in clear',
      await submit(
        'create_oauth2_credential',
        s.org.organizationId,
        { provider: 'OAUTH2_PROVIDER_X', clientId: CLIENT_ID, encryptedClientSecret: CLIENT_SECRET },
        s.org.apiKey,
        'client secret in clear',
      ),
      400,
      'ERR_INVALID_ENCRYPTED_BUNDLE',
    );
    // The provider refuses the secret: the server's 502 must carry no credential.
    const wrong = JSON.stringify(await hpkeSeal({ plaintext: utf8ToBytes(`wrong-${CLIENT_SECRET}`), receiverPublicKey: s.enclave.encryptionPublicKey }));
    const wrongId = resultOf(
      await submit(
        'create_oauth2_credential',
        s.org.organizationId,
        { provider: 'OAUTH2_PROVIDER_DISCORD', clientId: CLIENT_ID, encryptedClientSecret: wrong },
        s.org.apiKey,
      ),
      'create_oauth2_credential',
    ).oauth2CredentialId;
    learn('client secret', 'refused client secret', `wrong-${CLIENT_SECRET}`);
    const { provider: _p, clientId: _c, ...params } = grant('7002');
    const refusedExchange = await submit('oauth2_authenticate', s.org.organizationId, { oauth2CredentialId: wrongId, ...params, nonce: 'n' }, s.org.apiKey);
    expect(refusedExchange.status).toBe(502);
  });

  it('given broken dependencies (a delivery that throws with the message, an HTTP client whose error carries the request, a clock that fails the final write), when the flows hit them, then the replies are stable 5xx codes and the flows work again once repaired', async () => {
    // Delivery: email and SMS transports that throw with the whole message, code included.
    const email = await browser('otp_init_v2', { otpType: 'OTP_TYPE_EMAIL', contact: freshEmail('poisoned') });
    const sms = await browser('otp_init_v2', { otpType: 'OTP_TYPE_SMS', contact: `+1666${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}` });
    for (const reply of [email, sms])
      expect({ status: reply.status, body: reply.body }).toMatchObject({ status: 502, body: { details: [{ errorCode: 'ERR_DELIVERY_FAILED' }] } });
    expect(refusedMessages).toHaveLength(2);
    for (const text of refusedMessages) learn('otp code', 'code of a refused delivery', codeIn(text));

    // The OAuth provider unreachable through an HTTP client that puts the request in its error.
    providerDown = true;
    try {
      const codeVerifier = newCodeVerifier();
      const authCode = discord.authorize({ user: { id: '7003', username: 'down' }, redirectUri: REDIRECT_URI, codeChallenge: codeChallengeOf(codeVerifier) });
      const down = await browser('oauth2_authenticate', {
        provider: 'OAUTH2_PROVIDER_DISCORD',
        authCode,
        codeVerifier,
        redirectUri: REDIRECT_URI,
        clientId: CLIENT_ID,
        nonce: 'n',
      });
      expect({ status: down.status, code: down.body?.details?.[0]?.errorCode }).toEqual({ status: 502, code: 'ERR_OAUTH_EXCHANGE_FAILED' });
    } finally {
      providerDown = false;
    }

    // The database refuses the activity's final write (its result: a token or a session).
    const contact = freshEmail('clock');
    const user = await signup(contact);
    const key = generateP256KeyPair();
    const otp = await requestCode(contact);
    clock.arm('ActivityRunner.outcomeOf');
    const failedVerify = await browser(
      'otp_verify_v2',
      { otpId: otp.otpId, encryptedOtpBundle: await encryptOtpAttempt(otp.targetPublic, otp.code, key.publicKey) },
      'otp_verify_v2 failing write',
    );
    expect({ status: failedVerify.status, code: failedVerify.body?.details?.[0]?.errorCode }).toEqual({ status: 500, code: 'ERR_INTERNAL' });
    // The failed write took nothing with it: the same code still verifies.
    const verified = await browser('otp_verify_v2', {
      otpId: otp.otpId,
      encryptedOtpBundle: await encryptOtpAttempt(otp.targetPublic, otp.code, key.publicKey),
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const token: string = verified.body.verificationToken;
    learn('token', `verification token of ${contact}`, token, last());
    clock.arm('ActivityRunner.outcomeOf');
    const failedLogin = await browser(
      'otp_login_v2',
      { verificationToken: token, publicKey: key.publicKey, clientSignature: loginSignature(key.privateKey, token) },
      'otp_login_v2 failing write',
    );
    expect({ status: failedLogin.status, code: failedLogin.body?.details?.[0]?.errorCode }).toEqual({ status: 500, code: 'ERR_INTERNAL' });
    const loggedIn = await browser('otp_login_v2', {
      verificationToken: token,
      publicKey: key.publicKey,
      clientSignature: loginSignature(key.privateKey, token),
    });
    expect(loggedIn.status, JSON.stringify(loggedIn.body)).toBe(200);
    learn('token', `session of ${contact}`, loggedIn.body.session, last());
    clock.arm('ActivityRunner.outcomeOf');
    const failedStamp = await submit('stamp_login', user.organizationId, { publicKey: generateP256KeyPair().publicKey }, user.key, 'stamp_login failing write');
    expect(failedStamp.status).toBe(500);
    const target = generateP256KeyPair();
    const wallets = (await query('list_wallets', user.organizationId, {}, user.key)).body.wallets as Array<{ walletId: string }>;
    clock.arm('ActivityRunner.outcomeOf');
    expect(
      (
        await submit(
          'export_wallet',
          user.organizationId,
          { walletId: wallets[0]!.walletId, targetPublicKey: target.publicKeyUncompressed },
          user.key,
          'export_wallet failing write',
        )
      ).status,
    ).toBe(500);
    const exported = await submit(
      'export_wallet',
      user.organizationId,
      { walletId: wallets[0]!.walletId, targetPublicKey: generateP256KeyPair().publicKeyUncompressed },
      user.key,
    );
    expect(exported.status, 'a failed export does not spend its target key: a fresh one works').toBe(200);
  });

  it('given the activity logs read by the integrator and by the users, when every secret learned is searched for, then no reply, log line or database row holds one outside the reply that issued it to its owner', async () => {
    // What an integrator's dashboard and a user's wallet read back.
    for (const type of [undefined, ['ACTIVITY_TYPE_VERIFY_OTP', 'ACTIVITY_TYPE_OTP_LOGIN', 'ACTIVITY_TYPE_OAUTH_LOGIN', 'ACTIVITY_TYPE_OAUTH2_AUTHENTICATE']]) {
      const list = await query(
        'list_activities',
        s.org.organizationId,
        { paginationOptions: { limit: '100' }, ...(type ? { filterByType: type } : {}) },
        s.org.apiKey,
      );
      expect(list.status, JSON.stringify(list.body)).toBe(200);
    }
    expect(accounts.length).toBeGreaterThan(3);
    for (const account of accounts) {
      for (const key of [s.org.apiKey, account.key]) {
        expect((await query('list_activities', account.organizationId, { paginationOptions: { limit: '100' } }, key)).status).toBe(200);
        await query('list_users', account.organizationId, {}, key);
      }
    }
    await query('list_oauth2_credentials', s.org.organizationId, {}, s.org.apiKey);
    await query('get_auth_proxy_config', s.org.organizationId, {}, s.org.apiKey);
    await query('get_organization_configs', s.org.organizationId, {}, s.org.apiKey);

    expect(logs.length).toBeGreaterThan(50);
    expect(secrets.filter((x) => x.kind === 'otp code').length).toBeGreaterThan(8);
    const found: string[] = [];
    const logWords = logs.map((l) => wordsOf(l).join(' '));
    const replyWords = seen.map((r) => wordsOf(r.text).join(' '));
    for (const secret of secrets) {
      for (const [i, line] of logs.entries()) {
        const how = occurrence(secret, line, logWords[i]);
        if (how) found.push(`log line ${i} holds ${how} (${secret.kind}: ${secret.label}): ${line.slice(0, 400)}`);
      }
      for (const [i, reply] of seen.entries()) {
        if (mayShow(secret, reply)) continue;
        const how = occurrence(secret, reply.text, replyWords[i]);
        if (how) found.push(`reply "${reply.what}" holds ${how} (${secret.kind}: ${secret.label}): ${reply.text.slice(0, 400)}`);
      }
    }

    // Every row of every table; the dev outbox is the stand-in mailbox (dev mode only), so codes in it are its purpose.
    const tables = (
      (await s.store.db.execute(
        sql.raw(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`),
      )) as unknown as { rows: Array<{ table_name: string }> }
    ).rows.map((r) => r.table_name);
    expect(tables).toEqual(expect.arrayContaining(['activities', 'otps', 'wallets', 'private_keys', 'proxy_configs', 'oauth2_credentials', 'enclave_keys']));
    for (const table of tables) {
      const rows = ((await s.store.db.execute(sql.raw(`SELECT row_to_json(t)::text AS row FROM "${table}" t`))) as unknown as { rows: Array<{ row: string }> })
        .rows;
      for (const { row } of rows) {
        const words = wordsOf(row).join(' ');
        for (const secret of secrets) {
          if (secret.kind === 'token' || (secret.kind === 'otp code' && table === 'otp_outbox')) continue;
          const how = occurrence(secret, row, words);
          if (how) found.push(`table ${table} holds ${how} (${secret.kind}: ${secret.label}): ${row.slice(0, 300)}`);
        }
      }
    }
    // Tokens nobody was given (a failed activity's result) are found by their shape: no log
    // line holds a JWT, and a reply holds only the ones it issued.
    for (const [i, line] of logs.entries()) {
      for (const jwt of line.match(JWT) ?? []) found.push(`log line ${i} holds a JWT ${jwt.slice(0, 40)}...: ${line.slice(0, 300)}`);
    }
    for (const reply of seen) {
      for (const jwt of reply.text.match(JWT) ?? []) {
        if (!secrets.some((x) => x.kind === 'token' && x.value === jwt && mayShow(x, reply)))
          found.push(`reply "${reply.what}" holds a JWT it did not issue: ${jwt.slice(0, 40)}...`);
      }
    }
    tally.violations('secrets', 'secrets found outside their place', found);
  });
});
