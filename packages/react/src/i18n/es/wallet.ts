import type { wallet as en } from '../en/wallet.js';

/** wallet: Spanish. */
export const wallet = {} satisfies Record<keyof typeof en, string>;
