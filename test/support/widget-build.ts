import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';

/**
 * Builds the widget into a private folder inside the project (so its imports resolve against the
 * project's node_modules), not dist/widget: test files run in parallel and must not replace the
 * bundle another file's server is serving.
 */
export async function buildWidgetCopy(tag: string): Promise<{ dir: string; scriptFile: string; libDir: string; remove(): void }> {
  const dir = path.resolve('dist', `test-widget-${tag}-${process.pid}`);
  const libDir = path.join(dir, 'lib');
  await build({ configFile: path.resolve('vite.config.ts'), logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
  await build({ configFile: path.resolve('vite.lib.config.ts'), logLevel: 'warn', build: { outDir: libDir, emptyOutDir: true } });
  return { dir, libDir, scriptFile: path.join(dir, 'checkout.js'), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
