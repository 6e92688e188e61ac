/**
 * `npm run build:sdk`: checks that the generated types are current, compiles `sdk/src` to `sdk/dist` (JavaScript,
 * declarations, source maps), then packs the package into `dist/sdk/lending-platform-client-<version>.tgz`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCHEMA_FILE, generateSchema } from './generate-schema';

const sdk = fileURLToPath(new URL('..', import.meta.url));
const root = path.resolve(sdk, '..');
const packDir = path.join(root, 'dist', 'sdk');

if ((await generateSchema()) !== fs.readFileSync(SCHEMA_FILE, 'utf8')) {
  console.error('sdk/src/schema.d.ts is stale: run npm run sdk:schema, review and commit it');
  process.exit(1);
}
fs.rmSync(path.join(sdk, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(sdk, 'tsconfig.json')], { stdio: 'inherit' });
// tsc does not copy declaration files it only reads: the generated types travel as they are.
fs.copyFileSync(SCHEMA_FILE, path.join(sdk, 'dist', 'schema.d.ts'));
fs.mkdirSync(packDir, { recursive: true });
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const output = execFileSync(npm, ['pack', '--silent', '--pack-destination', packDir], { cwd: sdk, encoding: 'utf8' });
console.log(path.relative(process.cwd(), path.join(packDir, output.trim().split('\n').pop()!)));
