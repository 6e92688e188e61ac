import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { backupSqlite } from '../../server/platform/db/sqlite-backup';

/**
 * SQLite only: the backup when the source cannot be read. better-sqlite3 resolves a backup whose
 * first step finds the source locked as done with `{totalPages: 0}` and no file; `backupSqlite`
 * must not take that for a backup.
 */
let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function source(): { file: string; lock(): SQLite.Database } {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lending-backup-busy-'));
  const file = path.join(dir, 'platform.sqlite');
  const setup = new SQLite(file);
  setup.pragma('journal_mode = WAL');
  setup.exec("create table t (x integer); insert into t values (1), (2);");
  setup.close();
  return {
    file,
    // Another connection holding the database in exclusive locking mode, mid-transaction: no one else can read.
    lock() {
      const locker = new SQLite(file);
      locker.pragma('locking_mode = EXCLUSIVE');
      locker.exec('begin immediate; insert into t values (3);');
      return locker;
    },
  };
}

describe('backupSqlite on a locked source', () => {
  it('fails after its attempts, leaving no file at the target and nothing beside it', async () => {
    const { file, lock } = source();
    const locker = lock();
    const target = path.join(dir, 'backup.sqlite');
    await expect(backupSqlite(file, target, { busyTimeoutMs: 20 })).rejects.toThrow(/busy through 3 attempts/);
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.readdirSync(dir).filter((f) => !f.startsWith('platform.sqlite'))).toEqual([]);
    locker.close();
  });

  it('tries again once the lock is gone, and the copy holds what was committed meanwhile', async () => {
    const { file, lock } = source();
    const locker = lock();
    // Released while the backup waits between its first and second attempts.
    setTimeout(() => {
      locker.exec('commit');
      locker.close();
    }, 10);
    const target = path.join(dir, 'backup.sqlite');
    const result = await backupSqlite(file, target, { busyTimeoutMs: 20 });
    expect(result.pages).toBeGreaterThan(0);
    const copy = new SQLite(target, { readonly: true });
    expect(copy.prepare('select x from t order by x').pluck().all()).toEqual([1, 2, 3]);
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    copy.close();
  });
});
