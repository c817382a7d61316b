// Column helpers shared by the schema files (schema.ts and the files it re-exports).
import { timestamp } from 'drizzle-orm/pg-core';

/** A timestamp with time zone, read as a Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/** `created_at`, set by the database on insert. */
export const created = () => ts('created_at').notNull().defaultNow();
/** `updated_at`, set by the database on insert (writers set it on update). */
export const updated = () => ts('updated_at').notNull().defaultNow();
