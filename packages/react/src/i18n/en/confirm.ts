/** confirm: the English messages (the catalog's keys and its fallback). */
export const confirm = {} as const;
