/** wallet: the English messages (the catalog's keys and its fallback). */
export const wallet = {} as const;
