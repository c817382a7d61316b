/**
 * The client side of the benchmark, on node:crypto: P-256 key pairs, X-Stamp headers, client
 * signatures, HPKE seals to an OTP target and bundle checks. @walletkit/crypto does the same on
 * noble (portable, browser-safe) at about 1-3 ms per operation, which would make the load
 * generator, on the same two cores as the server, the bottleneck; these take tens of
 * microseconds. `selfCheck()` proves each one against @walletkit/crypto before any figure is
 * taken, so the server sees exactly what a real client sends.
 */
import { createCipheriv, createECDH, createHash, createHmac, createPrivateKey, createPublicKey, ECDH, sign, verify, type KeyObject } from 'node:crypto';
import {
  createClientSignature,
  decodeJwt,
  hpkeOpen,
  parseApiKeyStamp,
  signBundle,
  stampApiKey,
  verifyApiKeyStamp,
  verifyClientSignature,
  type ClientSignature,
} from '@walletkit/crypto';

/** A P-256 key pair as the wire carries it: compressed public key and raw private key, hex. */
export interface BenchKey {
  publicKey: string;
  privateKey: string;
  /** node:crypto handle of the private key (signing without re-importing). */
  object: KeyObject;
}

const SPKI_P256_PREFIX = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex');

/**
 * A fresh P-256 key pair. Made with ECDH, not generateKeyPairSync + export('jwk'): on Node 20 a
 * garbage collection during that export can run the finished key-generation job's destructor,
 * which waits for the lock the export holds, and the process hangs for good (seen in a bench run).
 */
export function newKey(): BenchKey {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return keyOf(ecdh.getPrivateKey('hex').padStart(64, '0'), ecdh.getPublicKey('hex', 'compressed'));
}

/** The key pair of a raw private key (hex), e.g. `org create`'s root API key. */
export function keyOf(privateKeyHex: string, publicKeyHex: string): BenchKey {
  const d = Buffer.from(privateKeyHex, 'hex');
  const uncompressed = ECDH.convertKey(Buffer.from(publicKeyHex, 'hex'), 'prime256v1', undefined, undefined, 'uncompressed') as Buffer;
  const object = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: d.toString('base64url'),
      x: uncompressed.subarray(1, 33).toString('base64url'),
      y: uncompressed.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  return { publicKey: publicKeyHex.toLowerCase(), privateKey: privateKeyHex.toLowerCase(), object };
}

/** The X-Stamp header of `body` (scheme SIGNATURE_SCHEME_TK_API_P256: DER ECDSA-SHA256 over the exact bytes). */
export function stamp(body: string, key: BenchKey): string {
  const signature = sign('sha256', Buffer.from(body), { key: key.object, dsaEncoding: 'der' }).toString('hex');
  return Buffer.from(JSON.stringify({ publicKey: key.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature })).toString('base64url');
}

/** The client signature of a login or signup: raw r||s over SHA-256 of `{"type","tokenId"}`. */
export function tokenSignature(key: BenchKey, verificationToken: string, usage: 'USAGE_TYPE_LOGIN' | 'USAGE_TYPE_SIGNUP'): ClientSignature {
  const { id } = decodeJwt<{ id: string }>(verificationToken);
  const message = JSON.stringify({ type: usage, tokenId: id });
  const signature = sign('sha256', Buffer.from(message), { key: key.object, dsaEncoding: 'ieee-p1363' }).toString('hex');
  return { publicKey: key.publicKey, scheme: 'CLIENT_SIGNATURE_SCHEME_API_P256', message, signature };
}

const publicKeys = new Map<string, KeyObject>();

/** A P-256 public key (compressed or uncompressed hex) as a node:crypto key, cached. */
function publicKeyObject(hex: string): KeyObject {
  let key = publicKeys.get(hex);
  if (!key) {
    const uncompressed =
      hex.length === 66 ? (ECDH.convertKey(Buffer.from(hex, 'hex'), 'prime256v1', undefined, undefined, 'uncompressed') as Buffer) : Buffer.from(hex, 'hex');
    key = createPublicKey({ key: Buffer.concat([SPKI_P256_PREFIX, uncompressed]), format: 'der', type: 'spki' });
    publicKeys.set(hex, key);
  }
  return key;
}

/** DER ECDSA-P256-SHA256 verification with node:crypto, as the server's activity/p256-node.ts does. */
export function verifyP256(publicKeyHex: string, message: Uint8Array, derSignatureHex: string): boolean {
  try {
    return verify('sha256', message, { key: publicKeyObject(publicKeyHex.toLowerCase()), dsaEncoding: 'der' }, Buffer.from(derSignatureHex, 'hex'));
  } catch {
    return false;
  }
}

/** The data of an enclave-signed bundle after checking its signature against the pinned key. */
export function openBundle<T>(bundle: string, pinnedPublicKey: string): T {
  const parsed = JSON.parse(bundle) as { data: string; dataSignature: string; enclaveQuorumPublic: string };
  const data = Buffer.from(parsed.data, 'hex');
  if (!verifyP256(pinnedPublicKey, data, parsed.dataSignature)) throw new Error('bundle signature does not verify against the pinned enclave key');
  return JSON.parse(data.toString('utf8')) as T;
}

