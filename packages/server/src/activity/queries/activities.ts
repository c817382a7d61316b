/**
 * Activity reads: get_activity and list_activities (newest first, filtered by status and
 * type, cursor pagination by activity id), always within the target organization.
 */
import { and, asc, desc, eq, gt, inArray, lt, or, type SQL } from 'drizzle-orm';
import type { Activity } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import type { Executor } from '../../store/db.js';
import { activities, activityVotes } from '../../store/schema.js';
import { toActivity } from '../record.js';
import type { QueryTable } from './context.js';

type ActivityRow = typeof activities.$inferSelect;
const DEFAULT_LIMIT = 10;

/** The wire records of rows as `viewerUserId` may see them (record.ts), with their votes in the order cast. */
async function withVotes(db: Executor, rows: ActivityRow[], viewerUserId: string): Promise<Activity[]> {
  if (rows.length === 0) return [];
  const votes = await db
    .select()
    .from(activityVotes)
    .where(
      inArray(
        activityVotes.activityId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(activityVotes.createdAt), asc(activityVotes.id));
  return rows.map((row) =>
    toActivity(
      row,
      votes.filter((v) => v.activityId === row.id),
      viewerUserId,
    ),
  );
}

async function cursorRow(db: Executor, organizationId: string, id: string, field: string): Promise<ActivityRow> {
  const [row] = await db
    .select()
    .from(activities)
    .where(and(eq(activities.id, id), eq(activities.organizationId, organizationId)));
  if (!row) throw new ApiError('ERR_ACTIVITY_NOT_FOUND', `cursor activity ${id} not found`, field);
  return row;
}

// Position in the list order (createdAt, then id): strictly older / newer than a cursor.
const olderThan = (c: ActivityRow): SQL => or(lt(activities.createdAt, c.createdAt), and(eq(activities.createdAt, c.createdAt), lt(activities.id, c.id)))!;
const newerThan = (c: ActivityRow): SQL => or(gt(activities.createdAt, c.createdAt), and(eq(activities.createdAt, c.createdAt), gt(activities.id, c.id)))!;

/** Read handlers of activities. */
export const activityQueries = {
  get_activity: async (request, ctx) => {
    const [row] = await ctx.db
      .select()
      .from(activities)
      .where(and(eq(activities.id, request.activityId), eq(activities.organizationId, ctx.organizationId)));
    if (!row) throw new ApiError('ERR_ACTIVITY_NOT_FOUND', `activity ${request.activityId} not found`, 'activityId');
    const [activity] = await withVotes(ctx.db, [row], ctx.caller.userId);
    return { activity: activity! };
  },

  /**
   * `after` continues the list past a cursor (older activities); `before` returns the page
   * just ahead of it (newer ones), still newest first.
   */
  list_activities: async (request, ctx) => {
    const page = request.paginationOptions;
    const limit = page?.limit ? Number(page.limit) : DEFAULT_LIMIT;
    const where: Array<SQL | undefined> = [eq(activities.organizationId, ctx.organizationId)];
    if (request.filterByStatus?.length) where.push(inArray(activities.status, request.filterByStatus));
    if (request.filterByType?.length) where.push(inArray(activities.type, request.filterByType));
    if (page?.after) where.push(olderThan(await cursorRow(ctx.db, ctx.organizationId, page.after, 'paginationOptions.after')));
    if (page?.before) where.push(newerThan(await cursorRow(ctx.db, ctx.organizationId, page.before, 'paginationOptions.before')));
    // With only `before`, take the newest-but-nearest page: ascending from the cursor, reversed.
    const ascending = page?.before !== undefined && page.after === undefined;
    const order = ascending ? [asc(activities.createdAt), asc(activities.id)] : [desc(activities.createdAt), desc(activities.id)];
    const rows = await ctx.db
      .select()
      .from(activities)
      .where(and(...where))
      .orderBy(...order)
      .limit(limit);
    if (ascending) rows.reverse();
    return { activities: await withVotes(ctx.db, rows, ctx.caller.userId) };
  },
} satisfies QueryTable;
