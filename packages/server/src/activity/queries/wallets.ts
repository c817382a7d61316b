import type { QueryTable } from './context';

export const walletQueries = {} satisfies QueryTable;
