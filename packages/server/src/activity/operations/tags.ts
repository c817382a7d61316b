import type { HandlerTable } from '../context';

export const tagHandlers = {} satisfies HandlerTable;
