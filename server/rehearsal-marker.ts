import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE, ensurePrivateDirectory, makeFilesPrivate } from './shared/private-files';

/**
 * How the operator CLI knows that the platform runs as a rehearsal (`REHEARSAL=true`, docs/rehearsal.md): while it
 * runs, the rehearsal's server keeps `DATA_DIR/rehearsal.json` (its pid and address, owner-only) beside its SQLite
 * database, and removes it when it stops. A server that is not a rehearsal removes a file left there by a rehearsal
 * that crashed, so a data directory a real deployment uses never carries one for long.
 */
export const REHEARSAL_MARKER_FILE = 'rehearsal.json';

interface RehearsalMarker {
  pid: number;
  baseUrl: string;
  startedAt: string;
}

const markerPath = (dataDir: string) => path.join(dataDir, REHEARSAL_MARKER_FILE);

export function writeRehearsalMarker(dataDir: string, marker: RehearsalMarker): void {
  ensurePrivateDirectory(dataDir);
  const file = markerPath(dataDir);
  fs.writeFileSync(file, `${JSON.stringify(marker)}\n`, { mode: PRIVATE_FILE_MODE });
  makeFilesPrivate(file);
}

export function removeRehearsalMarker(dataDir: string): void {
  fs.rmSync(markerPath(dataDir), { force: true });
}

/**
 * True while a rehearsal's server runs on this configuration's database: no DATABASE_URL (a rehearsal keeps its own
 * SQLite database), the marker in DATA_DIR, and its process alive.
 */
export function rehearsalRunning(config: { DATA_DIR: string; DATABASE_URL?: string | undefined }): boolean {
  if (config.DATABASE_URL) return false;
  let marker: Partial<RehearsalMarker>;
  try {
    marker = JSON.parse(fs.readFileSync(markerPath(config.DATA_DIR), 'utf8')) as Partial<RehearsalMarker>;
  } catch {
    return false;
  }
  if (!Number.isSafeInteger(marker.pid) || (marker.pid as number) <= 0) return false;
  try {
    process.kill(marker.pid as number, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists under another user, which a rehearsal's server (the operator's own) never is.
    return false;
  }
}
