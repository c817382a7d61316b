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

/** Read handlers of some queries (one domain's file). */
export type QueryTable = { [N in QueryName]?: QueryHandler<N> };

/** Every query's handler (queries/index.ts). A query without one does not compile. */
export type Queries = { [N in QueryName]: QueryHandler<N> };
