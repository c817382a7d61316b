import type { HandlerTable } from '../context';

export const oauth2Handlers = {} satisfies HandlerTable;
