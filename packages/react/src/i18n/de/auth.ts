import type { auth as en } from '../en/auth.js';

/** auth: German. */
export const auth = {} satisfies Record<keyof typeof en, string>;
