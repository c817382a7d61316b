import type { QueryTable } from './context';

export const organizationQueries = {} satisfies QueryTable;
