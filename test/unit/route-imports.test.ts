import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Route files only parse, call a use case and answer: what two of them share (schemas, the loan context of a
 * request) lives in `http/` beside them, never in a route file another one imports. `routes/index.ts` is the list
 * of route files, the one module that imports them.
 */
const SERVER = path.resolve(__dirname, '../../server');
const ROUTES = path.join(SERVER, 'platform/http/routes');
const INDEX = path.join(ROUTES, 'index.ts');

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every module a file imports or re-exports (static, type-only and dynamic), resolved when relative. */
function relativeImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return importedFiles.map((f) => f.fileName).filter((name) => name.startsWith('.')).map((name) => path.resolve(path.dirname(file), name));
}

const inRoutes = (resolved: string) => resolved === ROUTES || resolved.startsWith(ROUTES + path.sep);
const show = (file: string) => path.relative(SERVER, file);

describe('route files', () => {
  it('import no other route file (shared schemas and the loan context live in http/)', () => {
    const routeFiles = tsFiles(ROUTES).filter((file) => file !== INDEX);
    expect(routeFiles.length).toBeGreaterThan(10);
    const crossings = routeFiles.flatMap((file) => relativeImports(file).filter(inRoutes).map((target) => `${show(file)} → ${show(target)}`));
    expect(crossings).toEqual([]);
  });

  it('are reached from outside routes/ only through routes/index.ts', () => {
    const outside = tsFiles(SERVER).filter((file) => !inRoutes(file));
    const crossings = outside.flatMap((file) =>
      relativeImports(file)
        .filter((target) => inRoutes(target) && target !== ROUTES && target !== INDEX.replace(/\.ts$/, ''))
        .map((target) => `${show(file)} → ${show(target)}`),
    );
    expect(crossings).toEqual([]);
  });

  it('(self-check) sees routes/index.ts importing the route files', () => {
    const probe = path.join(ROUTES, 'loans.ts');
    expect(relativeImports(path.join(ROUTES, 'index.ts')).filter(inRoutes)).toContain(probe.replace(/\.ts$/, ''));
  });
});
