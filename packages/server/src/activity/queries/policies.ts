import type { QueryTable } from './context';

export const policyQueries = {} satisfies QueryTable;
