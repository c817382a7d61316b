import type { confirm as en } from '../en/confirm.js';

/** confirm: Arabic. */
export const confirm = {} satisfies Record<keyof typeof en, string>;
