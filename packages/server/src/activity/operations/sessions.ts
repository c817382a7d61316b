import type { HandlerTable } from '../context';

export const sessionHandlers = {} satisfies HandlerTable;
