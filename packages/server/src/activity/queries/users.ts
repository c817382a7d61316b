import type { QueryTable } from './context';

export const userQueries = {} satisfies QueryTable;
