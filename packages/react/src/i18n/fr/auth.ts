import type { auth as en } from '../en/auth.js';

/** auth: French. */
export const auth = {} satisfies Record<keyof typeof en, string>;
