/**
 * The wallet area's rules of the kit's stylesheet (theme/styles.ts): every selector under
 * `.wk-root`, colors only from the `--wk-*` variables, logical properties only (the panel
 * mirrors under `dir="rtl"`). The panel adapts to its own width (a container), not the window's.
 */
export const walletCss = `
.wk-root.wk-wallet{container-type:inline-size;padding:16px}
.wk-root .wk-wallet-header{display:flex;align-items:center;justify-content:space-between;gap:12px;flex-wrap:wrap}
.wk-root .wk-identity{display:flex;align-items:center;gap:10px;min-width:0;flex:1}
.wk-root .wk-avatar{width:36px;height:36px;flex:none}
.wk-root .wk-identity-text{min-width:0}
.wk-root .wk-identity-name{margin:0;font-size:16px;font-weight:600;overflow-wrap:anywhere}
.wk-root .wk-countdown{font-variant-numeric:tabular-nums}
.wk-root .wk-tabs{display:flex;gap:2px;overflow:auto;border-block-end:1px solid var(--wk-border);scrollbar-width:thin}
.wk-root .wk-tab{font:inherit;font-size:14px;font-weight:500;white-space:nowrap;cursor:pointer;background:none;color:var(--wk-muted);border:0;border-block-end:2px solid transparent;padding:10px 12px;border-start-start-radius:6px;border-start-end-radius:6px}
.wk-root .wk-tab:hover{color:var(--wk-fg);background:var(--wk-surface)}
.wk-root .wk-tab[aria-selected="true"]{color:var(--wk-accent);border-block-end-color:var(--wk-accent)}
.wk-root .wk-tab:focus-visible{outline:2px solid var(--wk-focus);outline-offset:-2px}
.wk-root .wk-screen:focus-visible{outline:2px solid var(--wk-focus);outline-offset:2px;border-radius:4px}
.wk-root .wk-screen-body{gap:14px}
.wk-root .wk-surface{background:var(--wk-surface);border-radius:var(--wk-radius);padding:14px;border:1px solid var(--wk-border)}
.wk-root .wk-surface .wk-code{background:var(--wk-bg)}
.wk-root .wk-mono,.wk-root .wk-code{unicode-bidi:isolate}
.wk-root .wk-address{font-size:14px;margin:0}
.wk-root .wk-qr{display:flex;justify-content:center}
.wk-root .wk-qr svg{border-radius:8px;max-width:100%;height:auto}
.wk-root .wk-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(180px,1fr));gap:12px;align-items:end}
.wk-root .wk-balance-block{gap:2px}
.wk-root .wk-amount{font-size:24px;font-weight:600;font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
.wk-root .wk-name-row>.wk-input{flex:1 1 160px;width:auto;min-width:0}
.wk-root .wk-empty{padding-block:8px}
.wk-root .wk-empty .wk-title{font-size:17px}
.wk-root .wk-success{border-inline-start:3px solid var(--wk-accent);padding-inline-start:10px}
.wk-root .wk-section-heading{font-size:15px;font-weight:600;margin:8px 0 0}
.wk-root .wk-wallet h3.wk-label,.wk-root .wk-wallet h4.wk-label{margin:0}
.wk-root .wk-card-title{margin:0;font-size:15px;font-weight:600}
.wk-root .wk-spread{justify-content:space-between}
.wk-root .wk-spread>.wk-grow{flex:1 1 auto;min-width:0}
.wk-root .wk-spread>.wk-secret{flex-basis:100%}
.wk-root .wk-frame-import iframe{min-height:300px}
.wk-root .wk-fieldset{border:0;padding:0;margin:0;min-width:0}
.wk-root .wk-key-row{padding-block-start:8px;border-block-start:1px solid var(--wk-border)}
.wk-root .wk-secret{padding-block:4px}
.wk-root[dir="rtl"] .wk-flip{transform:scaleX(-1)}
.wk-root .wk-amount-input{font-variant-numeric:tabular-nums}
@container (max-width:420px){.wk-root .wk-tabs{flex-wrap:wrap}.wk-root .wk-tab{padding:8px 10px;font-size:13px}.wk-root .wk-amount{font-size:20px}.wk-root .wk-surface{padding:12px}}
`;
