/**
 * The secret frame (issue 12): the script of the server's `/frames/export` and `/frames/import`
 * pages, which the kit embeds in an iframe on the frames origin (another origin than the app's).
 * Bundled into one file by the server's build (`frame.js`) and served under a strict CSP.
 *
 * Protocol (window.postMessage, exact origins both ways; every message is `{ walletkitFrame: 1, type }`):
 *   app -> frame  init     { mode: 'export' | 'import', secret: 'mnemonic' | 'privateKey', importBundle?, locale? }
 *                          The first init from an allowed parent origin (the page's data-parent-origins,
 *                          the organization's allowed origins) binds the frame to that origin; any
 *                          later init, and every message from another origin or window, is ignored.
 *   app -> frame  locale   { locale }                 the kit's language (en, de, es, fr, ja, ar; English
 *                                                     until told), at any time, from the parent only (the
 *                                                     bound origin, or an allowed one before init): what
 *                                                     the user reads here follows it
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
import { verifySignedBundle } from '../webcrypto/bundle.js';
import { createHpkeTarget, hpkeOpenWith, hpkeSealTo, type HpkeTarget } from '../webcrypto/hpke.js';
import { frameLocale, frameMessage, type FrameMessageKey } from './messages.js';
import { checkMnemonic } from './mnemonic-check.js';

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
let locale = 'en';
/** Draws what the frame shows now; drawn again in the new language when the kit's changes. */
let view: (() => void) | undefined;

const say = (key: FrameMessageKey, values?: Record<string, string | number>) => frameMessage(locale, key, values);

/** Show `draw`'s nodes now and whenever the language changes. */
function render(draw: () => Node[]): void {
  view = () => root.replaceChildren(...draw());
  view();
}

function setLocale(tag: unknown): void {
  locale = frameLocale(tag);
  page.lang = locale;
  page.dir = locale === 'ar' ? 'rtl' : 'ltr';
  view?.();
}

function post(type: string, fields: Record<string, unknown> = {}): void {
  if (!parentOrigin) return;
  window.parent.postMessage({ walletkitFrame: 1, type, ...fields }, parentOrigin);
}

