/** account: the English messages (the catalog's keys and its fallback). */
export const account = {} as const;
