/**
 * The client's code that runs only when the user acts (a one-time code, a passkey, an export or
 * import outside the secret frame, an Ethereum signature), each loaded the first time it is
 * needed, in a chunk of its own, apart from what a page loads at start (decision 0016, "Bundle
 * size (issue 15)"). The `import()` targets stay static strings: bundlers split on them.
 *
 * A chunk that cannot be downloaded fails the action that needed it with
 * `ERR_CHUNK_LOAD_FAILED` (the download error as its `cause`), and the next action tries again.
 */
import { WalletKitError } from './errors.js';

/**
 * A loader that fetches `load()` once and shares it; a failure is `ERR_CHUNK_LOAD_FAILED` and
 * is not kept.
 * @example const loadHpke = onDemand(() => import('hpke')); const { CipherSuite } = await loadHpke();
 * @internal
 */
export function onDemand<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((cause: unknown) => {
      pending = undefined;
      throw new WalletKitError('ERR_CHUNK_LOAD_FAILED', undefined, { cause });
    });
    return pending;
  };
}

/** `hpke` (RFC 9180 on WebCrypto): one-time codes, exports and imports outside the secret frame. @internal */
export const loadHpke = onDemand(() => import('hpke'));

/** `@simplewebauthn/browser`: passkey login, sign-up and registration. @internal */
export const loadWebAuthn = onDemand(() => import('@simplewebauthn/browser'));

/** Ethereum hashing and encoding: messages (EIP-191), typed data (EIP-712), transactions (RLP). @internal */
export const loadEthereumHashing = onDemand(() => import('./ethereum/hashing.js'));

/**
 * Starts loading the passkey code before it is needed, so that a passkey prompt follows its
 * click at once (some browsers want the prompt close to the click). Failures are left for the
 * prompt itself to report.
 * @example useEffect(() => { if (passkeysEnabled) preloadPasskeySupport(); }, [passkeysEnabled]);
 */
export function preloadPasskeySupport(): void {
  loadWebAuthn().catch(() => undefined);
}
