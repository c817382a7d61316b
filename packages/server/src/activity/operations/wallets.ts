import type { HandlerTable } from '../context';

export const walletHandlers = {} satisfies HandlerTable;
