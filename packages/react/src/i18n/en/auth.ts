/** auth: the English messages (the catalog's keys and its fallback). */
export const auth = {} as const;
