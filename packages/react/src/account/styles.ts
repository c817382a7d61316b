/**
 * The account area's rules of the kit's stylesheet (theme/styles.ts): every selector under
 * `.wk-root`, colors only from the `--wk-*` variables, logical properties only (the screen
 * mirrors under `dir="rtl"`). The Security screen: titled sections, one row per sign-in method,
 * passkey or session (what it is at the start, its actions at the end, wrapping on narrow
 * panels), destructive buttons in the danger color, the inline code step indented; the status
 * line takes no room while empty but stays a live region (never display:none, which would mute it).
 */
export const accountCss = `
.wk-root .wk-security{gap:18px}
.wk-root .wk-account-notice:empty{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.wk-root .wk-account-section{gap:8px}
.wk-root .wk-account-heading{font-size:15px;font-weight:600;margin:0}
.wk-root .wk-account-list{gap:0;border:1px solid var(--wk-border);border-radius:var(--wk-radius)}
.wk-root .wk-account-item{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:8px 12px;padding:10px 12px}
.wk-root .wk-account-item+.wk-account-item{border-block-start:1px solid var(--wk-border)}
.wk-root .wk-account-item-main{display:flex;align-items:center;gap:10px;min-width:0;flex:1 1 200px}
.wk-root .wk-account-icon{display:inline-flex;flex:none;color:var(--wk-muted)}
.wk-root .wk-account-item-text{min-width:0}
.wk-root .wk-account-item-text .wk-mono{overflow-wrap:anywhere}
.wk-root .wk-account-item-title{margin:0;font-weight:500}
.wk-root .wk-account-item [data-verified="true"]{color:var(--wk-fg)}
.wk-root .wk-account-actions{justify-content:flex-end}
.wk-root .wk-account-action{display:flex;flex-direction:column;align-items:flex-end;gap:4px}
.wk-root .wk-account-item>.wk-account-form,.wk-root .wk-account-item>.wk-hint,.wk-root .wk-account-item>.wk-error{flex-basis:100%}
.wk-root .wk-account-form{padding-inline-start:30px}
.wk-root .wk-account-form .wk-otp{justify-content:flex-start}
.wk-root .wk-account-add>.wk-input{flex:1 1 160px;width:auto;min-width:0}
.wk-root .wk-security .wk-button[data-variant="danger"]{color:var(--wk-danger)}
`;
