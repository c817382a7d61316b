/**
 * The auth area's rules of the kit's stylesheet (theme/styles.ts): every selector under
 * `.wk-root`, logical properties only (Arabic mirrors the layout), colours from `--wk-*`.
 * The auth modal (`.wk-auth`): close button at the header's inline end, the app's logo, name
 * and heading centred, one column of full-width controls, an "or" rule, a row of social marks,
 * link-style secondary buttons, the success state, the legal line (running buttons carry an SVG
 * spinner, icons.tsx: no @keyframes, whose steps are not `.wk-root` selectors).
 */
export const authCss = `
.wk-root.wk-auth{padding-block-start:20px}
.wk-root.wk-auth .wk-dialog-header{flex-direction:column;justify-content:center;text-align:center;gap:10px;position:relative;padding-inline:36px}
.wk-root.wk-auth .wk-dialog-close{position:absolute;inset-block-start:-8px;inset-inline-end:-12px;padding:6px 10px;font-size:20px;line-height:1}
.wk-root .wk-brand{display:flex;flex-direction:column;align-items:center;gap:8px}
.wk-root .wk-brand-logo{display:block;max-width:160px;max-height:56px;object-fit:contain}
.wk-root .wk-brand-name{font-size:14px;font-weight:600;color:var(--wk-muted)}
.wk-root .wk-or{display:flex;align-items:center;gap:12px;font-size:13px;color:var(--wk-muted);margin-block:4px}
.wk-root .wk-or::before,.wk-root .wk-or::after{content:"";flex:1;border-block-start:1px solid var(--wk-border)}
.wk-root .wk-social-row{display:flex;gap:8px}
.wk-root .wk-social-row>.wk-button{flex:1;min-width:0;padding-inline:8px}
.wk-root .wk-button .wk-icon{flex-shrink:0}
.wk-root .wk-button[data-variant="link"]{background:transparent;border-color:transparent;color:var(--wk-accent);text-decoration:underline;padding-block:4px;font-size:14px}
.wk-root .wk-button[aria-disabled="true"]{cursor:progress}
.wk-root .wk-otp[aria-busy="true"] .wk-otp-cell{opacity:.7}
.wk-root .wk-success{display:flex;flex-direction:column;align-items:center;gap:8px;padding-block:16px;text-align:center;color:var(--wk-fg)}
.wk-root .wk-success p{margin:0;font-weight:500}
.wk-root .wk-success-icon{width:44px;height:44px;color:var(--wk-accent)}
.wk-root .wk-legal{font-size:12px;color:var(--wk-muted);text-align:center;margin:0;margin-block-start:16px}
.wk-root .wk-legal .wk-link{color:inherit;text-decoration:underline}
`;
