import { base64urlEncode, bytesToHex, hexToBytes, utf8ToBytes } from '@walletkit/crypto';
import { WalletKitError } from '../errors.js';
import { loadEthereumHashing } from '../on-demand.js';
import { rawSignatureToDer } from './der.js';
import type { Stamper } from './types.js';

/**
 * The EIP-1193 provider surface the kit uses (`window.ethereum`, or one from EIP-6963).
 *
 * @example
 * ```ts
 * const provider: Eip1193Provider = window.ethereum;
 * ```
 */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/**
 * The compressed secp256k1 public key that produced an EIP-191 `personal_sign` signature of
 * `message`. secp256k1 is loaded on first use only (DESIGN section 5: only the external-wallet
 * flow pays for it).
 *
 * @example
 * ```ts
 * const publicKey = await recoverPersonalSignKey(body, signatureHex); // '02…' or '03…'
 * ```
 */
export async function recoverPersonalSignKey(message: string, signatureHex: string): Promise<{ publicKey: string; derSignature: string }> {
  const bytes = hexToBytes(signatureHex.replace(/^0x/, ''));
  if (bytes.length !== 65) throw new WalletKitError('ERR_INVALID_SIGNATURE', 'personal_sign must return 65 bytes');
  const v = bytes[64]!;
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1) throw new WalletKitError('ERR_INVALID_SIGNATURE', 'personal_sign returned an invalid v');
  const [{ Signature, recoverPublicKey }, { hashPersonalMessage }] = await Promise.all([import('@noble/secp256k1'), loadEthereumHashing()]);
  const signature = Signature.fromBytes(bytes.subarray(0, 64), 'compact').addRecoveryBit(recovery);
  let publicKey: Uint8Array;
  try {
    publicKey = recoverPublicKey(signature.toBytes('recovered'), hashPersonalMessage(message), { prehash: false });
  } catch (cause) {
    throw new WalletKitError('ERR_INVALID_SIGNATURE', 'no public key recovers from the personal_sign signature', { cause });
  }
  return { publicKey: bytesToHex(publicKey), derSignature: bytesToHex(rawSignatureToDer(signature.toBytes('compact'))) };
}

/**
 * A stamper backed by an external Ethereum wallet: `personal_sign` of the body, scheme
 * `SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191`, the public key recovered from the signature
 * (compressed) and the signature as DER hex of (r, s) (DESIGN section 2).
 *
 * @example
 * ```ts
 * const stamper = createWalletStamper({ provider: window.ethereum });
 * const { value } = await stamper.stamp(body); // X-Stamp header value
 * ```
 */
export function createWalletStamper(opts: { provider: Eip1193Provider; address?: string | undefined }): Stamper & { publicKey(): Promise<string> } {
  let address = opts.address;
  let publicKey: string | undefined;

  async function account(): Promise<string> {
    if (address !== undefined) return address;
    let accounts: unknown;
    try {
      accounts = await opts.provider.request({ method: 'eth_requestAccounts' });
    } catch (cause) {
      throw new WalletKitError('ERR_WALLET_REJECTED', undefined, { cause });
    }
    const first = Array.isArray(accounts) ? accounts[0] : undefined;
    if (typeof first !== 'string') throw new WalletKitError('ERR_WALLET_UNAVAILABLE');
    address = first;
    return first;
  }

  async function sign(body: string): Promise<{ publicKey: string; derSignature: string }> {
    const from = await account();
    let signature: unknown;
    try {
      signature = await opts.provider.request({ method: 'personal_sign', params: [`0x${bytesToHex(utf8ToBytes(body))}`, from] });
    } catch (cause) {
      throw new WalletKitError('ERR_WALLET_REJECTED', undefined, { cause });
    }
    if (typeof signature !== 'string') throw new WalletKitError('ERR_WALLET_REJECTED', 'the wallet returned no signature');
    const recovered = await recoverPersonalSignKey(body, signature);
    publicKey = recovered.publicKey;
    return recovered;
  }

  return {
    async stamp(body) {
      const { publicKey: key, derSignature } = await sign(body);
      const stamp = { publicKey: key, scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191', signature: derSignature };
      return { header: 'X-Stamp', value: base64urlEncode(utf8ToBytes(JSON.stringify(stamp))) };
    },
    /** The wallet's compressed public key; asks for one signature the first time. */
    async publicKey() {
      if (publicKey === undefined) await sign('walletkit: reveal public key');
      return publicKey!;
    },
  };
}
