/**
 * Turnkey's published server SDK against this server, unchanged: `Turnkey` from
 * @turnkey/sdk-server (`apiClient()`, API key stamps) over real HTTP, with @turnkey/crypto for
 * the export and import bundles (pinned to this server's enclave signing key, published at
 * /.well-known/walletkit.json, through `dangerouslyOverrideSignerPublicKey`). Every outcome is
 * checked independently: signatures recover with viem or @noble, exported mnemonics and keys
 * re-derive the addresses with viem, imported phrases give the addresses viem derives.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import { TurnkeyClient } from '@turnkey/http';
import {
  computeActivityFingerprint,
  decryptExportBundle,
  encryptPrivateKeyToBundle,
  encryptWalletToBundle,
  generateP256KeyPair,
  verifyAppProofSignature,
} from '@turnkey/crypto';
import { ApiKeyStamper, Turnkey, TurnkeyRequestError, type TurnkeyApiClient } from '@turnkey/sdk-server';
import { type Hex, isAddress, keccak256, recoverAddress, serializeSignature, toHex } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateP256KeyPair as walletkitKeyPair, verifyAppProof } from '@walletkit/crypto';
import { DEV_ACCOUNTS } from '../support/chain';
import { startProxyServer, type ProxyTestServer } from '../support/proxy';

const ETH = (index = 0) =>
  ({ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: `m/44'/60'/0'/0/${index}`, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }) as const;
const SOL = { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' } as const;
/** The public test phrase of Hardhat and Anvil; its first account is DEV_ACCOUNTS[0]. */
const HARDHAT_MNEMONIC = 'test test test test test test test test test test test junk';

interface Key {
  publicKey: string;
  privateKey: string;
}

/** A server-side SDK client for `organizationId`, stamping with `key`, as Turnkey's docs build it. */
function sdkClient(server: ProxyTestServer, key: Key, organizationId: string): TurnkeyApiClient {
  return new Turnkey({ apiBaseUrl: server.url, apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey, defaultOrganizationId: organizationId }).apiClient();
}

/** The error an SDK call rejects with: HTTP error bodies become TurnkeyRequestError ({code, message, details}). */
async function sdkError(call: Promise<unknown>): Promise<{ code: number; errorCode: string | undefined }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TurnkeyRequestError);
  const { code, details } = error as TurnkeyRequestError;
  return { code: code as number, errorCode: (details?.[0] as { errorCode?: string } | undefined)?.errorCode };
}

/** An EVM signature `{r, s, v}` as the activity returns it -> the 65-byte hex signature viem recovers. */
function evmSignature(sig: { r: string; s: string; v: string }): Hex {
  return serializeSignature({ r: `0x${sig.r}`, s: `0x${sig.s}`, yParity: Number.parseInt(sig.v, 16) % 2 });
}

