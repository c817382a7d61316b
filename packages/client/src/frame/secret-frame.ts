/**
 * The secret frame (issue 12): the script of the server's `/frames/export` and `/frames/import`
 * pages, which the kit embeds in an iframe on the frames origin (another origin than the app's).
 * Bundled into one file by the server's build (`frame.js`) and served under a strict CSP.
 *
 * Protocol (window.postMessage, exact origins both ways; every message is `{ walletkitFrame: 1, type }`):
 *   app -> frame  init     { mode: 'export' | 'import', secret: 'mnemonic' | 'privateKey', importBundle? }
 *                          The first init from an allowed parent origin (the page's data-parent-origins,
 *                          the organization's allowed origins) binds the frame to that origin; any
 *                          later init, and every message from another origin or window, is ignored.
 *   frame -> app  ready    { targetPublicKey }        export: a fresh non-extractable P-256 key's public half
 *   app -> frame  bundle   { exportBundle }           export: verified against the page's pinned enclave key,
 *                                                     decrypted here and shown here with a copy button
 *   frame -> app  shown    {}                         export: the secret is on screen (never posted)
 *   frame -> app  encrypted { encryptedBundle }       import: what the user typed here, sealed to the
 *                                                     verified import bundle's target key
 *   frame -> app  error    { code, message }
 */
import { bytesToHex, bytesToUtf8, utf8ToBytes } from '@walletkit/crypto';
import { isWalletKitError } from '../errors.js';
import { normalizeMnemonic } from '../mnemonic.js';
import { verifySignedBundle } from '../webcrypto/bundle.js';
import { createHpkeTarget, hpkeOpenWith, hpkeSealTo, type HpkeTarget } from '../webcrypto/hpke.js';

type Mode = 'export' | 'import';
type Secret = 'mnemonic' | 'privateKey';

interface FrameMessage {
  walletkitFrame: 1;
  type: string;
  [key: string]: unknown;
}

const page = document.documentElement;
const enclavePublicKey = page.dataset['enclavePublicKey'] ?? '';
const allowedParents = (page.dataset['parentOrigins'] ?? '').split(' ').filter(Boolean);
const root = document.getElementById('frame')!;

let parentOrigin: string | undefined;
let mode: Mode | undefined;
let secret: Secret = 'mnemonic';
let target: HpkeTarget | undefined;
let importTarget: string | undefined;

function post(type: string, fields: Record<string, unknown> = {}): void {
  if (!parentOrigin) return;
  window.parent.postMessage({ walletkitFrame: 1, type, ...fields }, parentOrigin);
}

function fail(error: unknown, fallback: string): void {
  const code = isWalletKitError(error) ? error.code : fallback;
  show(status('The request could not be completed. Close this and try again.', 'alert'));
  post('error', { code, message: code });
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function status(text: string, role: 'status' | 'alert' = 'status'): HTMLElement {
  const p = el('p', { className: role === 'alert' ? 'error' : 'hint', textContent: text });
  p.setAttribute('role', role);
  return p;
}

function show(...nodes: Node[]): void {
  root.replaceChildren(...nodes);
}

/** The decrypted secret, on screen in this frame only, with a copy button. */
function reveal(value: string): void {
  const label = secret === 'mnemonic' ? 'Recovery phrase' : 'Private key';
  const output = el('output', { className: 'secret', textContent: value });
  output.setAttribute('aria-label', label);
  output.setAttribute('data-testid', 'wk-frame-secret');
  const copy = el('button', { type: 'button', textContent: 'Copy' });
  copy.addEventListener('click', () => {
    void navigator.clipboard?.writeText(value).then(
      () => (copy.textContent = 'Copied'),
      () => (copy.textContent = 'Copy failed'),
    );
  });
  show(status(`Your ${label.toLowerCase()}. Anyone who sees it controls your funds: never share it.`), output, copy);
}

async function openBundle(exportBundle: string): Promise<void> {
  if (!target) return;
  const sealed = await verifySignedBundle<{ encappedPublic: string; ciphertext: string }>(exportBundle, enclavePublicKey);
  const plain = await hpkeOpenWith(target, sealed);
  target = undefined; // one export per key
  reveal(secret === 'mnemonic' ? bytesToUtf8(plain) : bytesToHex(plain));
  post('shown');
}

function normalize(value: string): string | undefined {
  if (secret === 'privateKey') {
    const hex = value.trim().replace(/^0x/i, '').toLowerCase();
    return /^[0-9a-f]{64}$/.test(hex) ? hex : undefined;
  }
  return normalizeMnemonic(value);
}

/** The import form: typed here, sealed here, only the ciphertext leaves. */
function importForm(): void {
  const label = secret === 'mnemonic' ? 'Recovery phrase' : 'Private key';
  const input = el('textarea', { id: 'secret-input', rows: secret === 'mnemonic' ? 3 : 2, spellcheck: false, autocomplete: 'off' });
  const form = el(
    'form',
    {},
    el('label', { htmlFor: 'secret-input', textContent: label }),
    input,
    el('button', { type: 'submit', textContent: 'Encrypt and import' }),
  );
  const message = el('div');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = normalize(input.value);
    if (!value) {
      message.replaceChildren(status(secret === 'mnemonic' ? 'Enter 12, 15, 18, 21 or 24 words.' : 'Enter 64 hexadecimal characters.', 'alert'));
      return;
    }
    void (async () => {
      try {
        const bytes = secret === 'mnemonic' ? utf8ToBytes(value) : Uint8Array.from(value.match(/../g)!.map((h) => parseInt(h, 16)));
        const sealed = await hpkeSealTo(bytes, importTarget!);
        input.value = '';
        show(status('Encrypted. Importing…'));
        post('encrypted', { encryptedBundle: JSON.stringify(sealed) });
      } catch (error) {
        fail(error, 'ERR_INVALID_PUBLIC_KEY');
      }
    })();
  });
  show(form, message);
}

async function init(data: FrameMessage): Promise<void> {
  mode = data['mode'] === 'import' ? 'import' : 'export';
  secret = data['secret'] === 'privateKey' ? 'privateKey' : 'mnemonic';
  if (mode === 'export') {
    target = await createHpkeTarget();
    show(status('Waiting for the export…'));
    post('ready', { targetPublicKey: target.publicKey });
    return;
  }
  const { targetPublic } = await verifySignedBundle<{ targetPublic: string }>(String(data['importBundle'] ?? ''), enclavePublicKey);
  importTarget = targetPublic;
  importForm();
  post('ready', {});
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const data = event.data as FrameMessage | null;
  if (!data || typeof data !== 'object' || data.walletkitFrame !== 1 || event.source !== window.parent) return;
  if (data.type === 'init') {
    // One channel per frame: the first init from an allowed origin wins, the rest are ignored.
    if (parentOrigin !== undefined || !(allowedParents.includes('*') || allowedParents.includes(event.origin))) return;
    parentOrigin = event.origin;
    init(data).catch((error: unknown) => fail(error, 'ERR_INVALID_SIGNATURE'));
    return;
  }
  if (event.origin !== parentOrigin) return;
  if (data.type === 'bundle' && mode === 'export')
    openBundle(String(data['exportBundle'] ?? '')).catch((error: unknown) => fail(error, 'ERR_INVALID_ENCRYPTED_BUNDLE'));
});
