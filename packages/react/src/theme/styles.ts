/**
 * The kit's stylesheet. Every selector starts with `.wk-root` (the class on every kit root,
 * dialogs included, since a modal `<dialog>` renders in the top layer outside its parent's
 * box), so nothing leaks out into the host app; `.wk-root` resets the inherited basics so
 * little leaks in. Theme through the `--wk-*` variables: set them on `.wk-root` in the app's
 * CSS, or pick `data-theme="light" | "dark"` (default: the system preference).
 */
import { accountCss } from '../account/styles.js';
import { authCss } from '../auth/styles.js';
import { walletCss } from '../wallet/styles.js';

const light = `--wk-bg:#ffffff;--wk-fg:#111827;--wk-muted:#4b5563;--wk-surface:#f3f4f6;--wk-border:#d1d5db;--wk-accent:#2563eb;--wk-accent-fg:#ffffff;--wk-danger:#b91c1c;--wk-focus:#1d4ed8;--wk-backdrop:rgba(17,24,39,.55);`;
const dark = `--wk-bg:#111827;--wk-fg:#f9fafb;--wk-muted:#d1d5db;--wk-surface:#1f2937;--wk-border:#4b5563;--wk-accent:#60a5fa;--wk-accent-fg:#0b1220;--wk-danger:#fca5a5;--wk-focus:#93c5fd;--wk-backdrop:rgba(0,0,0,.7);`;

/**
 * The stylesheet: the base (below), then each area's own rules (auth/styles.ts,
 * wallet/styles.ts, account/styles.ts). Physical left/right never appear: logical properties
 * (`inline-start`, `inline-end`) mirror the layout under `dir="rtl"`.
 */
