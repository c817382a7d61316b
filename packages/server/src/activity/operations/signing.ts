import type { HandlerTable } from '../context';

export const signingHandlers = {} satisfies HandlerTable;
