import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutRouter } from '../../server/checkout/create-checkout-router';
import { chooseEncoding } from '../../server/checkout/static-assets';
import { contentHash } from '../../widget/vite-static-assets';
import { buildWidgetCopy } from '../support/widget-build';

/**
 * The checkout's static files: precompressed at build (brotli and gzip), picked by Accept-Encoding,
 * content-hashed names cached immutable, the script tag's stable URL short-cached.
 */
let widget: Awaited<ReturnType<typeof buildWidgetCopy>>;
let server: http.Server;
let base: string;
let manifest: Record<string, string>;

beforeAll(async () => {
  widget = await buildWidgetCopy('assets');
  manifest = JSON.parse(fs.readFileSync(path.join(widget.dir, 'asset-manifest.json'), 'utf8'));
  const host = express();
  // The platform is never called here: no page state needs it (no cookie) and no JSON endpoint is used.
  host.use('/checkout', createCheckoutRouter({ apiBaseUrl: 'http://127.0.0.1:9', widgetFile: widget.scriptFile }));
  server = http.createServer(host);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}, 120_000);
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  widget?.remove();
});

/** A GET that keeps the body as sent (fetch would decompress it). */
function rawGet(url: string, acceptEncoding?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

const decoded = (res: { headers: http.IncomingHttpHeaders; body: Buffer }) =>
  res.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(res.body) : res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(res.body) : res.body;

describe('the build', () => {
  it('writes a content-hashed copy of the bundle and of every locale file, each with .br and .gz beside it, and a manifest', () => {
    const bundle = fs.readFileSync(widget.scriptFile);
    expect(manifest['checkout.js']).toBe(`checkout.${contentHash(bundle)}.js`);
    for (const locale of ['pcm', 'yo', 'ha', 'ig']) expect(manifest[`locales/${locale}.json`]).toMatch(new RegExp(`^locales/${locale}\\.[0-9a-f]{10}\\.json$`));
    for (const hashed of Object.values(manifest)) {
      const plain = fs.readFileSync(path.join(widget.dir, hashed));
      expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(widget.dir, `${hashed}.br`)))).toEqual(plain);
      expect(zlib.gunzipSync(fs.readFileSync(path.join(widget.dir, `${hashed}.gz`)))).toEqual(plain);
    }
    // The script-tag bundle asks for the locale files by their hashed names.
    expect(bundle.toString()).toContain(path.basename(manifest['locales/pcm.json']!));
  });

  it('keeps the script-tag bundle within 29 KB gzipped', () => {
    expect(fs.statSync(path.join(widget.dir, `${manifest['checkout.js']}.gz`)).size).toBeLessThanOrEqual(29 * 1024);
  });
});

