/**
 * The enclave's X-Stamps (`Enclave.stamps`): API keys generated here and sealed at rest (the proxy
 * key of an auth proxy configuration), the stamps they sign, the passes given for calls that stay
 * in this process (decision 0027), and the check of any request's stamp.
 *
 * A sealed API key is opened only on a signing thread, for one signature (signer-core.ts), and
 * never leaves the enclave; what is remembered between calls is public (own-stamps.ts).
 */
import { encodeApiKeyStamp, generateP256KeyPair, parseApiKeyStamp, type ParsedStamp } from '@walletkit/crypto';
import { ApiError } from '../errors.js';
import type { AtRestKey } from './at-rest.js';
import { OwnStamps } from './own-stamps.js';
import type { SignerPool } from './signer-pool.js';
import type { Sealed } from './types.js';

const utf8 = new TextEncoder();

export class ApiKeyStamps {
  /** Stamps made by `stampWith`, until they are checked; passes given by `stampInProcess` and the sealed keys proven for them. */
  private readonly own = new OwnStamps();

  constructor(
    private readonly atRest: AtRestKey,
    private readonly signer: SignerPool,
  ) {}

  /**
   * Whether an X-Stamp signature signs `body` (false for a bad one, never a throw), checked on the
   * signing threads beside the event loop (in-process with none). Public keys only: no secret is
   * opened for it; it shares the threads so that a request wakes one thread, not two (decision 0022).
   * A stamp or a pass this enclave made is answered from own-stamps.ts.
   */
  checkStamp(body: Uint8Array, stamp: ParsedStamp): Promise<boolean> {
    if (this.own.take(stamp, body)) return Promise.resolve(true);
    return this.signer.checkStamp({ body, stamp });
  }

  /**
   * Generate a P-256 API key pair here and return its private half sealed at rest (the proxy
   * key of an auth proxy configuration): the private key exists only inside this call.
   * @example const { sealedPrivateKey, publicKey } = await enclave.stamps.createSealedApiKey();
   */
  async createSealedApiKey(): Promise<{ sealedPrivateKey: Sealed; publicKey: string }> {
    const key = generateP256KeyPair();
    return { sealedPrivateKey: this.atRest.seal(utf8.encode(key.privateKey)), publicKey: key.publicKey };
  }

  /**
   * The X-Stamp of `body` by a sealed API key (stamped with its own public key): the private key
   * is opened for this one signature and never leaves the enclave.
   * @example const stamp = await enclave.stamps.stampWith(config.proxyApiPrivateKeyEncrypted, config.proxyApiPublicKey, body);
   * @throws ApiError ERR_INTERNAL when the key does not open or is not `publicKey`'s (corrupt storage)
   */
  async stampWith(sealedPrivateKey: Sealed, publicKey: string, body: string): Promise<string> {
    return (await this.stampSealed(sealedPrivateKey, publicKey, body)).header;
  }

  /**
   * The X-Stamp of `body` by a sealed API key for a call that stays in this process (the proxy's
   * `inject()`; decision 0027). The first time a sealed key comes here it stamps as `stampWith`
   * does, which opens it and proves it is `publicKey`'s; from then on, a pass: a random value in
   * the signature's place that `checkStamp` answers for, over this very body, until `release` (call it
   * when the call returned, whichever way). No key is opened for a pass and no key is kept (what is
   * kept is which public key a sealed value belongs to); checked anywhere as a signature, a pass is
   * refused. A call that leaves the process (HTTP) must use `stampWith`.
   * @example const { header, release } = await enclave.stamps.stampInProcess(config.proxyApiPrivateKeyEncrypted, config.proxyApiPublicKey, body);
   */
  async stampInProcess(sealedPrivateKey: Sealed, publicKey: string, body: string): Promise<{ header: string; release(): void }> {
    const pass = this.own.passFor(sealedPrivateKey, publicKey, body);
    if (pass !== undefined) return { header: encodeApiKeyStamp(pass.stamp), release: pass.release };
    const { header, stamp } = await this.stampSealed(sealedPrivateKey, publicKey, body);
    this.own.proven(sealedPrivateKey, publicKey, stamp);
    return { header, release: () => {} };
  }

  /** How many passes are given and not yet released (tests: none outlives its call). */
  get passesHeld(): number {
    return this.own.passesHeld;
  }

  /** `stampWith`'s stamp, as its header and its fields, remembered until its check. */
  private async stampSealed(sealedPrivateKey: Sealed, publicKey: string, body: string): Promise<{ header: string; stamp: ParsedStamp }> {
    try {
      const header = await this.signer.stamp({ sealedPrivateKey, publicKey, body });
      const stamp = parseApiKeyStamp(header);
      this.own.remember(stamp, body);
      return { header, stamp };
    } catch (cause) {
      // The key does not open, or what opens is not a P-256 key: corrupt storage.
      throw new ApiError('ERR_INTERNAL', 'a sealed API key does not stamp', undefined, { cause });
    }
  }
}
