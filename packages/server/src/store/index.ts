export * from './db.js';
export { newId, newSortableId, sortableIdTime } from './ids.js';
export { loadMigrations, migrate, MIGRATIONS_DIR, type Migration } from './migrate.js';
export { LOCK_FILE, type DirLock } from './lock.js';
export * as schema from './schema.js';
