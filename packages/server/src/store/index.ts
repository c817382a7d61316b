export * from './db';
export { newId, newSortableId, sortableIdTime } from './ids';
export { loadMigrations, migrate, MIGRATIONS_DIR, type Migration } from './migrate';
export { LOCK_FILE, type DirLock } from './lock';
export * as schema from './schema';
