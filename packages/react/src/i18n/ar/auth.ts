import type { auth as en } from '../en/auth.js';

/** auth: Arabic. */
export const auth = {} satisfies Record<keyof typeof en, string>;
