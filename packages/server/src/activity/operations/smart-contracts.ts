import type { HandlerTable } from '../context';

export const smartContractHandlers = {} satisfies HandlerTable;
