import type { confirm as en } from '../en/confirm.js';

/** confirm: Spanish. */
export const confirm = {} satisfies Record<keyof typeof en, string>;
