import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Dependencies point down: routes → domain → db; the domain declares its ports and
 * `server/integrations` implements them; one composition root wires them; the widget imports only
 * `server/shared`. This reads every import (static, re-export, dynamic) of the source tree and
 * fails on any that runs the wrong way.
 */
const root = path.resolve(__dirname, '../..');

function files(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files(rel));
    else if (/\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

/** Every relative import of a file, resolved to a path from the repository root (without extension). */
function importsOf(file: string): Import[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const found: Import[] = [];
  const patterns = [
    /^\s*(import|export)\s+(type\s+)?[^'";]*?\sfrom\s+'([^']+)'/gm,
    /^\s*import\s+'([^']+)'/gm,
    /\bimport\(\s*'([^']+)'\s*\)/g,
  ];
  for (const [index, pattern] of patterns.entries()) {
    for (const match of text.matchAll(pattern)) {
      const spec = index === 0 ? match[3]! : match[1]!;
      if (!spec.startsWith('.')) continue;
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.(ts|js|mjs)$/, '');
      found.push({ from: file, to, typeOnly: index === 0 && Boolean(match[2]) });
    }
  }
  return found;
}

const all = [...files('server'), ...files('widget'), ...files('demo')].flatMap(importsOf);
const under = (p: string, dir: string) => p === dir || p.startsWith(`${dir}/`);
const show = (list: Import[]) => list.map((i) => `${i.from} → ${i.to}${i.typeOnly ? ' (type)' : ''}`);

describe('import direction', () => {
  it('the domain imports neither the HTTP layer, the composition root, the configuration nor any adapter', () => {
    const wrong = all.filter(
      (i) =>
        under(i.from, 'server/platform/domain') &&
        (under(i.to, 'server/platform/http') || i.to === 'server/platform/platform' || i.to === 'server/config' || under(i.to, 'server/integrations')),
    );
    expect(show(wrong)).toEqual([]);
  });

  it('adapters import only the domain\'s ports and shared types from the platform (database types, type-only)', () => {
    const allowed = new Set(['server/platform/domain/ports', 'server/platform/domain/scope']);
    const typesOnly = new Set(['server/platform/db/schema', 'server/platform/db/database']);
    const wrong = all.filter(
      (i) => under(i.from, 'server/integrations') && under(i.to, 'server/platform') && !allowed.has(i.to) && !(i.typeOnly && typesOnly.has(i.to)),
    );
    expect(show(wrong)).toEqual([]);
  });

  it('the database layer imports nothing from the domain', () => {
    expect(show(all.filter((i) => under(i.from, 'server/platform/db') && under(i.to, 'server/platform/domain')))).toEqual([]);
  });

  it('the widget imports no server module other than server/shared, and server/shared imports no other server module', () => {
    const widget = all.filter((i) => under(i.from, 'widget') && under(i.to, 'server') && !under(i.to, 'server/shared'));
    const shared = all.filter((i) => under(i.from, 'server/shared') && under(i.to, 'server') && !under(i.to, 'server/shared'));
    expect(show([...widget, ...shared])).toEqual([]);
  });

  it('reads imports at all (so an empty list above means something)', () => {
    expect(all.filter((i) => under(i.from, 'server/platform/domain')).length).toBeGreaterThan(200);
    expect(all.some((i) => i.typeOnly)).toBe(true);
  });
});
