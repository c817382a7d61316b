/**
 * sign_raw_payloads through the HTTP layer: secp256k1 signatures recover (viem) to the
 * signer's Ethereum address for every encoding and hash function, ed25519 signatures verify
 * against the Solana address's key (noble), private keys sign by id and by address, and bad
 * requests are 4xx with stable codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashMessage, hashTypedData, keccak256, recoverAddress, sha256, toBytes, toHex, type Hex } from 'viem';
import { hashAuthorization } from 'viem/utils';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import { eq } from 'drizzle-orm';
import { privateKeyToAddress } from 'viem/accounts';
import { createOrganization } from '../src/admin/organizations';
import { walletAccounts } from '../src/store/schema';
import { openSealedBytes } from './support/sealed';
import { startTestServer, type ActivityClient, type TestServer } from './support/harness';
import { storeKinds } from './support/stores';
import { ETHER_MAIL_TYPED_DATA } from '../../crypto/test/fixtures';

type Signature = { r: string; s: string; v: string };

const ETH = { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' } as const;
const SOLANA = { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' } as const;

const TYPED_DATA = ETHER_MAIL_TYPED_DATA;

const AUTHORIZATION = { chainId: 1, address: '0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B', nonce: 7 } as const;

/** The Ethereum address a secp256k1 `{r, s, v}` over `hash` recovers to. */
function recover(hash: Hex, signature: Signature): Promise<string> {
  return recoverAddress({ hash, signature: { r: `0x${signature.r}`, s: `0x${signature.s}`, yParity: Number.parseInt(signature.v, 16) } });
}

function verifyEd25519(signature: Signature, message: Uint8Array, solanaAddress: string): boolean {
  return ed25519.verify(toBytes(`0x${signature.r}${signature.s}`), message, base58.decode(solanaAddress));
}