export const walletKitCss = `
.wk-root{${light}--wk-radius:12px;--wk-font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color-scheme:light;background:var(--wk-bg);color:var(--wk-fg);font-family:var(--wk-font);font-size:15px;line-height:1.4;text-align:start;letter-spacing:normal}
.wk-root[data-theme="dark"]{${dark}color-scheme:dark}
@media (prefers-color-scheme: dark){.wk-root:not([data-theme="light"]){${dark}color-scheme:dark}}
.wk-root,.wk-root *,.wk-root *::before,.wk-root *::after{box-sizing:border-box}
.wk-root::backdrop{background:var(--wk-backdrop)}
.wk-root.wk-dialog{border:1px solid var(--wk-border);border-radius:var(--wk-radius);padding:24px;width:min(420px,calc(100vw - 32px));max-height:calc(100vh - 32px);overflow:auto}
.wk-root .wk-dialog-header{display:flex;align-items:center;justify-content:space-between;gap:8px;margin-bottom:16px}
.wk-root .wk-title{font-size:18px;font-weight:600;margin:0}
.wk-root .wk-stack{display:flex;flex-direction:column;gap:10px}
.wk-root .wk-row{display:flex;gap:8px;align-items:center;flex-wrap:wrap}
.wk-root .wk-label{font-size:13px;font-weight:500;color:var(--wk-fg)}
.wk-root .wk-hint{font-size:13px;color:var(--wk-muted);margin:0}
.wk-root .wk-error{font-size:13px;color:var(--wk-danger);margin:0}
.wk-root .wk-input{font:inherit;color:var(--wk-fg);background:var(--wk-bg);border:1px solid var(--wk-border);border-radius:calc(var(--wk-radius) / 2);padding:10px 12px;width:100%}
.wk-root .wk-input[aria-invalid="true"]{border-color:var(--wk-danger)}
.wk-root .wk-button{font:inherit;font-weight:500;cursor:pointer;border-radius:calc(var(--wk-radius) / 2);padding:10px 14px;border:1px solid var(--wk-border);background:var(--wk-surface);color:var(--wk-fg);display:inline-flex;align-items:center;justify-content:center;gap:8px}
.wk-root .wk-button[data-variant="primary"]{background:var(--wk-accent);border-color:var(--wk-accent);color:var(--wk-accent-fg)}
.wk-root .wk-button[data-variant="ghost"]{background:transparent;border-color:transparent}
.wk-root .wk-button:disabled{cursor:not-allowed;opacity:.6}
.wk-root .wk-button:focus-visible,.wk-root .wk-input:focus-visible,.wk-root .wk-otp-cell:focus-visible{outline:2px solid var(--wk-focus);outline-offset:2px}
.wk-root .wk-divider{border:0;border-top:1px solid var(--wk-border);margin:4px 0}
.wk-root .wk-otp{display:flex;gap:8px;justify-content:center}
.wk-root .wk-otp-cell{font:inherit;font-size:20px;text-align:center;width:44px;height:52px;border:1px solid var(--wk-border);border-radius:calc(var(--wk-radius) / 2);background:var(--wk-bg);color:var(--wk-fg);text-transform:uppercase}
.wk-root .wk-code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px;white-space:pre-wrap;word-break:break-all;background:var(--wk-surface);border-radius:calc(var(--wk-radius) / 2);padding:10px;margin:0;max-height:240px;overflow:auto}
.wk-root .wk-list{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:6px}
.wk-root .wk-card,.wk-root.wk-card{border:1px solid var(--wk-border);border-radius:var(--wk-radius);padding:16px}
.wk-root .wk-icon{width:20px;height:20px}
.wk-root .wk-mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px;word-break:break-all}
.wk-root .wk-fields{display:grid;grid-template-columns:fit-content(45%) minmax(0,1fr);gap:6px 12px;margin:0}
.wk-root .wk-fields>div{display:contents}
.wk-root .wk-fields dt{font-size:13px;color:var(--wk-muted);overflow-wrap:anywhere}
.wk-root .wk-fields dd{margin:0;min-width:0}
.wk-root .wk-fields .wk-fields{border-inline-start:2px solid var(--wk-border);padding-inline-start:8px}
.wk-root .wk-type{font-size:12px;color:var(--wk-muted)}
.wk-root .wk-section-title{margin:6px 0 0}
.wk-root .wk-warning,.wk-root .wk-permit{overflow-wrap:anywhere;margin:0}
.wk-root .wk-warning{margin:0;padding:10px 12px;border:1px solid var(--wk-danger);border-inline-start-width:4px;border-radius:calc(var(--wk-radius) / 2);color:var(--wk-fg)}
.wk-root .wk-warning strong{color:var(--wk-danger)}
.wk-root .wk-details summary{cursor:pointer;font-size:13px}
.wk-root .wk-instructions{margin:0;padding-inline-start:20px}
.wk-root .wk-link{color:var(--wk-accent)}
.wk-root .wk-balance{margin:0;display:flex;gap:8px;align-items:baseline;flex-wrap:wrap}
.wk-root select.wk-input{appearance:auto}
.wk-root .wk-frame-host iframe{display:block;width:100%;min-height:190px;border:1px solid var(--wk-border,#8884);border-radius:var(--wk-radius,8px);background:transparent}
.wk-root .wk-visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
${authCss}${walletCss}${accountCss}`;

/**
 * Add the kit's stylesheet to `document.head` once (a `<style data-walletkit>`, with `nonce` when
 * given: the host page's CSP nonce); later calls are no-ops. Components call it themselves; call it early to avoid a flash in SSR setups.
 * @example injectWalletKitStyles(); document.head.querySelectorAll('style[data-walletkit]').length // 1
 */
export function injectWalletKitStyles(doc: Document | undefined = globalThis.document, nonce?: string | undefined): void {
  if (!doc || doc.head.querySelector('style[data-walletkit]')) return;
  const style = doc.createElement('style');
  style.setAttribute('data-walletkit', '');
  // Under a strict CSP (`style-src 'self' 'nonce-…'`), the page's nonce lets this one element in.
  if (nonce) style.nonce = nonce;
  style.textContent = walletKitCss;
  doc.head.appendChild(style);
}
