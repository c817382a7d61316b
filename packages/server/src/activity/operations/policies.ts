import type { HandlerTable } from '../context';

export const policyHandlers = {} satisfies HandlerTable;
