import type { QueryName, QueryRequestOf, QueryResponseOf } from '@walletkit/protocol';
import type { Db } from '../../store/db.js';
import type { Caller, Services } from '../context.js';

/** What a read handler sees: the database (no transaction needed), target org, caller. */
export interface QueryContext extends Services {
  db: Db;
  organizationId: string;
  caller: Caller;
}

export type QueryHandler<N extends QueryName> = (request: QueryRequestOf<N>, ctx: QueryContext) => Promise<QueryResponseOf<N>>;

export type QueryTable = { [N in QueryName]?: QueryHandler<N> };
