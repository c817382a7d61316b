import type { HandlerTable } from '../context';

export const privateKeyHandlers = {} satisfies HandlerTable;
