import type { wallet as en } from '../en/wallet.js';

/** wallet: German. */
export const wallet = {} satisfies Record<keyof typeof en, string>;
