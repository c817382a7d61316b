/**
 * App Proofs, verified by the client (issue 12): a unit suite over replies signed with a known
 * enclave key and then tampered (result changed, another key, another activity, organization,
 * type or request, no proof), and the real server: the kit asks for proofs on wallet creation,
 * signing and export and verifies them, and a reply altered on the way is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityFingerprint, generateP256KeyPair, sha256Hex, signAppProof, uncompressPublicKey, type AppProof } from '@walletkit/crypto';
import type { ActivityReply } from '@walletkit/protocol';
import type { ProxyTestServer } from '../../server/test/support/proxy';
import { isWalletKitError, verifyActivityProofs, type WalletKitClient } from '../src/index';
import { freshEmail, kitFor, outboxCode, startServer } from './support/kit';

const enclave = generateP256KeyPair();
/** The enclave's encryption key, carried first in an App Proof's publicKey (Turnkey's layout). */
const encryptionKey = generateP256KeyPair().publicKeyUncompressed;
const enclavePublicKey = uncompressPublicKey('p256', enclave.publicKey);
const organizationId = 'org-1';
const body = JSON.stringify({
  type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS',
  timestampMs: '1700000000000',
  organizationId,
  parameters: { signWith: '0xabc', payloads: ['00'], encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' },
  generateAppProofs: true,
});
const result = { signRawPayloadsResult: { signatures: [{ r: '01', s: '02', v: '00' }] } };

function statement(over: Record<string, unknown> = {}) {
  return {
    scheme: 'APP_PROOF_SCHEME_WALLETKIT_V1',
    activityId: 'act-1',
    organizationId,
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS',
    fingerprint: activityFingerprint(body),
    timestampMs: '1700000000000',
    result,
    ...over,
  };
}

function reply(proofs: AppProof[] | undefined, activityResult: Record<string, unknown> = result): ActivityReply {
  const activity = {
    id: 'act-1',
    organizationId,
    status: 'ACTIVITY_STATUS_COMPLETED',
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS',
    intent: {},
    result: activityResult,
    votes: [],
    fingerprint: activityFingerprint(body),
    canApprove: false,
    canReject: false,
    createdAt: '0',
    updatedAt: '0',
    ...(proofs ? { appProofs: proofs } : {}),
  } as ActivityReply['activity'];
  return { activity } as ActivityReply;
}

const refusal = async (r: ActivityReply) => {
  try {
    await verifyActivityProofs(r, { body, enclavePublicKey });
  } catch (err) {
    return isWalletKitError(err, 'ERR_APP_PROOF_INVALID') ? err.message : `other error: ${String(err)}`;
  }
  return 'accepted';
};

describe('verifyActivityProofs', () => {
  it('given a reply whose proof the pinned enclave key signed over this request and result, when verified, then it is accepted', async () => {
    expect(await refusal(reply([signAppProof(statement(), enclave.privateKey, encryptionKey)]))).toBe('accepted');
  });

  it('given a statement signed before fingerprints carried the sha256: prefix (an idempotent replay of an older activity), when verified, then the bare digest of this body is accepted', async () => {
    expect(await refusal(reply([signAppProof(statement({ fingerprint: sha256Hex(body) }), enclave.privateKey, encryptionKey)]))).toBe('accepted');
    expect(await refusal(reply([signAppProof(statement({ fingerprint: sha256Hex(`${body} `) }), enclave.privateKey, encryptionKey)]))).toMatch(
      /another request/,
    );
  });

  it('given the same result with its keys in another order, when verified, then it is accepted (the comparison is of content, not of text)', async () => {
    const reordered = { signRawPayloadsResult: { signatures: [{ v: '00', s: '02', r: '01' }] } };
    expect(await refusal(reply([signAppProof(statement(), enclave.privateKey, encryptionKey)], reordered))).toBe('accepted');
  });

  it.each([
    [
      'the result changed after signing',
      () => reply([signAppProof(statement(), enclave.privateKey, encryptionKey)], { signRawPayloadsResult: { signatures: [{ r: '09', s: '02', v: '00' }] } }),
      /another result/,
    ],
    ['a proof signed by another key', () => reply([signAppProof(statement(), generateP256KeyPair().privateKey, encryptionKey)]), /pinned enclave key/],
    [
      'a proof of another activity',
      () => reply([signAppProof(statement({ activityId: 'act-2' }), enclave.privateKey, encryptionKey)]),
      /another activity$|another activity\./,
    ],
    [
      'a proof for another organization',
      () => reply([signAppProof(statement({ organizationId: 'org-2' }), enclave.privateKey, encryptionKey)]),
      /another organization/,
    ],
    [
      'a proof of another activity type',
      () => reply([signAppProof(statement({ type: 'ACTIVITY_TYPE_EXPORT_WALLET' }), enclave.privateKey, encryptionKey)]),
      /another activity type/,
    ],
    [
      'a proof of another request (other body, same activity id)',
      () => reply([signAppProof(statement({ fingerprint: activityFingerprint(`${body} `) }), enclave.privateKey, encryptionKey)]),
      /another request/,
    ],
    [
      'a proof with its statement edited after signing',
      () => {
        const proof = signAppProof(statement(), enclave.privateKey, encryptionKey);
        return reply([{ ...proof, proofPayload: proof.proofPayload.replace('"01"', '"09"') }]);
      },
      /pinned enclave key/,
    ],
    [
      'a valid proof followed by a bad one',
      () =>
        reply([signAppProof(statement(), enclave.privateKey, encryptionKey), signAppProof(statement({ activityId: 'x' }), enclave.privateKey, encryptionKey)]),
      /another activity/,
    ],
    ['no proof at all', () => reply(undefined), /no App Proof/],
    ['an empty list of proofs', () => reply([]), /no App Proof/],
  ])('given %s, when verified, then it is ERR_APP_PROOF_INVALID', async (_case, make, why) => {
    expect(await refusal(make())).toMatch(why);
  });
});

describe('App Proofs from the real server', () => {
  let server: ProxyTestServer;
  let kit: WalletKitClient;
  const sent: Array<{ path: string; body: Record<string, unknown> }> = [];
  /** When set, rewrites the reply of the activity at this path before the kit reads it (a tampering network). */
  let tamper: { path: string; edit: (reply: ActivityReply) => void } | undefined;

  beforeAll(async () => {
    server = await startServer();
    kit = kitFor(server, {
      fetch: async (input, init) => {
        const url = String(input);
        const path = new URL(url).pathname;
        if (typeof init?.body === 'string' && path.startsWith('/public/v1/submit/'))
          sent.push({ path, body: JSON.parse(init.body) as Record<string, unknown> });
        const res = await fetch(input, init);
        if (tamper?.path !== path) return res;
        const json = (await res.json()) as ActivityReply;
        tamper.edit(json);
        return new Response(JSON.stringify(json), { status: res.status, headers: { 'content-type': 'application/json' } });
      },
    });
    const email = freshEmail('proofs');
    const { otpId } = await kit.auth.startEmailOtp(email);
    await kit.auth.completeOtp({ otpId, code: await outboxCode(server.url, email) });
  });
  afterAll(async () => {
    kit?.session.close();
    await server?.dispose();
  });

  it('given a signup with a wallet through the proxy, when the reply comes back, then it carries the App Proof of its create_sub_organization and the kit checked it', async () => {
    const fresh = kitFor(server, {
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        if (new URL(String(input)).pathname !== '/v1/signup_v2') return res;
        const json = (await res.json()) as { appProofs?: unknown[]; wallet?: unknown };
        seenSignup = json;
        return new Response(JSON.stringify(json), { status: res.status, headers: { 'content-type': 'application/json' } });
      },
    });
    let seenSignup: { appProofs?: unknown[]; wallet?: unknown } | undefined;
    const email = freshEmail('proof-signup');
    const { otpId } = await fresh.auth.startEmailOtp(email);
    await fresh.auth.completeOtp({ otpId, code: await outboxCode(server.url, email) });
    expect(seenSignup?.wallet).toBeDefined();
    expect(seenSignup?.appProofs).toHaveLength(1);
    fresh.session.close();
  });

  it.each([
    [
      'the wallet address changed',
      (r: { wallet: { addresses: string[] } }) => {
        r.wallet.addresses[0] = '0x0000000000000000000000000000000000000001';
      },
      /another wallet/,
    ],
    ['the proofs stripped', (r: { appProofs?: unknown }) => void delete r.appProofs, /no App Proof/],
  ])(
    'given a network that alters the signup reply (%s), when a new user completes the code, then the signup is refused with ERR_APP_PROOF_INVALID',
    async (_case, edit, why) => {
      const fresh = kitFor(server, {
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          if (new URL(String(input)).pathname !== '/v1/signup_v2') return res;
          const json = (await res.json()) as never;
          edit(json);
          return new Response(JSON.stringify(json), { status: res.status, headers: { 'content-type': 'application/json' } });
        },
      });
      const email = freshEmail('proof-signup-bad');
      const { otpId } = await fresh.auth.startEmailOtp(email);
      const error = await fresh.auth.completeOtp({ otpId, code: await outboxCode(server.url, email) }).catch((e: unknown) => e);
      expect(isWalletKitError(error, 'ERR_APP_PROOF_INVALID')).toBe(true);
      expect((error as Error).message).toMatch(why);
      fresh.session.close();
    },
  );

  it('given a session, when the kit creates a wallet, signs a message and exports the wallet, then each request asked for App Proofs and each reply verified', async () => {
    sent.length = 0;
    const { walletId, addresses } = await kit.wallet.createWallet({ walletName: 'Proven' });
    const signature = await kit.wallet.signMessage({ address: addresses[0]!, message: 'proven', confirm: false });
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
    const mnemonic = await kit.wallet.exportWallet({ walletId });
    expect(mnemonic.split(' ')).toHaveLength(12);
    const asked = Object.fromEntries(sent.map((s) => [s.path.split('/').pop(), s.body['generateAppProofs']]));
    expect(asked).toMatchObject({ create_wallet: true, sign_raw_payloads: true, export_wallet: true });
  });

  it('given a network that changes the signature in the reply, when the kit signs, then it refuses the result with ERR_APP_PROOF_INVALID', async () => {
    const [account] = await kit.wallet.listAccounts();
    tamper = {
      path: '/public/v1/submit/sign_raw_payloads',
      edit: (r) => {
        const signatures = (r.activity.result['signRawPayloadsResult'] as { signatures: Array<{ r: string }> }).signatures;
        signatures[0]!.r = signatures[0]!.r.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      },
    };
    try {
      await expect(kit.wallet.signMessage({ address: account!.address, message: 'tampered', confirm: false })).rejects.toMatchObject({
        code: 'ERR_APP_PROOF_INVALID',
      });
    } finally {
      tamper = undefined;
    }
  });

  it('given a network that strips the App Proofs from an export reply, when the kit exports, then it refuses with ERR_APP_PROOF_INVALID', async () => {
    const [wallet] = await kit.wallet.listWallets();
    tamper = { path: '/public/v1/submit/export_wallet', edit: (r) => void delete (r.activity as { appProofs?: unknown }).appProofs };
    try {
      await expect(kit.wallet.exportWallet({ walletId: wallet!.walletId })).rejects.toMatchObject({ code: 'ERR_APP_PROOF_INVALID' });
    } finally {
      tamper = undefined;
    }
  });
});
