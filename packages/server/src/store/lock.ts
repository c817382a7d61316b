/**
 * One process at a time per embedded data directory: PGlite is a single-process database,
 * two servers on one directory would corrupt it. The lock is a file `<dataDir>/walletkit.lock`
 * whose first line is the holder's pid (then hostname, process start time, date, a nonce).
 * A lock whose pid is dead (or reused by another process, checked through the process start
 * time on Linux) is stale and taken over. Released by DirLock.release() and, as a last resort,
 * when the process exits normally.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const LOCK_FILE = 'walletkit.lock';

export class StoreLockedError extends Error {
  /** Absolute path of the data directory. */
  readonly dataDir: string;
  /** Pid of the process holding it. */
  readonly pid: number;
  override name = 'StoreLockedError';

  constructor(
    dataDir: string,
    pid: number,
    /** The directory as the caller named it (used in the message). */
    displayDir: string = dataDir,
    sameProcess = false,
  ) {
    super(
      sameProcess
        ? `data directory ${displayDir} is already open in this process (pid ${pid}); close that store first or use another --data-dir`
        : `data directory ${displayDir} is in use by another walletkit-server process (pid ${pid}); stop it or use --data-dir`,
    );
    this.dataDir = dataDir;
    this.pid = pid;
  }
}

export interface DirLock {
  /** Absolute path of the lock file. */
  readonly path: string;
  /** Removes the lock file if it is still ours. Idempotent. */
  release(): void;
}

/** Lock files held by this process: path -> the exact content we wrote. */
const held = new Map<string, string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [path, content] of held) removeIfOurs(path, content);
    held.clear();
  });
}

/** Start time of a process in clock ticks since boot (Linux /proc), to detect pid reuse. */
function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) is parenthesised and may contain spaces; fields resume after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19]; // field 22, starttime
  } catch {
    return undefined;
  }
}

interface LockInfo {
  pid: number;
  startTime: string;
}

function parseLock(content: string): LockInfo {
  const lines = content.split('\n');
  return { pid: Number.parseInt(lines[0] ?? '', 10), startTime: (lines[2] ?? '').trim() };
}

function isAlive(info: LockInfo): boolean {
  if (!Number.isInteger(info.pid) || info.pid <= 0) return false; // unreadable: treat as stale
  // Our own pid but not held by us (checked by the caller): left by an earlier process
  // that had the same pid (typical in containers, where the server is pid 1).
  if (info.pid === process.pid) return false;
  try {
    process.kill(info.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
  if (info.startTime) {
    const now = processStartTime(info.pid);
    if (now !== undefined && now !== info.startTime) return false; // pid reused
  }
  return true;
}

function readIfExists(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function removeIfOurs(path: string, content: string): void {
  try {
    if (readIfExists(path) === content) unlinkSync(path);
  } catch {
    // best effort: a leftover lock of a dead pid is taken over on the next start
  }
}

function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // ignore
  }
}

/** Atomically creates `path` with `content`; false if it already exists. */
function createExclusive(path: string, content: string): boolean {
  // Write a private file, then hard-link it into place: the lock appears complete or not at all.
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, content);
  try {
    linkSync(tmp, path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EXDEV') throw err;
  } finally {
    tryUnlink(tmp);
  }
  // File systems without hard links: O_EXCL create, then write.
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Takes the lock of `dir` (absolute, existing) or throws StoreLockedError naming the holder.
 * `displayDir` is how the directory appears in the error message.
 */
export function lockDataDir(dir: string, displayDir: string = dir): DirLock {
  const path = join(dir, LOCK_FILE);
  if (held.has(path)) throw new StoreLockedError(dir, process.pid, displayDir, true);
  const content = `${[process.pid, hostname(), processStartTime(process.pid) ?? '', new Date().toISOString(), randomBytes(8).toString('hex')].join('\n')}\n`;

  for (let attempt = 0; attempt < 8; attempt++) {
    if (createExclusive(path, content)) {
      held.set(path, content);
      installExitHook();
      return {
        path,
        release: () => {
          if (held.get(path) !== content) return;
          held.delete(path);
          removeIfOurs(path, content);
        },
      };
    }
    const current = readIfExists(path);
    if (current === null) continue; // released meanwhile: try again
    const info = parseLock(current);
    if (isAlive(info)) throw new StoreLockedError(dir, info.pid, displayDir);
    // Stale. Move it aside atomically, then make sure what we moved is the stale lock and
    // not a fresh one another starting process created since we read it.
    const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
    try {
      renameSync(path, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    const moved = readIfExists(aside);
    if (moved !== null && moved !== current) {
      // We moved someone's live lock: put it back (fails harmlessly if a third one exists).
      try {
        linkSync(aside, path);
      } catch {
        // ignore
      }
    }
    tryUnlink(aside);
  }
  throw new Error(`could not lock data directory ${displayDir}: its lock file ${path} keeps changing`);
}