function fail(error: unknown, fallback: string): void {
  const code = isWalletKitError(error) ? error.code : fallback;
  render(() => [status(say('failed'), 'alert')]);
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

/** The decrypted secret, on screen in this frame only, with a copy button (its state said in a live region). */
function reveal(value: string): void {
  const output = el('output', { className: 'secret', textContent: value });
  output.setAttribute('data-testid', 'wk-frame-secret');
  output.dir = 'ltr'; // words and hex read left to right in every language
  const copy = el('button', { type: 'button' });
  const copyStatus = el('span', { className: 'hint' });
  copyStatus.setAttribute('role', 'status');
  let copied: 'copied' | 'copyFailed' | undefined;
  const label = () => {
    output.setAttribute('aria-label', say(secret === 'mnemonic' ? 'labelPhrase' : 'labelKey'));
    copy.textContent = say('copy');
    copyStatus.textContent = copied ? say(copied) : '';
  };
  copy.addEventListener('click', () => {
    const done = (result: 'copied' | 'copyFailed') => {
      copied = result;
      label();
    };
    if (!navigator.clipboard) done('copyFailed');
    else
      navigator.clipboard.writeText(value).then(
        () => done('copied'),
        () => done('copyFailed'),
      );
  });
  render(() => {
    label();
    return [status(say(secret === 'mnemonic' ? 'revealPhrase' : 'revealKey')), output, el('div', { className: 'row' }, copy, copyStatus)];
  });
}

async function openBundle(exportBundle: string): Promise<void> {
  if (!target) return;
  const sealed = await verifySignedBundle<{ encappedPublic: string; ciphertext: string }>(exportBundle, enclavePublicKey);
  const plain = await hpkeOpenWith(target, sealed);
  target = undefined; // one export per key
  reveal(secret === 'mnemonic' ? bytesToUtf8(plain) : bytesToHex(plain));
  post('shown');
}

/** The typed secret as the enclave takes it (bytes), or what to tell the user about it. */
function parse(value: string): { bytes: Uint8Array } | { problem: string } {
  if (secret === 'privateKey') {
    const hex = value.trim().replace(/^0x/i, '').toLowerCase();
    return /^[0-9a-f]{64}$/.test(hex) ? { bytes: Uint8Array.from(hex.match(/../g)!.map((h) => Number.parseInt(h, 16))) } : { problem: say('keyFormat') };
  }
  const check = checkMnemonic(value);
  if (check.ok) return { bytes: utf8ToBytes(check.phrase) };
  switch (check.problem) {
    case 'empty':
      return { problem: say('phraseEmpty') };
    case 'unknownWord':
      return {
        problem: check.suggestion
          ? say('phraseUnknownWordSuggest', { position: check.position, word: check.word, suggestion: check.suggestion })
          : say('phraseUnknownWord', { position: check.position, word: check.word }),
      };
    case 'wordCount':
      return { problem: say('phraseWordCount', { count: check.count }) };
    case 'checksum':
      return { problem: say('phraseChecksum') };
  }
}

/**
 * The import form: typed here, checked here (BIP-39 words and checksum, or 64 hex characters),
 * sealed here; only the ciphertext leaves. A language change relabels it without clearing it.
 */
function importForm(): void {
  const input = el('textarea', { id: 'secret-input', rows: secret === 'mnemonic' ? 3 : 2, spellcheck: false, autocomplete: 'off' });
  input.dir = 'ltr';
  input.setAttribute('autocapitalize', 'off');
  input.setAttribute('aria-describedby', 'secret-hint');
  const label = el('label', { htmlFor: 'secret-input' });
  const hint = el('p', { id: 'secret-hint', className: 'hint' });
  const submit = el('button', { type: 'submit' });
  const message = el('div');
  let problem: (() => string) | undefined;
  const form = el('form', {}, label, input, hint, message, submit);
  const showProblem = () => {
    message.replaceChildren(...(problem ? [status(problem(), 'alert')] : []));
    if (problem) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const typed = input.value;
    const parsed = parse(typed);
    if ('problem' in parsed) {
      // Said again (in the new words) if the language changes while it shows.
      problem = () => {
        const again = parse(typed);
        return 'problem' in again ? again.problem : '';
      };
      showProblem();
      input.focus();
      return;
    }
    problem = undefined;
    showProblem();
    void (async () => {
      try {
        const sealed = await hpkeSealTo(parsed.bytes, importTarget!);
        input.value = '';
        render(() => [status(say('encrypted'))]);
        post('encrypted', { encryptedBundle: JSON.stringify(sealed) });
      } catch (error) {
        fail(error, 'ERR_INVALID_PUBLIC_KEY');
      }
    })();
  });
  render(() => {
    label.textContent = say(secret === 'mnemonic' ? 'labelPhrase' : 'labelKey');
    hint.textContent = say(secret === 'mnemonic' ? 'hintPhrase' : 'hintKey');
    submit.textContent = say('submit');
    showProblem();
    return [form];
  });
}

async function init(data: FrameMessage): Promise<void> {
  mode = data['mode'] === 'import' ? 'import' : 'export';
  secret = data['secret'] === 'privateKey' ? 'privateKey' : 'mnemonic';
  if (data['locale'] !== undefined) setLocale(data['locale']);
  if (mode === 'export') {
    target = await createHpkeTarget();
    render(() => [status(say('waitingExport'))]);
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
  if (data.type === 'locale') {
    // Only words change; still only from the parent (bound, or allowed before it binds).
    const fromParent = parentOrigin === undefined ? allowedParents.includes('*') || allowedParents.includes(event.origin) : event.origin === parentOrigin;
    if (fromParent) setLocale(data['locale']);
    return;
  }
  if (event.origin !== parentOrigin) return;
  if (data.type === 'bundle' && mode === 'export')
    openBundle(String(data['exportBundle'] ?? '')).catch((error: unknown) => fail(error, 'ERR_INVALID_ENCRYPTED_BUNDLE'));
});
