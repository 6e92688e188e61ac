import fs from 'node:fs';
import path from 'node:path';
import type { Request, Response } from 'express';

/**
 * A built bundle's static files as the build left them (`widget/vite-static-assets.ts`): each file
 * under a content-hashed name with `.br` and `.gz` copies beside it, and `asset-manifest.json`
 * mapping stable names to hashed ones. Serving never compresses: it picks the precompressed copy
 * the browser accepts. Hashed names are immutable for a year; stable names are short-cached (a
 * new build is picked up within `STABLE_MAX_AGE`).
 */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const STABLE_MAX_AGE = 300;
export const MANIFEST_FILE = 'asset-manifest.json';

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** Parsed `Accept-Encoding`: the q-value the browser gives a coding (`*` covers the rest; identity is acceptable unless refused). */
function qualities(header: string | undefined): (coding: string) => number {
  const table = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    table.set(name, q === undefined ? 1 : Math.min(1, Number(q) || 0));
  }
  return (coding) => table.get(coding) ?? table.get('*') ?? (coding === 'identity' ? 1 : 0);
}

/** `br` or `gzip` (the higher q-value; brotli on a tie, it is smaller), or undefined for the plain file. */
export function chooseEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  const q = qualities(header);
  const br = q('br');
  const gzip = q('gzip');
  if (br > 0 && br >= gzip) return 'br';
  return gzip > 0 ? 'gzip' : undefined;
}

export interface StaticAssets {
  /** The hashed name of a stable one (`checkout.js` → `checkout.3f9a0c1d2e.js`), if the build wrote a manifest. */
  hashed(name: string): string | undefined;
  /** Whether `name` is one of the current hashed names (anything else is not served from here). */
  isHashed(name: string): boolean;
  /**
   * Sends a file of this folder, its precompressed copy when there is one and the browser takes it,
   * with `Vary: Accept-Encoding`. `immutable`: the one-year cache of a hashed name; `short`: cached for
   * `STABLE_MAX_AGE`; `revalidate`: checked with the server (ETag) on every use.
   */
  send(req: Request, res: Response, name: string, cache: 'immutable' | 'short' | 'revalidate'): void;
}

export function staticAssets(dir: string): StaticAssets {
  let cached: { mtimeMs: number; manifest: Record<string, string>; hashedNames: Set<string> } | undefined;
  // The manifest is read again when a new build replaces it (one stat per request: cheap, and no restart needed).
  const manifest = () => {
    const file = path.join(dir, MANIFEST_FILE);
    let mtimeMs: number;
    try {
      mtimeMs = fs.statSync(file).mtimeMs;
    } catch {
      return (cached = undefined);
    }
    if (cached?.mtimeMs !== mtimeMs) {
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
      cached = { mtimeMs, manifest: parsed, hashedNames: new Set(Object.values(parsed)) };
    }
    return cached;
  };

  return {
    hashed: (name) => manifest()?.manifest[name],
    isHashed: (name) => manifest()?.hashedNames.has(name) ?? false,
    send(req, res, name, cache) {
      const file = path.join(dir, name);
      const type = TYPES[path.extname(name)] ?? 'application/octet-stream';
      const encoding = chooseEncoding(req.get('accept-encoding'));
      const compressed = encoding && fs.existsSync(`${file}.${encoding === 'br' ? 'br' : 'gz'}`) ? `${file}.${encoding === 'br' ? 'br' : 'gz'}` : undefined;
      res.setHeader('Vary', 'Accept-Encoding');
      res.setHeader('Cache-Control', cache === 'immutable' ? IMMUTABLE : cache === 'short' ? `public, max-age=${STABLE_MAX_AGE}` : 'no-cache');
      const headers: Record<string, string> = { 'content-type': type };
      if (compressed) headers['content-encoding'] = encoding!;
      // A byte range of a compressed body is meaningless to a client that asked for the plain file: no ranges.
      res.sendFile(compressed ?? file, { headers, cacheControl: false, acceptRanges: false, etag: true, lastModified: true }, (error) => {
        if (error && !res.headersSent) res.status(404).type('text/plain').send('Not found.\n');
      });
    },
  };
}
