import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import { CHECKOUT_EVENT_TYPES, domEventName } from '../../widget/embed/events';
import type { StepEvents } from '../../widget/step-events';

/**
 * The widget's custom-elements manifest (`npm run manifest` → custom-elements.json, the package's
 * `customElements`): generated from the elements' JSDoc headers, up to date, and listing every
 * `lc-*` element with the events it really fires and the parts it really renders.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Declaration {
  customElement?: boolean;
  tagName?: string;
  summary?: string;
  events?: Array<{ name: string; description?: string }>;
  cssParts?: Array<{ name: string }>;
  cssProperties?: Array<{ name: string }>;
}
interface Manifest {
  modules: Array<{ path: string; declarations?: Declaration[] }>;
}

const manifest = JSON.parse(read('custom-elements.json')) as Manifest;
const elements = new Map(
  manifest.modules.flatMap((m) => (m.declarations ?? []).filter((d) => d.customElement && d.tagName).map((d) => [d.tagName!, { ...d, path: m.path }] as const)),
);

/** Every `lc-*` tag the widget defines, with its component file. */
const defined = fs
  .readdirSync(path.join(ROOT, 'widget'))
  .filter((dir) => dir.startsWith('lc-'))
  .flatMap((dir) => {
    const definition = read(`widget/${dir}/${dir}.ts`);
    return [...definition.matchAll(/customElements\.define\('(lc-[a-z-]+)'/g)].map((m) => ({ tag: m[1]!, component: `widget/${dir}/${dir}.component.ts` }));
  });

/** The step events' names, read from the `StepEvents` interface. */
const stepEventNames = [...read('widget/step-events.ts').split('export interface StepEvents {')[1]!.split('}\n')[0]!.matchAll(/'(lc-[a-z-]+)':/g)].map((m) => m[1]!);

/** The part names an element renders (`part="button primary"` is two parts). */
const partsIn = (source: string) => new Set([...source.matchAll(/\bpart="([^"]+)"/g)].flatMap((m) => m[1]!.split(/\s+/)));

const fresh = path.join(ROOT, 'dist', `test-manifest-${process.pid}`);
afterAll(() => fs.rmSync(fresh, { recursive: true, force: true }));

describe('the custom-elements manifest', () => {
  it('is what `npm run manifest` generates from the sources now (run it after changing an element)', () => {
    execFileSync(path.join(ROOT, 'node_modules/.bin/cem'), ['analyze', '--quiet', '--outdir', path.relative(ROOT, fresh)], { cwd: ROOT, stdio: 'pipe' });
    expect(JSON.parse(fs.readFileSync(path.join(fresh, 'custom-elements.json'), 'utf8'))).toEqual(manifest);
  }, 60_000);

  it('ships with the package: package.json names it (`customElements`) and packs it (`files`)', () => {
    const pkg = JSON.parse(read('package.json')) as { customElements?: string; files?: string[] };
    expect(pkg.customElements).toBe('custom-elements.json');
    expect(pkg.files).toContain('custom-elements.json');
  });

  it('lists every lc-* element the widget defines, each with a summary', () => {
    expect(defined.length).toBeGreaterThanOrEqual(12);
    expect([...elements.keys()].sort()).toEqual(defined.map((d) => d.tag).sort());
    for (const { tag } of defined) expect(elements.get(tag)!.summary, tag).toBeTruthy();
  });

  it("lists <lc-checkout>'s public events, every one of embed/events.ts", () => {
    const events = elements.get('lc-checkout')!.events?.map((e) => e.name) ?? [];
    expect(events.sort()).toEqual(CHECKOUT_EVENT_TYPES.map(domEventName).sort());
  });

  it('lists the events each step fires (the step events its source emits), each described', () => {
    expect(stepEventNames.length).toBeGreaterThan(10);
    for (const { tag, component } of defined.filter((d) => d.tag !== 'lc-checkout')) {
      const source = read(component);
      const fired = stepEventNames.filter((name) => source.includes(`'${name}'`));
      const listed = elements.get(tag)!.events ?? [];
      expect(listed.map((e) => e.name).sort(), tag).toEqual(fired.sort());
      for (const event of listed) expect(event.description, `${tag} ${event.name}`).toBeTruthy();
    }
  });

  it("lists the parts each element renders; <lc-checkout>'s are its steps' parts", () => {
    const all = new Set<string>();
    for (const { tag, component } of defined.filter((d) => d.tag !== 'lc-checkout')) {
      const rendered = partsIn(read(component));
      rendered.forEach((p) => all.add(p));
      expect((elements.get(tag)!.cssParts ?? []).map((p) => p.name).sort(), tag).toEqual([...rendered].sort());
    }
    expect((elements.get('lc-checkout')!.cssParts ?? []).map((p) => p.name).sort()).toEqual([...all].sort());
  });

  it('documents the custom properties: every --lc-* the checkout reads is on <lc-checkout>', () => {
    const documented = new Set((elements.get('lc-checkout')!.cssProperties ?? []).map((p) => p.name));
    const widgetSources = fs.readdirSync(path.join(ROOT, 'widget'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.startsWith('meeting'));
    const read_ = new Set(widgetSources.flatMap((f) => [...read(`widget/${f}`).matchAll(/var\((--lc-[a-z0-9-]+)/g)].map((m) => m[1]!)));
    expect([...read_].filter((name) => !documented.has(name))).toEqual([]);
  });

  it('every step event is declared in HTMLElementEventMap (the public ones by embed/events.ts)', () => {
    expectTypeOf<Exclude<keyof StepEvents, keyof HTMLElementEventMap>>().toEqualTypeOf<never>();
    expect(stepEventNames.length).toBeGreaterThan(0);
  });
});
