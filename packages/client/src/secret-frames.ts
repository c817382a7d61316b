/**
 * Export and import through the secret frame (issue 12, SECURITY.md "The frame boundary"): the
 * app side of the protocol that `frame/secret-frame.ts` implements inside the iframe. The frame is
 * the server's `/frames/export` or `/frames/import` page on the frames origin; the app only ever
 * holds the frame's public target key, the encrypted export bundle and the import ciphertext.
 */
import { WalletKitError } from './errors.js';
import type { WalletActions } from './wallet.js';

/** Where the frames live and which organization's configuration they answer to. */
export interface SecretFrameConfig {
  /** Base URL of the frames (`<apiUrl>/frames` by default): another origin than the app's. */
  framesUrl: string;
  /** The proxy configuration id: the frame's CSP allows exactly its origins as parents. */
  configId: string;
}

type FrameReply = { walletkitFrame: 1; type: string; [key: string]: unknown };

/** One frame, bound to its own origin: messages are sent to and accepted from that origin only. */
function openFrame(config: SecretFrameConfig, container: HTMLElement, mode: 'export' | 'import', title: string) {
  const url = new URL(`${config.framesUrl.replace(/\/+$/, '')}/${mode}`);
  url.searchParams.set('configId', config.configId);
  const origin = url.origin;
  const iframe = document.createElement('iframe');
  iframe.src = url.href;
  iframe.title = title;
  iframe.className = 'wk-secret-frame';
  iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  iframe.setAttribute('allow', 'clipboard-write');
  iframe.setAttribute('referrerpolicy', 'no-referrer');
  const waiting: Array<{ type: string; resolve: (m: FrameReply) => void; reject: (e: Error) => void }> = [];
  const onMessage = (event: MessageEvent<unknown>) => {
    if (event.origin !== origin || event.source !== iframe.contentWindow) return;
    const data = event.data as FrameReply | null;
    if (!data || typeof data !== 'object' || data.walletkitFrame !== 1) return;
    for (const w of waiting.splice(0)) {
      if (data.type === 'error')
        w.reject(new WalletKitError(String(data['code'] ?? 'ERR_INVALID_PARAMETER') as 'ERR_INVALID_PARAMETER', 'The secret frame refused the request.'));
      else if (data.type === w.type) w.resolve(data);
      else waiting.push(w);
    }
  };
  window.addEventListener('message', onMessage);
  const loaded = new Promise<void>((resolve) => iframe.addEventListener('load', () => resolve(), { once: true }));
  container.replaceChildren(iframe);
  return {
    iframe,
    async send(type: string, fields: Record<string, unknown> = {}) {
      await loaded;
      iframe.contentWindow?.postMessage({ walletkitFrame: 1, type, ...fields }, origin);
    },
    next(type: string): Promise<FrameReply> {
      return new Promise((resolve, reject) => waiting.push({ type, resolve, reject }));
    },
    close() {
      window.removeEventListener('message', onMessage);
    },
  };
}

/** What to export: a wallet's recovery phrase, one account's private key, or a private key record. */
export type ExportTarget = { walletId: string } | { address: string } | { privateKeyId: string };

/**
 * Shows a recovery phrase or private key inside a secret frame placed in `container`: the frame
 * makes a one-time key, the app asks the server to export to it, and the frame verifies,
 * decrypts and shows the secret. Resolves once it is on screen; nothing secret reaches the app.
 *
 * @example
 * ```ts
 * await exportInFrame({ wallet: kit.wallet, frames: { framesUrl, configId } }, panelDiv, { walletId });
 * ```
 */
export async function exportInFrame(kit: { wallet: WalletActions; frames: SecretFrameConfig }, container: HTMLElement, what: ExportTarget): Promise<void> {
  const secret = 'walletId' in what ? 'mnemonic' : 'privateKey';
  const frame = openFrame(kit.frames, container, 'export', secret === 'mnemonic' ? 'Recovery phrase' : 'Private key');
  try {
    const ready = frame.next('ready');
    await frame.send('init', { mode: 'export', secret });
    const { targetPublicKey } = await ready;
    const target = String(targetPublicKey);
    const exportBundle =
      'walletId' in what
        ? await kit.wallet.exportWalletBundle({ walletId: what.walletId, targetPublicKey: target })
        : 'address' in what
          ? await kit.wallet.exportAccountBundle({ address: what.address, targetPublicKey: target })
          : await kit.wallet.exportPrivateKeyBundle({ privateKeyId: what.privateKeyId, targetPublicKey: target });
    const shown = frame.next('shown');
    await frame.send('bundle', { exportBundle });
    await shown;
  } finally {
    frame.close();
  }
}

/**
 * Imports a recovery phrase (a new wallet) or a private key the user types inside a secret frame
 * placed in `container`: the frame verifies the enclave's import bundle and encrypts to it; the
 * app only forwards the ciphertext. Resolves with the import's result once the user submitted.
 *
 * @example
 * ```ts
 * const { addresses } = await importInFrame(kit, panelDiv, { secret: 'mnemonic', name: 'Imported' });
 * ```
 */
export async function importInFrame(
  kit: { wallet: WalletActions; frames: SecretFrameConfig },
  container: HTMLElement,
  what: { secret: 'mnemonic' | 'privateKey'; name: string },
): Promise<{ addresses: string[] }> {
  const importBundle = await kit.wallet.initImport({ secret: what.secret });
  const frame = openFrame(kit.frames, container, 'import', what.secret === 'mnemonic' ? 'Recovery phrase' : 'Private key');
  try {
    const ready = frame.next('ready');
    await frame.send('init', { mode: 'import', secret: what.secret, importBundle });
    await ready;
    const { encryptedBundle } = await frame.next('encrypted');
    if (what.secret === 'mnemonic') {
      const result = await kit.wallet.importWalletEncrypted({ walletName: what.name, encryptedBundle: String(encryptedBundle) });
      return { addresses: result.addresses };
    }
    const result = await kit.wallet.importPrivateKeyEncrypted({ privateKeyName: what.name, encryptedBundle: String(encryptedBundle) });
    return { addresses: result.addresses.map((a) => a.address) };
  } finally {
    frame.close();
  }
}
