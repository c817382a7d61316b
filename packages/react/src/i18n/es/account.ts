import type { account as en } from '../en/account.js';

/** account: Spanish. */
export const account = {} satisfies Record<keyof typeof en, string>;
