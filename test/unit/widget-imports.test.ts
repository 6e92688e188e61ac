import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The widget's import direction: the browser code reaches the server only through the
 * contract modules of `server/shared/` (types and pure functions), never the domain, the
 * integrations or the HTTP layer, and what it reaches there reaches nothing else of the server.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER = path.join(ROOT, 'server') + path.sep;
const SHARED = path.join(ROOT, 'server', 'shared') + path.sep;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(m|c)?tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every module specifier of a file: static imports and re-exports (type-only too), dynamic `import()`. */
function specifiers(code: string): string[] {
  const found: string[] = [];
  for (const m of code.matchAll(/(?:^|[\s;])(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
  for (const m of code.matchAll(/(?:^|[\s;])import\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
  for (const m of code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found;
}

/** The server files a file imports (relative specifiers resolving under `server/`). */
function serverImports(file: string): string[] {
  return specifiers(fs.readFileSync(file, 'utf8'))
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => path.resolve(path.dirname(file), spec))
    .filter((resolved) => resolved.startsWith(SERVER));
}

const rel = (file: string) => path.relative(ROOT, file);

describe('the browser apps (widget, dashboard) import nothing of the server but server/shared', () => {
  it('finds the imports it checks (the scan works)', () => {
    expect(specifiers(`import type { A } from '../x';\nexport { b } from "./y";\nimport './z';\nconst c = await import('../w');`)).toEqual(['../x', './y', './z', '../w']);
    expect(serverImports(path.join(ROOT, 'widget/checkout-api.ts'))).toContain(path.join(ROOT, 'server/shared/checkout-contract'));
  });

  it('no file under widget/ or dashboard/ (the browser apps) imports a server module outside server/shared', () => {
    const offending = [...sourceFiles(path.join(ROOT, 'widget')), ...sourceFiles(path.join(ROOT, 'dashboard'))].flatMap((file) =>
      serverImports(file)
        .filter((target) => !target.startsWith(SHARED))
        .map((target) => `${rel(file)} → ${rel(target)}`),
    );
    expect(offending).toEqual([]);
  });

  it('the server/shared modules the widget reaches import nothing else of the server', () => {
    const seen = new Set<string>();
    const queue = [...sourceFiles(path.join(ROOT, 'widget')), ...sourceFiles(path.join(ROOT, 'dashboard'))].flatMap(serverImports);
    const offending: string[] = [];
    while (queue.length) {
      const target = queue.shift()!;
      const file = ['.ts', '/index.ts', ''].map((ext) => target + ext).find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
      if (!file || seen.has(file)) continue;
      seen.add(file);
      for (const next of serverImports(file)) {
        if (next.startsWith(SHARED)) queue.push(next);
        else offending.push(`${rel(file)} → ${rel(next)}`);
      }
    }
    expect(seen.size).toBeGreaterThan(0);
    expect(offending).toEqual([]);
  });
});
