import type { HandlerTable } from '../context';

export const organizationHandlers = {} satisfies HandlerTable;