// HPKE (RFC 9180) base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM, info
// "turnkey_hpke", AAD = enc || receiver public key (both uncompressed): the wire's profile.
const KEM_SUITE = Buffer.from('KEM\x00\x10', 'latin1');
const HPKE_SUITE = Buffer.from('HPKE\x00\x10\x00\x01\x00\x02', 'latin1');
const V1 = Buffer.from('HPKE-v1');
const INFO = Buffer.from('turnkey_hpke');

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();
const labeledExtract = (suite: Buffer, salt: Buffer, label: string, ikm: Buffer) => hmac(salt, Buffer.concat([V1, suite, Buffer.from(label), ikm]));
function labeledExpand(suite: Buffer, prk: Buffer, label: string, info: Buffer, length: number): Buffer {
  const labeled = Buffer.concat([Buffer.from([length >> 8, length & 0xff]), V1, suite, Buffer.from(label), info]);
  return hmac(prk, Buffer.concat([labeled, Buffer.from([1])])).subarray(0, length); // one block: length <= 32
}

/** HPKE seal of `plaintext` to a P-256 public key (hex), in the wire's `{encappedPublic, ciphertext}` form. */
export function hpkeSealFast(plaintext: string, receiverPublicKey: string): { encappedPublic: string; ciphertext: string } {
  const receiver =
    receiverPublicKey.length === 66
      ? (ECDH.convertKey(Buffer.from(receiverPublicKey, 'hex'), 'prime256v1', undefined, undefined, 'uncompressed') as Buffer)
      : Buffer.from(receiverPublicKey, 'hex');
  const ephemeral = createECDH('prime256v1');
  const enc = ephemeral.generateKeys();
  const dh = ephemeral.computeSecret(receiver);
  const kemContext = Buffer.concat([enc, receiver]);
  const eaePrk = labeledExtract(KEM_SUITE, Buffer.alloc(0), 'eae_prk', dh);
  const sharedSecret = labeledExpand(KEM_SUITE, eaePrk, 'shared_secret', kemContext, 32);
  const pskIdHash = labeledExtract(HPKE_SUITE, Buffer.alloc(0), 'psk_id_hash', Buffer.alloc(0));
  const infoHash = labeledExtract(HPKE_SUITE, Buffer.alloc(0), 'info_hash', INFO);
  const context = Buffer.concat([Buffer.from([0]), pskIdHash, infoHash]);
  const secret = labeledExtract(HPKE_SUITE, sharedSecret, 'secret', Buffer.alloc(0));
  const key = labeledExpand(HPKE_SUITE, secret, 'key', context, 32);
  const nonce = labeledExpand(HPKE_SUITE, secret, 'base_nonce', context, 12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(kemContext);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { encappedPublic: enc.toString('hex'), ciphertext: ciphertext.toString('hex') };
}

/** `encryptedOtpBundle` of otp_verify_v2: `{otp_code, public_key}` sealed to the code's target. */
export function encryptOtpAttempt(targetPublic: string, code: string, clientPublicKey: string): string {
  return JSON.stringify(hpkeSealFast(JSON.stringify({ otp_code: code, public_key: clientPublicKey }), targetPublic));
}

/** SHA-256 hex (fingerprints in checks). */
export const sha256Hex = (data: string) => createHash('sha256').update(data).digest('hex');

/** Each fast operation against @walletkit/crypto's reference; throws on the first disagreement. */
export async function selfCheck(): Promise<void> {
  const key = newKey();
  const body = JSON.stringify({ organizationId: 'x', n: 1 });
  const parsed = parseApiKeyStamp(stamp(body, key));
  if (!verifyApiKeyStamp(new TextEncoder().encode(body), parsed)) throw new Error('bench stamp does not verify with @walletkit/crypto');
  // The reference stamp of the same key must name the same public key.
  if (parseApiKeyStamp(stampApiKey(body, { privateKey: key.privateKey, publicKey: key.publicKey })).publicKey !== key.publicKey)
    throw new Error('bench key encoding differs');
  const again = keyOf(key.privateKey, key.publicKey);
  if (!verifyApiKeyStamp(new TextEncoder().encode(body), parseApiKeyStamp(stamp(body, again)))) throw new Error('keyOf() does not round-trip');

  const token = `e30.${Buffer.from(JSON.stringify({ id: 'token-id' })).toString('base64url')}.sig`;
  const sig = tokenSignature(key, token, 'USAGE_TYPE_LOGIN');
  if (!verifyClientSignature(sig)) throw new Error('bench client signature does not verify with @walletkit/crypto');
  const reference = createClientSignature({ privateKey: key.privateKey, message: sig.message });
  if (reference.publicKey !== sig.publicKey) throw new Error('bench client signature key differs');

  const receiver = newKey();
  const sealed = hpkeSealFast('{"otp_code":"123456"}', receiver.publicKey);
  const opened = new TextDecoder().decode(await hpkeOpen({ ...sealed, receiverPrivateKey: receiver.privateKey }));
  if (opened !== '{"otp_code":"123456"}') throw new Error('bench HPKE seal does not open with @walletkit/crypto');

  const bundle = signBundle({ targetPublic: 'ab' }, key.privateKey);
  if (openBundle<{ targetPublic: string }>(JSON.stringify(bundle), key.publicKey).targetPublic !== 'ab') throw new Error('bench bundle check differs');
}
