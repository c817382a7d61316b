import type { QueryTable } from './context';

export const activityQueries = {} satisfies QueryTable;
