import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** The file the servers read to find an asset's content-hashed name: `{ "checkout.js": "checkout.3f9a0c1d2e.js", … }`. */
export const ASSET_MANIFEST = 'asset-manifest.json';

/** Files worth compressing (text); anything else is copied under its hashed name only. */
const COMPRESSIBLE = /\.(js|mjs|json|css|svg|html|txt|map)$/;

/** Ten hex digits of the content's SHA-256: the cache key of an immutable URL. */
export function contentHash(content: string | Uint8Array): string {
  return crypto.createHash('sha256').update(content).digest('hex').slice(0, 10);
}

/** `locales/pcm.json` with hash `abc` → `locales/pcm.abc.json`. */
export function hashedName(fileName: string, hash: string): string {
  const ext = path.extname(fileName);
  return `${fileName.slice(0, fileName.length - ext.length)}.${hash}${ext}`;
}

/**
 * After the build has written its files: for every file of the bundle, a copy under a content-hashed
 * name (served with `Cache-Control: immutable`), that copy precompressed as `.br` (brotli, quality 11)
 * and `.gz` (gzip, level 9) so the server only picks one by `Accept-Encoding` and never compresses per
 * request, and `asset-manifest.json` mapping each stable name to its hashed one. The stable files
 * stay as they were (existing URLs and tools keep working).
 */
export function staticAssetsPlugin(): Plugin {
  return {
    name: 'lc-static-assets',
    apply: 'build',
    writeBundle(output, bundle) {
      const dir = output.dir ?? path.dirname(output.file!);
      const manifest: Record<string, string> = {};
      for (const fileName of Object.keys(bundle).sort()) {
        const file = path.join(dir, fileName);
        if (!fs.existsSync(file)) continue;
        const content = fs.readFileSync(file);
        const hashed = hashedName(fileName, contentHash(content));
        fs.writeFileSync(path.join(dir, hashed), content);
        if (COMPRESSIBLE.test(fileName)) {
          fs.writeFileSync(
            path.join(dir, `${hashed}.br`),
            zlib.brotliCompressSync(content, {
              params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length },
            }),
          );
          fs.writeFileSync(path.join(dir, `${hashed}.gz`), zlib.gzipSync(content, { level: 9 }));
        }
        manifest[fileName] = hashed;
      }
      fs.writeFileSync(path.join(dir, ASSET_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    },
  };
}