describe('serving the widget', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['identity', undefined],
    ['br;q=0, gzip;q=0', undefined],
    [undefined, undefined],
  ])('when Accept-Encoding is %j, then /widget.js comes as %s with Vary: Accept-Encoding, short-cached, the same bytes', async (accept, encoding) => {
    const res = await rawGet(`${base}/checkout/widget.js`, accept);
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['vary']).toContain('Accept-Encoding');
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(decoded(res)).toEqual(fs.readFileSync(widget.scriptFile));
    if (encoding) expect(res.body.length).toBeLessThan(fs.statSync(widget.scriptFile).size / 3);
  });

  it('the hosted page loads the hashed bundle, which is cached for a year as immutable', async () => {
    const page = await fetch(`${base}/checkout/`);
    const html = await page.text();
    const src = /<script type="module" src="([^"]+)"><\/script>/.exec(html)?.[1];
    expect(src).toBe(`/checkout/assets/${manifest['checkout.js']}`);
    for (const [accept, encoding] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip'], ['identity', undefined]] as const) {
      const res = await rawGet(`${base}${src}`, accept);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['vary']).toContain('Accept-Encoding');
      expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(decoded(res)).toEqual(fs.readFileSync(widget.scriptFile));
    }
  });

  it('serves only the current hashed names from /assets/ (no other file of the folder, no path tricks)', async () => {
    for (const name of ['checkout.js', 'checkout.0000000000.js', 'asset-manifest.json', `${manifest['checkout.js']}.br`, '..%2Fpackage.json', '%2E%2E%2Fcheckout.js']) {
      const res = await rawGet(`${base}/checkout/assets/${name}`, 'br');
      expect(res.status, name).toBe(404);
    }
  });

  it('locale files: the hashed name immutable, the stable name short-cached, an older hash revalidated, all compressed; unknown names 404', async () => {
    const hashed = path.basename(manifest['locales/pcm.json']!);
    const immutable = await rawGet(`${base}/checkout/api/locales/${hashed}`, 'gzip, deflate, br');
    expect(immutable.status).toBe(200);
    expect(immutable.headers['content-encoding']).toBe('br');
    expect(immutable.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(immutable.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(immutable.headers['access-control-allow-origin']).toBe('*');
    expect(JSON.parse(decoded(immutable).toString())['checkout.loading']).toBeTypeOf('string');
    const stable = await rawGet(`${base}/checkout/api/locales/pcm.json`, 'gzip');
    expect(stable.headers['content-encoding']).toBe('gzip');
    expect(stable.headers['cache-control']).toBe('public, max-age=300');
    expect(decoded(stable)).toEqual(decoded(immutable));
    // A hash of an older build (a script-tag bundle cached across a deploy): today's texts, not cached as that hash.
    const older = await rawGet(`${base}/checkout/api/locales/pcm.0000000000.json`, 'br');
    expect(older.status).toBe(200);
    expect(older.headers['cache-control']).toBe('no-cache');
    expect(decoded(older)).toEqual(decoded(immutable));
    for (const name of ['fr.json', 'fr.0000000000.json', 'pcm.json.br', 'pcm.abc.json']) expect((await rawGet(`${base}/checkout/api/locales/${name}`)).status, name).toBe(404);
  });
});

describe('choosing an encoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['BR;q=0.9, GZIP;q=0.8', 'br'],
    ['gzip;q=1, br;q=0.9', 'gzip'],
    ['*', 'br'],
    ['*;q=0', undefined],
    ['deflate', undefined],
    ['', undefined],
  ])('%j → %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});

describe('the on-demand steps file', () => {
  it('is served at {api}/steps/<hashed name> (the name the bundle asks for), precompressed and immutable; other names 404', async () => {
    const hashed = manifest['checkout-steps.js']!;
    expect(hashed).toMatch(/^checkout-steps\.[0-9a-f]{10}\.js$/);
    expect(fs.readFileSync(widget.scriptFile, 'utf8')).toContain(hashed);
    const res = await rawGet(`${base}/checkout/api/steps/${hashed}`, 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(res.headers['content-type']).toMatch(/^application\/javascript/);
    expect(decoded(res)).toEqual(fs.readFileSync(path.join(widget.dir, hashed)));

    const gzip = await rawGet(`${base}/checkout/api/steps/${hashed}`, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip)).toEqual(fs.readFileSync(path.join(widget.dir, hashed)));

    for (const name of ['checkout-steps.0000000000.js', 'checkout-mandate.0000000000.js', 'checkout.js', '..%2Fcheckout.js', 'asset-manifest.json']) {
      expect((await rawGet(`${base}/checkout/api/steps/${name}`)).status, name).toBe(404);
    }
  });

  it('the mandate step is its own on-demand file beside it: the hashed name the bundle asks for, precompressed and immutable', async () => {
    const hashed = manifest['checkout-mandate.js']!;
    expect(hashed).toMatch(/^checkout-mandate\.[0-9a-f]{10}\.js$/);
    expect(fs.readFileSync(widget.scriptFile, 'utf8')).toContain(hashed);
    const res = await rawGet(`${base}/checkout/api/steps/${hashed}`, 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decoded(res)).toEqual(fs.readFileSync(path.join(widget.dir, hashed)));
  });
});
