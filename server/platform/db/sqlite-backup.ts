import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { makeFilesPrivate, PRIVATE_FILE_MODE } from '../../shared/private-files';

export interface SqliteBackupResult {
  /** Absolute path of the backup. */
  file: string;
  bytes: number;
  pages: number;
  durationMs: number;
  /**
   * The copy is the database as it was at one instant between these two (ISO times): every commit
   * before `startedAt` is in it, none after `finishedAt`.
   */
  startedAt: string;
  finishedAt: string;
}

/** Why a backup was refused before anything was written at the target. */
export class SqliteBackupRefused extends Error {
  constructor(
    readonly code: 'BACKUP_TARGET_EXISTS' | 'BACKUP_SOURCE_MISSING' | 'BACKUP_TARGET_INVALID',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Pages per backup step: everything at once. SQLite restarts an online backup whenever another
 * connection (the running server) writes between two steps, so under steady writes a backup taken
 * in small steps may never finish. One step reads every page inside one read transaction: in WAL
 * mode that never blocks the server's writers (they append to the WAL; the reader sees the last
 * commit before it began), and the copy is exactly that commit.
 */
const ALL_PAGES = 0x7fffffff;

function sameFile(a: string, b: string): boolean {
  try {
    const sa = fs.statSync(a);
    const sb = fs.statSync(b);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false;
  }
}

const ATTEMPTS = 3;

/**
 * One backup of `source` into a new file `partial`, checked. better-sqlite3 resolves a backup as
 * done, `{totalPages: 0}` and no file written, when its first step finds the source locked past
 * the busy timeout (another connection holding it in exclusive locking mode): that case, or
 * any copy whose page count is not the source's, answers undefined (try again).
 */
async function copyOnce(source: string, partial: string, busyTimeoutMs: number): Promise<{ pages: number; startedAt: Date; finishedAt: Date } | undefined> {
  for (const leftover of [partial, `${partial}-journal`, `${partial}-wal`, `${partial}-shm`]) fs.rmSync(leftover, { force: true });
  // The copy holds everything the database does: owner-only from its first byte (SQLite keeps an
  // existing file's mode, and gives its journal the same).
  fs.closeSync(fs.openSync(partial, 'wx', PRIVATE_FILE_MODE));
  makeFilesPrivate(partial);
  const database = new SQLite(source, { fileMustExist: true });
  let pages: number;
  let startedAt: Date;
  let finishedAt: Date;
  try {
    database.pragma(`busy_timeout = ${busyTimeoutMs}`);
    startedAt = new Date();
    ({ totalPages: pages } = await database.backup(partial, { progress: () => ALL_PAGES }));
    finishedAt = new Date();
  } finally {
    database.close();
  }
  if (pages === 0 || !fs.statSync(partial, { throwIfNoEntry: false })?.size) return undefined;
  const copy = new SQLite(partial, { fileMustExist: true });
  try {
    if (copy.pragma('page_count', { simple: true }) !== pages) return undefined;
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the backup failed its integrity check: ${String(check)}`);
  } finally {
    copy.close();
  }
  return { pages, startedAt, finishedAt };
}

function fsync(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A consistent copy of a live SQLite database through SQLite's online backup API, while other
 * processes keep writing. The copy is written beside the target under a temporary name, switched
 * to a rollback journal (one self-contained file, no -wal or -shm beside it), checked
 * (`quick_check`), flushed to disk and only then given the target name, so a failed or
 * interrupted backup never leaves a half-written file there. An existing target is kept unless
 * `force`; the check is atomic (a hard link fails when the name is taken).
 */
export async function backupSqlite(sourceFile: string, targetFile: string, options: { force?: boolean; busyTimeoutMs?: number } = {}): Promise<SqliteBackupResult> {
  const source = path.resolve(sourceFile);
  const target = path.resolve(targetFile);
  if (!fs.existsSync(source)) throw new SqliteBackupRefused('BACKUP_SOURCE_MISSING', `no SQLite database at ${source} (is DATA_DIR right?)`);
  for (const live of [source, `${source}-wal`, `${source}-shm`, `${source}-journal`]) {
    if (target === live || sameFile(target, live)) throw new SqliteBackupRefused('BACKUP_TARGET_INVALID', `the backup target ${target} is the live database (or its journal)`);
  }
  const directory = path.dirname(target);
  if (!fs.existsSync(directory) || !fs.statSync(directory).isDirectory()) {
    throw new SqliteBackupRefused('BACKUP_TARGET_INVALID', `the folder ${directory} does not exist`);
  }
  if (fs.existsSync(target)) {
    if (!options.force) throw new SqliteBackupRefused('BACKUP_TARGET_EXISTS', `${target} exists; pass --force to replace it`);
    if (!fs.statSync(target).isFile()) throw new SqliteBackupRefused('BACKUP_TARGET_INVALID', `${target} is not a file`);
  }

  const partial = path.join(directory, `.${path.basename(target)}.partial-${crypto.randomBytes(6).toString('hex')}`);
  const started = performance.now();
  try {
    let copied: { pages: number; startedAt: Date; finishedAt: Date } | undefined;
    for (let attempt = 1; !copied; attempt += 1) {
      copied = await copyOnce(source, partial, options.busyTimeoutMs ?? 5000);
      if (!copied) {
        if (attempt === ATTEMPTS) throw new Error(`the database stayed busy through ${ATTEMPTS} attempts; nothing was written, run the backup again`);
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
    const { pages, startedAt, finishedAt } = copied;
    makeFilesPrivate(partial);
    fsync(partial);
    if (options.force) {
      fs.renameSync(partial, target);
    } else {
      try {
        fs.linkSync(partial, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new SqliteBackupRefused('BACKUP_TARGET_EXISTS', `${target} exists; pass --force to replace it`);
        throw error;
      }
    }
    fsync(directory);
    return {
      file: target,
      bytes: fs.statSync(target).size,
      pages,
      durationMs: Math.round(performance.now() - started),
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
    };
  } finally {
    for (const leftover of [partial, `${partial}-journal`, `${partial}-wal`, `${partial}-shm`]) fs.rmSync(leftover, { force: true });
  }
}
