import type { confirm as en } from '../en/confirm.js';

/** confirm: French. */
export const confirm = {} satisfies Record<keyof typeof en, string>;
