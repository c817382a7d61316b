import type { confirm as en } from '../en/confirm.js';

/** confirm: Japanese. */
export const confirm = {} satisfies Record<keyof typeof en, string>;
