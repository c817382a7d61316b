import type { auth as en } from '../en/auth.js';

/** auth: Japanese. */
export const auth = {} satisfies Record<keyof typeof en, string>;
