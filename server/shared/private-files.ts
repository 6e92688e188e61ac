import fs from 'node:fs';
import path from 'node:path';

/**
 * What the platform keeps on disk (the SQLite database and its -wal/-shm, backups, the generated
 * master key, e-mails with sign-in and reset links, recordings) is for the server's own user only:
 * folders 0700, files 0600. Modes are set explicitly after creation, never left to the process
 * umask (which only narrows what `open`/`mkdir` ask for, and may be anything). Node only: the
 * browser bundles never import this.
 */
export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** The folder and every missing folder above it, created owner-only; the folder itself is made owner-only if it existed. */
export function ensurePrivateDirectory(directory: string): void {
  const target = path.resolve(directory);
  const firstCreated = fs.mkdirSync(target, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  for (const created of createdBetween(firstCreated, target)) fs.chmodSync(created, PRIVATE_DIRECTORY_MODE);
  fs.chmodSync(target, PRIVATE_DIRECTORY_MODE);
}

/** `ensurePrivateDirectory`, without blocking the event loop. */
export async function ensurePrivateDirectoryAsync(directory: string): Promise<void> {
  const target = path.resolve(directory);
  const firstCreated = await fs.promises.mkdir(target, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  for (const created of createdBetween(firstCreated, target)) await fs.promises.chmod(created, PRIVATE_DIRECTORY_MODE);
  await fs.promises.chmod(target, PRIVATE_DIRECTORY_MODE);
}

/** The folders `mkdir -p` created: from the first one it reports down to the target. */
function createdBetween(firstCreated: string | undefined, target: string): string[] {
  if (!firstCreated) return [];
  const folders: string[] = [];
  for (let at = target; at.startsWith(firstCreated); at = path.dirname(at)) {
    folders.push(at);
    if (at === firstCreated || at === path.dirname(at)) break;
  }
  return folders;
}

/** Makes each of the files that exist owner read/write only (a file that does not exist is skipped). */
export function makeFilesPrivate(...files: string[]): void {
  for (const file of files) {
    try {
      fs.chmodSync(file, PRIVATE_FILE_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** Creates a new file (never an existing one) owner read/write only, with the given content. */
export async function writePrivateFile(file: string, content: string | Uint8Array): Promise<void> {
  const handle = await fs.promises.open(file, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.chmod(PRIVATE_FILE_MODE);
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}
