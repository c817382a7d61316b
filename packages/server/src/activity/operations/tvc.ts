import type { HandlerTable } from '../context';

export const tvcHandlers = {} satisfies HandlerTable;
