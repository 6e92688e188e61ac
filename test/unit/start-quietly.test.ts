import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUNDLES, inputsStamp, type Bundle } from '../../scripts/build-changed.mjs';
import { createLogger } from '../../server/platform/log/create-logger';
import { renderStartBanner } from '../../server/start-banner';

describe('npm start rebuilds a bundle only when its inputs changed', () => {
  let root: string;
  const bundle: Bundle = { name: 'widget', script: 'build:widget', inputs: ['widget', 'server/shared'], outputs: ['dist/widget/checkout.js'] };
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-stamp-'));
    write('package.json', '{}');
    write('widget/a.ts', 'export const a = 1;');
    write('server/shared/b.ts', 'export const b = 2;');
    write('server/platform/c.ts', 'export const c = 3;');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('gives the same stamp while nothing of its inputs changes, also when files outside them change', () => {
    const before = inputsStamp(bundle, root);
    write('server/platform/c.ts', 'export const c = 4;');
    write('docs/notes.md', 'anything');
    expect(inputsStamp(bundle, root)).toBe(before);
  });

  it.each([
    ['an input file is edited', () => write('widget/a.ts', 'export const a = 10;')],
    ['an input file is touched', () => fs.utimesSync(path.join(root, 'widget/a.ts'), new Date(), new Date(Date.now() + 5_000))],
    ['a file is added to an input folder', () => write('server/shared/new.ts', '')],
    ['a file of an input folder is deleted', () => fs.rmSync(path.join(root, 'server/shared/b.ts'))],
    ['package.json changes', () => write('package.json', '{"x":1}')],
    ['package-lock.json appears', () => write('package-lock.json', '{}')],
  ])('gives another stamp when %s', (_name, change) => {
    const before = inputsStamp(bundle, root);
    change();
    expect(inputsStamp(bundle, root)).not.toBe(before);
  });

  it('knows every bundle npm start serves, each with an npm script that exists', () => {
    const scripts = JSON.parse(fs.readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
    expect(BUNDLES.map((b) => b.name).sort()).toEqual(['checkout-server', 'dashboard', 'demo', 'meeting', 'my-loan', 'ops', 'server', 'widget']);
    for (const b of BUNDLES) expect(scripts[b.script], b.script).toBeDefined();
    expect(scripts.start).toBe('node --enable-source-maps scripts/build-changed.mjs --then dist/server/main.js');
    expect(scripts.prestart).toBeUndefined();
  });
});

describe('log lines', () => {
  const capture = () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    return { lines, stream };
  };

  it('LOG_FORMAT=pretty writes a human-readable line, still masked', async () => {
    const { lines, stream } = capture();
    createLogger('info', stream, 'pretty').info({ path: `/checkout/c/cs_test_${'A'.repeat(36)}Zq91`, status: 200 }, 'request completed');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.join('')).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: request completed .*"status":200/);
    expect(lines.join('')).toContain('cs_test_****Zq91');
    expect(lines.join('')).not.toContain('A'.repeat(36));
  });

  it('LOG_FORMAT=json writes one JSON object per line', () => {
    const { lines, stream } = capture();
    createLogger('info', stream, 'json').info({ status: 200 }, 'request completed');
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, msg: 'request completed', status: 200 });
  });
});

describe('the first start\'s banner', () => {
  it('lists the API reference, the error codes, the demo, the dashboard and where the keys are', () => {
    const text = renderStartBanner({ baseUrl: 'http://localhost:3000', demo: true, dashboard: true });
    expect(text).toContain('Ready at http://localhost:3000');
    for (const link of ['/api-docs', '/docs/errors', '/demo', '/dashboard']) expect(text).toContain(`http://localhost:3000${link}`);
    expect(text).toMatch(/Keys\s+the sandbox test key pair above/);
    expect(text.split('\n').length).toBeLessThanOrEqual(10);
  });

  it('leaves out the demo and the dashboard when they are off or not built', () => {
    const text = renderStartBanner({ baseUrl: 'https://lending.example', demo: false, dashboard: false });
    expect(text).not.toContain('/demo');
    expect(text).not.toContain('/dashboard\n');
    expect(text).not.toMatch(/Dashboard\s/);
  });
});
