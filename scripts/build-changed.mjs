#!/usr/bin/env node
/**
 * `npm start`'s build step: rebuilds a bundle only when its inputs changed since it was last built.
 *
 * Each bundle's stamp, `dist/<name>.stamp`, next to its output folder, holds a SHA-256 over the path, size and mtime of
 * every file of the bundle's inputs (the source folders it can import from, its build configuration, package.json and
 * package-lock.json). A bundle is rebuilt when its stamp is missing or differs, or when one of its output files is missing; the
 * stamp is written only after its build succeeded. `--force` (or BUILD_FORCE=1) rebuilds everything; `--only a,b` looks
 * at those bundles only (`npm run admin` checks just the server's).
 *
 * Plain Node (no TypeScript loader) and one process for all bundles: a start with nothing to rebuild costs tens of
 * milliseconds here, not six `npm run` processes. `npm start` runs it with `--then dist/server/main.js`: the server then
 * starts in the same process.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COMMON = ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build-changed.mjs'];

/** name → its npm script, the inputs it can read, and files its build always writes. */
export const BUNDLES = [
  { name: 'server', script: 'build:server', inputs: ['server', 'demo/server', 'widget', 'dashboard'], outputs: ['dist/server/main.js', 'dist/server/cli/admin.js'] },
  { name: 'checkout-server', script: 'build:checkout-server', inputs: ['server', 'tsconfig.checkout-server.json'], outputs: ['dist/checkout-server/index.js'] },
  { name: 'widget', script: 'build:widget', inputs: ['widget', 'server/shared', 'vite.config.ts', 'vite.lib.config.ts'], outputs: ['dist/widget/checkout.js', 'dist/widget-lib/index.js'] },
  { name: 'demo', script: 'build:demo', inputs: ['demo', 'widget', 'server/shared'], outputs: ['dist/demo/demo.js'] },
  { name: 'my-loan', script: 'build:my-loan', inputs: ['widget', 'server/shared'], outputs: ['dist/my-loan/my-loan.js'] },
  { name: 'meeting', script: 'build:meeting', inputs: ['widget', 'server/shared'], outputs: ['dist/meeting/meeting.js'] },
  { name: 'dashboard', script: 'build:dashboard', inputs: ['dashboard', 'widget', 'server/shared'], outputs: ['dist/dashboard/dashboard.js'] },
  { name: 'ops', script: 'build:ops', inputs: ['dashboard', 'widget', 'server/shared'], outputs: ['dist/ops/ops.js'] },
];

function walk(root, relative, out) {
  const absolute = path.join(root, relative);
  let stat;
  try {
    stat = fs.statSync(absolute);
  } catch {
    out.push(`${relative}\tmissing`);
    return;
  }
  if (stat.isDirectory()) {
    for (const entry of fs.readdirSync(absolute).sort()) {
      if (entry === 'node_modules' || entry.startsWith('.')) continue;
      walk(root, path.posix.join(relative, entry), out);
    }
  } else {
    out.push(`${relative}\t${stat.size}\t${Math.trunc(stat.mtimeMs)}`);
  }
}

/** The stamp of a bundle's inputs under `root` (the repository). */
export function inputsStamp(bundle, root = ROOT) {
  const lines = [`script\t${bundle.script}`];
  for (const input of [...COMMON, ...bundle.inputs]) walk(root, input, lines);
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

const stampFile = (bundle) => path.join(ROOT, 'dist', `${bundle.name}.stamp`);

function main() {
  const force = process.argv.includes('--force') || process.env.BUILD_FORCE === '1';
  // `--only server,widget`: just those bundles (the operator CLI needs only the server's).
  const only = process.argv.indexOf('--only');
  const names = only === -1 ? null : new Set((process.argv[only + 1] ?? '').split(','));
  const stale = BUNDLES.filter((bundle) => !names || names.has(bundle.name)).map((bundle) => ({ bundle, stamp: inputsStamp(bundle) })).filter(({ bundle, stamp }) => {
    if (force || bundle.outputs.some((output) => !fs.existsSync(path.join(ROOT, output)))) return true;
    try {
      return fs.readFileSync(stampFile(bundle), 'utf8').trim() !== stamp;
    } catch {
      return true;
    }
  });
  if (stale.length === 0) return;
  process.stdout.write(`Building ${stale.map(({ bundle }) => bundle.name).join(', ')} (inputs changed since the last build)…\n`);
  const npm = process.env.npm_execpath;
  for (const { bundle, stamp } of stale) {
    fs.rmSync(stampFile(bundle), { force: true });
    const started = performance.now();
    const result = npm
      ? spawnSync(process.execPath, [npm, 'run', '-s', bundle.script], { cwd: ROOT, stdio: 'inherit' })
      : spawnSync('npm', ['run', '-s', bundle.script], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
    if (result.status !== 0) {
      process.stderr.write(`build of ${bundle.name} failed (npm run ${bundle.script})\n`);
      process.exit(result.status ?? 1);
    }
    fs.mkdirSync(path.dirname(stampFile(bundle)), { recursive: true });
    fs.writeFileSync(stampFile(bundle), `${stamp}\n`);
    process.stdout.write(`  ${bundle.name} built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main();
  // `--then <file>`: run that module in this process once the bundles are fresh (npm start: the server), saving the
  // start of a second Node process.
  const then = process.argv.indexOf('--then');
  if (then !== -1 && process.argv[then + 1]) await import(pathToFileURL(path.resolve(ROOT, process.argv[then + 1])).href);
}
