import type { HandlerTable } from '../context';

export const userHandlers = {} satisfies HandlerTable;
