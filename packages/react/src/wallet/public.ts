/** Public exports of the wallet area added by issue 15 (re-exported by the package index). */
export {};
