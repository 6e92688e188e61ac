import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer } from '../../server/app';
import { loadConfig } from '../../server/config';
import { backupSqlite } from '../../server/platform/db/sqlite-backup';
import { createLogger } from '../../server/platform/log/create-logger';
import { createPlatform } from '../../server/platform/platform';
import { signedInOwner } from '../support/dashboard';
import { freshDatabaseEnv, type TestApp } from '../support/harness';

/**
 * DATA_DIR holds the database, its backups, the generated master key, e-mails with sign-in and reset
 * links and recordings: folders 0700, files 0600, whatever the process umask. The platform runs in
 * this test process under a permissive umask (022), so every mode checked here was set by the
 * platform itself (`npm start` also narrows its umask, which would hide a writer that forgot).
 */
let previousUmask: number;
beforeAll(() => {
  previousUmask = process.umask(0o022);
});
afterAll(() => {
  process.umask(previousUmask);
});

/** Every file and folder under `root`, with its permission bits. */
function modesUnder(root: string): Array<{ path: string; directory: boolean; mode: number }> {
  const found: Array<{ path: string; directory: boolean; mode: number }> = [];
  const visit = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      found.push({ path: path.relative(root, full), directory: entry.isDirectory(), mode: fs.statSync(full).mode & 0o777 });
      if (entry.isDirectory()) visit(full);
    }
  };
  visit(root);
  return found;
}

const octal = (mode: number) => `0${mode.toString(8)}`;

describe('the data directory', () => {
  it('after a sign-up e-mail, recordings, a generated master key and a backup, every file under DATA_DIR is 0600 and every folder 0700, under umask 022', async () => {
    const database = await freshDatabaseEnv();
    // As an earlier version (or mkdir under umask 022) left it.
    fs.chmodSync(database.dataDir, 0o755);
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', BOOTSTRAP_SANDBOX: 'false', ...database.env });
    const platform = await createPlatform(config, { logger: createLogger('silent'), pgSchema: database.pgSchema, sqliteFile: path.join(database.dataDir, 'platform.sqlite') });
    const web = await startWebServer(platform, { port: 0, host: '127.0.0.1' });
    try {
      await signedInOwner({ url: web.url, platform, dataDir: database.dataDir } as TestApp);
      await platform.files.put('recordings/appointment-1/one.webm', Buffer.from('recording'), 'video/webm');
      await platform.files.putStream('recordings/appointment-1/two.webm', Readable.from([Buffer.from('chunk')]), 'video/webm', 5);
      if (platform.dialect === 'sqlite') await backupSqlite(path.join(database.dataDir, 'platform.sqlite'), path.join(database.dataDir, 'platform-backup.sqlite'));

      const entries = modesUnder(database.dataDir);
      const files = entries.filter((e) => !e.directory).map((e) => e.path);
      expect(files).toEqual(expect.arrayContaining(['master.key', path.join('files', 'recordings', 'appointment-1', 'one.webm'), path.join('files', 'recordings', 'appointment-1', 'two.webm')]));
      expect(files.filter((f) => f.startsWith(`mail${path.sep}`) && f.endsWith('.json')).length).toBeGreaterThan(0);
      if (platform.dialect === 'sqlite') expect(files).toEqual(expect.arrayContaining(['platform.sqlite', 'platform.sqlite-wal', 'platform.sqlite-shm', 'platform-backup.sqlite']));
      expect(octal(fs.statSync(database.dataDir).mode & 0o777)).toBe('0700');
      for (const entry of entries) expect(octal(entry.mode), entry.path).toBe(entry.directory ? '0700' : '0600');
    } finally {
      await web.stop();
      await platform.close();
      await database.drop();
    }
  });
});
