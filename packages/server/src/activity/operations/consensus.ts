import type { HandlerTable } from '../context';

export const consensusHandlers = {} satisfies HandlerTable;
