/** Public exports of the auth area added by issue 15 (re-exported by the package index). */
export {};
