/** The account area's rules of the kit's stylesheet (theme/styles.ts): every selector under `.wk-root`, logical properties only. */
export const accountCss = ``;
