import path from 'node:path';
import express from 'express';
import { staticAssets } from '../checkout/static-assets';
import { contentSecurityPolicy, newNonce, renderPageShell } from '../shared/page-shell';

/** Where `npm run build:ops` writes the console (`dashboard/ops/vite.config.ts`). */
export const OPS_DIST = path.resolve('dist/ops');
export const OPS_ENTRY = 'ops.js';

/** The console's own bundle and same-origin fetches to `/ops/api`; it frames nothing and nobody may frame it. */
const opsPageCsp = (styleNonce: string): string => contentSecurityPolicy({ ownAssets: true, styleNonce });

export function renderOpsPage(entryUrl: string, nonce: string): string {
  return renderPageShell({
    nonce,
    styles: ['html,body{margin:0;background:#f6f7fb}'],
    title: 'Operations console',
    head: ['<meta name="robots" content="noindex">', '<meta name="color-scheme" content="light">', '<link rel="icon" href="data:,">'],
    body: `  <ops-app><p role="status">Loading the operations console…</p></ops-app>
  <noscript><p>The console needs JavaScript.</p></noscript>`,
    scripts: [entryUrl],
  });
}

/**
 * The operations console's pages: one HTML shell for every path under `/ops` (the app routes in the browser:
 * `/ops/payouts`, the invitation's `/ops/accept-invitation?token=…`), and the built bundle under `/ops/assets/`.
 * Mounted after `/ops/api`, which answers its own 404s.
 */
export function createOpsPages(): express.Router {
  const router = express.Router();
  const assets = staticAssets(OPS_DIST);

  router.get('/ops/assets/:file', (req, res) => {
    const file = req.params.file;
    if (!/^[\w.-]+\.(js|css|map)$/.test(file)) return void res.status(404).type('text/plain').send('Not found.\n');
    if (assets.isHashed(file)) return assets.send(req, res, file, 'immutable');
    const hashed = assets.hashed(file);
    if (!hashed) return void res.status(404).type('text/plain').send('Not found.\n');
    assets.send(req, res, hashed, file === OPS_ENTRY ? 'short' : 'immutable');
  });

  router.get(['/ops', '/ops/{*rest}'], (_req, res) => {
    const entry = assets.hashed(OPS_ENTRY);
    const nonce = newNonce();
    res.setHeader('Content-Security-Policy', opsPageCsp(nonce));
    res.setHeader('Cache-Control', 'no-store');
    if (!entry) return void res.status(503).type('text/plain').send('The operations console is not built (npm run build:ops).\n');
    res.status(200).type('html').send(renderOpsPage(`/ops/assets/${entry}`, nonce));
  });
  return router;
}