describe('@turnkey/sdk-server against this server (pglite, real HTTP)', () => {
  let server: ProxyTestServer;
  let api: TurnkeyApiClient;
  let organizationId: string;
  /** The enclave signing key clients pin (GET /.well-known/walletkit.json). */
  let enclaveKey: string;
  let rootUserId: string;

  beforeAll(async () => {
    server = await startProxyServer('pglite');
    organizationId = server.org.organizationId;
    api = sdkClient(server, server.org.apiKey, organizationId);
    const discovery = (await (await fetch(`${server.url}/.well-known/walletkit.json`)).json()) as { enclaveSigningPublicKey: string };
    enclaveKey = discovery.enclaveSigningPublicKey;
    rootUserId = (await api.getWhoami({})).userId;
  }, 120_000);
  afterAll(async () => {
    await server?.dispose();
  });

  describe('wallets', () => {
    let walletId: string;
    let ethAddress: string;
    let solAddress: string;

    beforeAll(async () => {
      const created = await api.createWallet({ walletName: 'SDK wallet', accounts: [ETH(0), SOL] });
      walletId = created.walletId;
      [ethAddress, solAddress] = created.addresses as [string, string];
    });

    it('given Ethereum and Solana accounts, when createWallet is called through the SDK, then it returns the wallet id and one address of each format', () => {
      expect(walletId).toMatch(/^[0-9a-f-]{36}$/);
      expect(isAddress(ethAddress, { strict: true })).toBe(true);
      expect(base58.decode(solAddress)).toHaveLength(32);
    });

    it('given the created wallet, when getWallets is called, then it lists the wallet with its name', async () => {
      const { wallets } = await api.getWallets({});
      expect(wallets).toContainEqual(expect.objectContaining({ walletId, walletName: 'SDK wallet', exported: false, imported: false }));
    });

    it('given the created wallet, when getWalletAccounts is called, then both accounts come back with their curve, path and address format', async () => {
      const { accounts } = await api.getWalletAccounts({ walletId });
      expect(accounts.map((a) => [a.address, a.curve, a.path, a.addressFormat, a.walletId, a.organizationId])).toEqual([
        [ethAddress, 'CURVE_SECP256K1', ETH(0).path, 'ADDRESS_FORMAT_ETHEREUM', walletId, organizationId],
        [solAddress, 'CURVE_ED25519', SOL.path, 'ADDRESS_FORMAT_SOLANA', walletId, organizationId],
      ]);
    });

    it('given the wallet, when createWalletAccounts adds the next Ethereum index, then getWalletAccounts lists three accounts, the new one last', async () => {
      const { addresses } = await api.createWalletAccounts({ walletId, accounts: [ETH(1)] });
      expect(addresses).toHaveLength(1);
      expect(isAddress(addresses[0]!, { strict: true })).toBe(true);
      expect(addresses[0]).not.toBe(ethAddress);
      const { accounts } = await api.getWalletAccounts({ walletId, includeWalletDetails: true });
      expect(accounts.map((a) => a.address)).toEqual([ethAddress, solAddress, addresses[0]]);
      expect(accounts[2]?.walletDetails).toMatchObject({ walletId, walletName: 'SDK wallet' });
    });

    it('given an account address or its path, when getWalletAccount is called, then it returns that one account', async () => {
      const byAddress = await api.getWalletAccount({ walletId, address: solAddress });
      expect(byAddress.account).toMatchObject({
        walletId,
        address: solAddress,
        curve: 'CURVE_ED25519',
        path: SOL.path,
        addressFormat: 'ADDRESS_FORMAT_SOLANA',
      });
      const byPath = await api.getWalletAccount({ walletId, path: ETH(0).path });
      expect(byPath.account).toMatchObject({ walletId, address: ethAddress, path: ETH(0).path, walletAccountId: expect.any(String) });
    });

    it('given an address the wallet does not hold, when getWalletAccount is called, then the SDK rejects with a 404-class error and a stable code', async () => {
      expect(await sdkError(api.getWalletAccount({ walletId, address: DEV_ACCOUNTS[2].address }))).toEqual({
        code: 5,
        errorCode: 'ERR_WALLET_ACCOUNT_NOT_FOUND',
      });
    });

    describe('signing', () => {
      it('given a keccak256 raw payload, when signRawPayload signs with the Ethereum address, then the signature recovers to that address', async () => {
        const payload = toHex('hello from @turnkey/sdk-server');
        const sig = await api.signRawPayload({
          signWith: ethAddress,
          payload,
          encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
          hashFunction: 'HASH_FUNCTION_KECCAK256',
        });
        expect(await recoverAddress({ hash: keccak256(payload), signature: evmSignature(sig) })).toBe(ethAddress);
      });

      it('given two payloads, when signRawPayloads signs them, then each signature recovers to the address over its own payload', async () => {
        const payloads = [toHex('first'), toHex('second')];
        const { signatures } = await api.signRawPayloads({
          signWith: ethAddress,
          payloads,
          encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
          hashFunction: 'HASH_FUNCTION_KECCAK256',
        });
        expect(signatures).toHaveLength(2);
        for (const [i, payload] of payloads.entries()) {
          expect(await recoverAddress({ hash: keccak256(payload), signature: evmSignature(signatures![i]!) })).toBe(ethAddress);
        }
      });

      it('given a Solana address, when signRawPayload signs a message (HASH_FUNCTION_NOT_APPLICABLE), then the ed25519 signature verifies under the address', async () => {
        const message = new TextEncoder().encode('solana message');
        const sig = await api.signRawPayload({
          signWith: solAddress,
          payload: Buffer.from(message).toString('hex'),
          encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
          hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
        });
        expect(ed25519.verify(Buffer.from(sig.r + sig.s, 'hex'), message, base58.decode(solAddress))).toBe(true);
      });
    });

    describe('export', () => {
      it('given a target key, when exportWallet is called and decryptExportBundle opens the bundle, then the mnemonic derives the wallet address', async () => {
        const target = generateP256KeyPair();
        const { exportBundle } = await api.exportWallet({ walletId, targetPublicKey: target.publicKeyUncompressed });
        const mnemonic = await decryptExportBundle({
          exportBundle,
          embeddedKey: target.privateKey,
          organizationId,
          returnMnemonic: true,
          dangerouslyOverrideSignerPublicKey: enclaveKey,
        });
        expect(mnemonic.split(' ')).toHaveLength(12);
        expect(mnemonicToAccount(mnemonic).address).toBe(ethAddress);
        expect(mnemonicToAccount(mnemonic, { addressIndex: 1 }).address).toBe((await api.getWalletAccount({ walletId, path: ETH(1).path })).account.address);
        expect((await api.getWallets({})).wallets.find((w) => w.walletId === walletId)?.exported).toBe(true);
      });

      it('given an Ethereum account, when exportWalletAccount is called and the bundle decrypted, then the private key is the account key', async () => {
        const target = generateP256KeyPair();
        const { exportBundle, address } = await api.exportWalletAccount({ address: ethAddress, targetPublicKey: target.publicKeyUncompressed });
        expect(address).toBe(ethAddress);
        const key = await decryptExportBundle({
          exportBundle,
          embeddedKey: target.privateKey,
          organizationId,
          returnMnemonic: false,
          dangerouslyOverrideSignerPublicKey: enclaveKey,
        });
        expect(privateKeyToAccount(`0x${key}`).address).toBe(ethAddress);
      });

      it('given a Solana account, when exportWalletAccount is decrypted with keyFormat SOLANA, then the base58 keypair holds the account public key', async () => {
        const target = generateP256KeyPair();
        const { exportBundle } = await api.exportWalletAccount({ address: solAddress, targetPublicKey: target.publicKeyUncompressed });
        const keypair = base58.decode(
          await decryptExportBundle({
            exportBundle,
            embeddedKey: target.privateKey,
            organizationId,
            returnMnemonic: false,
            keyFormat: 'SOLANA',
            dangerouslyOverrideSignerPublicKey: enclaveKey,
          }),
        );
        expect(keypair).toHaveLength(64);
        expect(base58.encode(ed25519.getPublicKey(keypair.slice(0, 32)))).toBe(solAddress);
        expect(base58.encode(keypair.slice(32))).toBe(solAddress);
      });

      it('given an export bundle, when decryptExportBundle is pinned to another signer key, then it refuses the bundle', async () => {
        const target = generateP256KeyPair();
        const { exportBundle } = await api.exportWallet({ walletId, targetPublicKey: target.publicKeyUncompressed });
        const other = walletkitKeyPair().publicKey;
        await expect(
          decryptExportBundle({
            exportBundle,
            embeddedKey: target.privateKey,
            organizationId,
            returnMnemonic: true,
            dangerouslyOverrideSignerPublicKey: other,
          }),
        ).rejects.toThrow(/does not match signer key/);
      });
    });
  });

  describe('import', () => {
    it("given Hardhat's test phrase, when initImportWallet -> encryptWalletToBundle -> importWallet run, then the imported wallet's address is the phrase's first account", async () => {
      const { importBundle } = await api.initImportWallet({ userId: rootUserId });
      const encryptedBundle = await encryptWalletToBundle({
        mnemonic: HARDHAT_MNEMONIC,
        importBundle,
        userId: rootUserId,
        organizationId,
        dangerouslyOverrideSignerPublicKey: enclaveKey,
      });
      const imported = await api.importWallet({ userId: rootUserId, walletName: 'Hardhat', encryptedBundle, accounts: [ETH(0), ETH(1)] });
      expect(imported.addresses).toEqual([DEV_ACCOUNTS[0].address, DEV_ACCOUNTS[1].address]);
      expect((await api.getWallets({})).wallets.find((w) => w.walletId === imported.walletId)).toMatchObject({ walletName: 'Hardhat', imported: true });
      const sig = await api.signRawPayload({
        signWith: DEV_ACCOUNTS[0].address,
        payload: toHex('imported'),
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_KECCAK256',
      });
      expect(await recoverAddress({ hash: keccak256(toHex('imported')), signature: evmSignature(sig) })).toBe(DEV_ACCOUNTS[0].address);
    });

    it('given a known private key, when initImportPrivateKey -> encryptPrivateKeyToBundle -> importPrivateKey run, then getPrivateKey shows its Ethereum address', async () => {
      const { importBundle } = await api.initImportPrivateKey({ userId: rootUserId });
      const encryptedBundle = await encryptPrivateKeyToBundle({
        privateKey: DEV_ACCOUNTS[2].privateKey.slice(2),
        keyFormat: 'HEXADECIMAL',
        importBundle,
        userId: rootUserId,
        organizationId,
        dangerouslyOverrideSignerPublicKey: enclaveKey,
      });
      const { privateKeyId, addresses } = await api.importPrivateKey({
        userId: rootUserId,
        privateKeyName: 'Hardhat #2',
        encryptedBundle,
        curve: 'CURVE_SECP256K1',
        addressFormats: ['ADDRESS_FORMAT_ETHEREUM'],
      });
      expect(addresses).toEqual([{ format: 'ADDRESS_FORMAT_ETHEREUM', address: DEV_ACCOUNTS[2].address }]);
      expect((await api.getPrivateKey({ privateKeyId })).privateKey).toMatchObject({ privateKeyId, privateKeyName: 'Hardhat #2', imported: true });
    });
  });

  describe('sub-organizations', () => {
    const email = 'sdk-user@example.com';
    const userKey = walletkitKeyPair();
    let subOrganizationId: string;
    let subUserId: string;
    let subAddress: string;

    beforeAll(async () => {
      const created = await api.createSubOrganization({
        subOrganizationName: 'SDK end user',
        rootUsers: [
          {
            userName: 'sdk-user',
            userEmail: email,
            apiKeys: [{ apiKeyName: 'device', publicKey: userKey.publicKey, curveType: 'API_KEY_CURVE_P256' }],
            authenticators: [],
            oauthProviders: [],
          },
        ],
        rootQuorumThreshold: 1,
        wallet: { walletName: 'Default', accounts: [ETH(0)] },
      });
      subOrganizationId = created.subOrganizationId;
      subUserId = created.rootUserIds![0]!;
      subAddress = created.wallet!.addresses[0]!;
    });

    it('given a root user with an API key and a wallet, when createSubOrganization is called, then it returns the sub-organization, its root user and the wallet address', () => {
      expect(subOrganizationId).toMatch(/^[0-9a-f-]{36}$/);
      expect(subOrganizationId).not.toBe(organizationId);
      expect(subUserId).toMatch(/^[0-9a-f-]{36}$/);
      expect(isAddress(subAddress, { strict: true })).toBe(true);
    });

    it('given the sub-organization, when getSubOrgIds filters by email, public key or user name, then each finds it and an unknown email finds none', async () => {
      expect((await api.getSubOrgIds({ filterType: 'EMAIL', filterValue: email })).organizationIds).toEqual([subOrganizationId]);
      expect((await api.getSubOrgIds({ filterType: 'PUBLIC_KEY', filterValue: userKey.publicKey })).organizationIds).toEqual([subOrganizationId]);
      expect((await api.getSubOrgIds({ filterType: 'USERNAME', filterValue: 'sdk-user' })).organizationIds).toEqual([subOrganizationId]);
      expect((await api.getSubOrgIds({ filterType: 'NAME', filterValue: 'SDK end user' })).organizationIds).toEqual([subOrganizationId]);
      expect((await api.getSubOrgIds({ filterType: 'WALLET_ACCOUNT_ADDRESS', filterValue: subAddress })).organizationIds).toEqual([subOrganizationId]);
      expect((await api.getSubOrgIds({ filterType: 'EMAIL', filterValue: 'nobody@example.com' })).organizationIds).toEqual([]);
    });

    it('given no filter, when getSubOrgIds pages through the sub-organizations one at a time, then each is listed once, oldest first', async () => {
      const second = await api.createSubOrganization({
        subOrganizationName: 'SDK second user',
        rootUsers: [{ userName: 'second', apiKeys: [], authenticators: [], oauthProviders: [] }],
        rootQuorumThreshold: 1,
      });
      expect((await api.getSubOrgIds({})).organizationIds).toEqual([subOrganizationId, second.subOrganizationId]);
      expect((await api.getSubOrgIds({ paginationOptions: { limit: '1' } })).organizationIds).toEqual([subOrganizationId]);
      expect((await api.getSubOrgIds({ paginationOptions: { limit: '1', after: subOrganizationId } })).organizationIds).toEqual([second.subOrganizationId]);
      expect((await api.getSubOrgIds({ paginationOptions: { limit: '1', after: second.subOrganizationId } })).organizationIds).toEqual([]);
      expect((await api.getSubOrgIds({ paginationOptions: { limit: '1', before: second.subOrganizationId } })).organizationIds).toEqual([subOrganizationId]);
    });

    it("given the sub-organization user's API key, when the SDK acts in the sub-organization, then whoami is that user and it signs with the sub-organization's wallet", async () => {
      const user = sdkClient(server, userKey, subOrganizationId);
      expect(await user.getWhoami({})).toMatchObject({ organizationId: subOrganizationId, userId: subUserId, username: 'sdk-user' });
      expect((await user.getWallets({})).wallets).toHaveLength(1);
      const payload = toHex('end user');
      const sig = await user.signRawPayload({
        signWith: subAddress,
        payload,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_KECCAK256',
      });
      expect(await recoverAddress({ hash: keccak256(payload), signature: evmSignature(sig) })).toBe(subAddress);
    });

    it("given the sub-organization user's key, when it reads the parent organization, then the stamp is refused", async () => {
      const user = sdkClient(server, userKey, organizationId);
      expect(await sdkError(user.getWallets({}))).toEqual({ code: 16, errorCode: 'ERR_STAMP_KEY_UNKNOWN' });
    });
  });

  describe('policies', () => {
    it('given a policy, when createPolicy, getPolicies, updatePolicy and deletePolicy run, then each step is visible in the next read', async () => {
      const { policyId } = await api.createPolicy({
        policyName: 'SDK policy',
        effect: 'EFFECT_ALLOW',
        condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
        notes: 'made by the SDK',
      });
      expect((await api.getPolicies({})).policies).toContainEqual(
        expect.objectContaining({ policyId, policyName: 'SDK policy', effect: 'EFFECT_ALLOW', notes: 'made by the SDK' }),
      );
      await api.updatePolicy({
        policyId,
        policyName: 'SDK policy v2',
        policyEffect: 'EFFECT_DENY',
        policyCondition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
      });
      expect((await api.getPolicy({ policyId })).policy).toMatchObject({
        policyId,
        policyName: 'SDK policy v2',
        effect: 'EFFECT_DENY',
        notes: 'made by the SDK',
      });
      expect(await api.deletePolicy({ policyId })).toMatchObject({ policyId });
      expect((await api.getPolicies({})).policies.map((p) => p.policyId)).not.toContain(policyId);
      expect(await sdkError(api.getPolicy({ policyId }))).toEqual({ code: 5, errorCode: 'ERR_POLICY_NOT_FOUND' });
    });

    it('given an unknown policy id, when deletePolicy is called, then the SDK rejects with ERR_POLICY_NOT_FOUND', async () => {
      expect(await sdkError(api.deletePolicy({ policyId: '00000000-0000-7000-8000-000000000000' }))).toEqual({ code: 5, errorCode: 'ERR_POLICY_NOT_FOUND' });
    });

    it('given a non-root user, when policies allow then deny its signing, then its signRawPayload fails, succeeds, fails and succeeds again as they are created and deleted', async () => {
      const { addresses } = await api.createWallet({ walletName: 'Policy wallet', accounts: [ETH(0)] });
      const signWith = addresses[0]!;
      const key = walletkitKeyPair();
      const {
        userIds: [userId],
      } = await api.createUsers({
        users: [
          {
            userName: 'sdk-signer',
            apiKeys: [{ apiKeyName: 'signer', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }],
            authenticators: [],
            oauthProviders: [],
            userTags: [],
          },
        ],
      });
      const signer = sdkClient(server, key, organizationId);
      const sign = () =>
        signer.signRawPayload({ signWith, payload: toHex('policy'), encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_KECCAK256' });

      expect(await sdkError(sign())).toEqual({ code: 7, errorCode: 'ERR_PERMISSION_DENIED' });
      const allow = await api.createPolicy({
        policyName: 'signer may sign',
        effect: 'EFFECT_ALLOW',
        notes: '',
        consensus: `approvers.any(user, user.id == '${userId}')`,
        condition: "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
      });
      expect(await recoverAddress({ hash: keccak256(toHex('policy')), signature: evmSignature(await sign()) })).toBe(signWith);
      const deny = await api.createPolicy({
        policyName: 'signer may not sign after all',
        effect: 'EFFECT_DENY',
        notes: '',
        consensus: `approvers.any(user, user.id == '${userId}')`,
        condition: "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
      });
      expect(await sdkError(sign())).toEqual({ code: 7, errorCode: 'ERR_PERMISSION_DENIED' });
      await api.deletePolicy({ policyId: deny.policyId });
      expect((await sign()).r).toMatch(/^[0-9a-f]{64}$/);
      await api.deletePolicy({ policyId: allow.policyId });
      expect(await sdkError(sign())).toEqual({ code: 7, errorCode: 'ERR_PERMISSION_DENIED' });
    });
  });

  describe('App Proofs', () => {
    it("given generateAppProofs: true (Turnkey's v1CreateWalletRequest through @turnkey/http), when the wallet is created, then appProofs are v1AppProof records signed by the pinned enclave key about this activity", async () => {
      const http = new TurnkeyClient(
        { baseUrl: server.url },
        new ApiKeyStamper({ apiPublicKey: server.org.apiKey.publicKey, apiPrivateKey: server.org.apiKey.privateKey }),
      );
      const request = {
        type: 'ACTIVITY_TYPE_CREATE_WALLET' as const,
        timestampMs: String(Date.now()),
        organizationId,
        parameters: { walletName: 'Proven', accounts: [ETH(0)] },
        generateAppProofs: true,
      };
      const { activity } = await http.createWallet(request);
      expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
      const proofs = activity.appProofs ?? [];
      expect(proofs.length).toBeGreaterThan(0);
      for (const proof of proofs) {
        // Turnkey's v1AppProof shape, field for field.
        expect(Object.keys(proof).sort()).toEqual(['proofPayload', 'publicKey', 'scheme', 'signature']);
        expect(proof.scheme).toBe('SIGNATURE_SCHEME_EPHEMERAL_KEY_P256');
        // @turnkey/crypto's own check (no boot proof needed for it): Turnkey's key layout (130 bytes:
        // the enclave's encryption key || its signing key) and a raw r||s signature over SHA-256 of the payload.
        expect(() => verifyAppProofSignature(proof)).not.toThrow();
        expect(proof.publicKey.slice(130)).toBe(enclaveKey);
        // Verified as @walletkit/client does (app-proofs.ts): pinned key, then the statement.
        expect(verifyAppProof(proof, enclaveKey)).toBe(true);
        expect(JSON.parse(proof.proofPayload)).toEqual({
          scheme: 'APP_PROOF_SCHEME_WALLETKIT_V1',
          activityId: activity.id,
          organizationId,
          type: 'ACTIVITY_TYPE_CREATE_WALLET',
          fingerprint: computeActivityFingerprint(JSON.stringify(request)),
          timestampMs: request.timestampMs,
          result: activity.result,
        });
      }
    });
  });
});