describe.each(storeKinds)('sign_raw_payloads: %s', (kind) => {
  let server: TestServer;
  let client: ActivityClient;
  let other: ActivityClient;
  let ethAddress: string;
  let solAddress: string;
  let secpKey: { privateKeyId: string; address: string };
  let edKey: { privateKeyId: string; address: string };

  const sign = async (signWith: string, payloads: string[], encoding: string, hashFunction: string) =>
    (await client.run('sign_raw_payloads', { signWith, payloads, encoding, hashFunction } as never)).signatures as Signature[];

  beforeAll(async () => {
    server = await startTestServer(kind);
    client = server.client;
    const org = await createOrganization(server.store, { name: 'Other Org' });
    other = client.with({ key: org.apiKey, organizationId: org.organizationId });
    [ethAddress, solAddress] = (await client.run('create_wallet', { walletName: 'Signer', accounts: [ETH, SOLANA] })).addresses as [string, string];
    const { privateKeys } = await client.run('create_private_keys', {
      privateKeys: [
        { privateKeyName: 'secp', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] },
        { privateKeyName: 'ed', curve: 'CURVE_ED25519', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_SOLANA'] },
      ],
    });
    secpKey = { privateKeyId: privateKeys[0]!.privateKeyId, address: privateKeys[0]!.addresses[0]!.address };
    edKey = { privateKeyId: privateKeys[1]!.privateKeyId, address: privateKeys[1]!.addresses[0]!.address };
  });
  afterAll(() => server?.dispose());

  it('given accounts stored before keys were sealed per account (migration 0007), when they sign, then the signature is right, the sealed key is stored on the way, and it is the key the mnemonic derives', async () => {
    const [address] = (await client.run('create_wallet', { walletName: `legacy ${Date.now()}`, accounts: [ETH, SOLANA] })).addresses as [string, string];
    const sealedOf = async () => (await server.store.db.select().from(walletAccounts).where(eq(walletAccounts.address, address)))[0]!.privateKeyEncrypted;
    // New accounts carry their sealed key; an account from before the migration has none.
    expect(await sealedOf()).toEqual({ nonce: expect.stringMatching(/^[0-9a-f]{24}$/), ciphertext: expect.any(String) });
    await server.store.db.update(walletAccounts).set({ privateKeyEncrypted: null }).where(eq(walletAccounts.address, address));
    const hash = keccak256(toHex('legacy account'));
    for (let round = 0; round < 2; round += 1) {
      const [signature] = await sign(address, [hash], 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NO_OP');
      expect(await recover(hash, signature!)).toBe(address);
    }
    const sealed = await sealedOf();
    expect(sealed).not.toBeNull();
    expect(privateKeyToAddress(`0x${Buffer.from(await openSealedBytes(server, sealed!)).toString('hex')}`)).toBe(address);
  });

  it('given hex payloads with KECCAK256, when signed by a wallet account, then each signature recovers to its address', async () => {
    const payloads = [toHex('hello'), toHex('world'), '0x'];
    const signatures = await sign(ethAddress, payloads, 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_KECCAK256');
    expect(signatures).toHaveLength(3);
    for (const [i, payload] of payloads.entries()) {
      expect(await recover(keccak256(payload as Hex), signatures[i]!)).toBe(ethAddress);
      expect(signatures[i]!.v).toMatch(/^0[01]$/);
      expect(signatures[i]!.r).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('given an EIP-191 digest with NO_OP, when signed, then it recovers to the address like personal_sign', async () => {
    const [signature] = await sign(ethAddress, [hashMessage('Sign in to walletkit')], 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NO_OP');
    expect(await recover(hashMessage('Sign in to walletkit'), signature!)).toBe(ethAddress);
  });

  it('given hex with SHA256, when signed, then it recovers over sha256 of the bytes', async () => {
    const [signature] = await sign(ethAddress, ['deadbeef'], 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_SHA256');
    expect(await recover(sha256('0xdeadbeef'), signature!)).toBe(ethAddress);
  });

  it('given UTF-8 text with KECCAK256 or SHA256, when signed, then it recovers over the hash of the text', async () => {
    const text = 'héllo wörld';
    const [k] = await sign(ethAddress, [text], 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_KECCAK256');
    expect(await recover(keccak256(toBytes(text)), k!)).toBe(ethAddress);
    const [s] = await sign(ethAddress, [text], 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_SHA256');
    expect(await recover(sha256(toBytes(text)), s!)).toBe(ethAddress);
  });

  it('given EIP-712 typed data, when signed with NOT_APPLICABLE or KECCAK256, then it recovers over hashTypedData', async () => {
    const digest = hashTypedData(TYPED_DATA);
    for (const hashFunction of ['HASH_FUNCTION_NOT_APPLICABLE', 'HASH_FUNCTION_KECCAK256']) {
      const [signature] = await sign(ethAddress, [JSON.stringify(TYPED_DATA)], 'PAYLOAD_ENCODING_EIP712', hashFunction);
      expect(await recover(digest, signature!)).toBe(ethAddress);
    }
  });

  it('given an EIP-7702 authorization, when signed, then it recovers over the authorization hash', async () => {
    const [signature] = await sign(ethAddress, [JSON.stringify(AUTHORIZATION)], 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION', 'HASH_FUNCTION_NOT_APPLICABLE');
    expect(await recover(hashAuthorization(AUTHORIZATION), signature!)).toBe(ethAddress);
  });

  it('given accounts at unusual paths, when each signs, then signing derivation agrees with address derivation', async () => {
    const { walletId } = await client.run('create_wallet', { walletName: 'Paths', accounts: [] });
    const paths = ['m', 'm/0', 'm/1/2/3/4/5', "m/2147483647'/2147483647", "m/44'/60'/7'/1/19"];
    const accounts = [...paths.map((path) => ({ ...ETH, path })), { ...SOLANA, path: "m/44'/501'/3'/7'" }, { ...SOLANA, path: 'm' }];
    const { addresses } = await client.run('create_wallet_accounts', { walletId, accounts });
    const payload = toHex('paths');
    for (const [i, address] of addresses.entries()) {
      const solana = accounts[i]!.curve === 'CURVE_ED25519';
      const [signature] = await sign(address, [payload], 'PAYLOAD_ENCODING_HEXADECIMAL', solana ? 'HASH_FUNCTION_NOT_APPLICABLE' : 'HASH_FUNCTION_KECCAK256');
      if (solana) expect(verifyEd25519(signature!, toBytes(payload), address)).toBe(true);
      else expect(await recover(keccak256(payload), signature!)).toBe(address);
    }
  });

  it('given a lowercase Ethereum address, when used as signWith, then the account still signs', async () => {
    const [signature] = await sign(ethAddress.toLowerCase(), [toHex('case')], 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_KECCAK256');
    expect(await recover(keccak256(toHex('case')), signature!)).toBe(ethAddress);
  });

  it('given a Solana account, when text and hex are signed, then ed25519 verifies against the address key', async () => {
    const [text] = await sign(solAddress, ['gm solana'], 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_NOT_APPLICABLE');
    expect(verifyEd25519(text!, new TextEncoder().encode('gm solana'), solAddress)).toBe(true);
    expect(text!.v).toBe('00');
    const [hex] = await sign(solAddress, ['0102ff'], 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NO_OP');
    expect(verifyEd25519(hex!, Uint8Array.of(1, 2, 255), solAddress)).toBe(true);
    expect(verifyEd25519(hex!, Uint8Array.of(1, 2, 254), solAddress)).toBe(false);
  });

  it('given a secp256k1 private key, when it signs by id and by address, then both recover to its address', async () => {
    const payload = toHex('private key');
    for (const signWith of [secpKey.privateKeyId, secpKey.address]) {
      const [signature] = await sign(signWith, [payload], 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_KECCAK256');
      expect(await recover(keccak256(payload), signature!)).toBe(secpKey.address);
    }
  });

  it('given an ed25519 private key, when it signs by id and by address, then both verify', async () => {
    for (const signWith of [edKey.privateKeyId, edKey.address]) {
      const [signature] = await sign(signWith, ['abcd'], 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NOT_APPLICABLE');
      expect(verifyEd25519(signature!, Uint8Array.of(0xab, 0xcd), edKey.address)).toBe(true);
    }
  });

  it.each([
    ['secp256k1 hex with NOT_APPLICABLE', 'eth', ['0xabcd'], 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NOT_APPLICABLE'],
    ['secp256k1 NO_OP on a payload that is not 32 bytes', 'eth', ['0xabcd'], 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NO_OP'],
    ['a payload that is not hex', 'eth', ['0xnothex'], 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_KECCAK256'],
    ['EIP-712 that is not JSON', 'eth', ['{not json'], 'PAYLOAD_ENCODING_EIP712', 'HASH_FUNCTION_NOT_APPLICABLE'],
    ['EIP-712 with malformed types', 'eth', ['{"types":{"A":5},"primaryType":"A","message":{}}'], 'PAYLOAD_ENCODING_EIP712', 'HASH_FUNCTION_NOT_APPLICABLE'],
    ['EIP-712 with SHA256', 'eth', [JSON.stringify(TYPED_DATA)], 'PAYLOAD_ENCODING_EIP712', 'HASH_FUNCTION_SHA256'],
    [
      'EIP-7702 with a bad address',
      'eth',
      ['{"chainId":1,"address":"0x12","nonce":0}'],
      'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION',
      'HASH_FUNCTION_NOT_APPLICABLE',
    ],
    ['ed25519 with KECCAK256', 'sol', ['00'], 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_KECCAK256'],
    ['ed25519 with EIP-712', 'sol', [JSON.stringify(TYPED_DATA)], 'PAYLOAD_ENCODING_EIP712', 'HASH_FUNCTION_NOT_APPLICABLE'],
  ])('given %s, when signing, then it is a 400 ERR_INVALID_PAYLOAD', async (_name, who, payloads, encoding, hashFunction) => {
    const signWith = who === 'eth' ? ethAddress : solAddress;
    const reply = await client.submit('sign_raw_payloads', { signWith, payloads, encoding, hashFunction } as never);
    expect(reply.status).toBe(400);
    expect(reply.body.details[0]).toMatchObject({ errorCode: 'ERR_INVALID_PAYLOAD', field: 'payloads.0' });
  });

  it('given an unknown signWith, when signing, then it is a 404', async () => {
    const reply = await client.submit('sign_raw_payloads', {
      signWith: '0x0000000000000000000000000000000000000001',
      payloads: ['00'],
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_KECCAK256',
    });
    expect(reply.status).toBe(404);
    expect(reply.body.details[0].errorCode).toBe('ERR_WALLET_ACCOUNT_NOT_FOUND');
  });

  it("given another organization's addresses and key ids, when it signs with them, then each is a 404", async () => {
    for (const signWith of [ethAddress, solAddress, secpKey.privateKeyId, secpKey.address, edKey.address]) {
      const reply = await other.submit('sign_raw_payloads', {
        signWith,
        payloads: ['00'],
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_KECCAK256',
      });
      expect(reply.status).toBe(404);
      expect(reply.body.details[0]).toMatchObject({ errorCode: 'ERR_WALLET_ACCOUNT_NOT_FOUND', field: 'signWith' });
    }
  });
});
