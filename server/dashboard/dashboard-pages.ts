import path from 'node:path';
import express from 'express';
import { staticAssets } from '../checkout/static-assets';
import { contentSecurityPolicy, newNonce, renderPageShell } from '../shared/page-shell';

/** Where `npm run build:dashboard` writes the app (`dashboard/vite.config.ts`). */
export const DASHBOARD_DIST = path.resolve('dist/dashboard');
/** The entry module's stable name; the page loads its content-hashed copy. */
export const DASHBOARD_ENTRY = 'dashboard.js';

/**
 * The dashboard's own bundle, same-origin fetches to `/dashboard/api`, and frames of this origin only (the checkout
 * preview shows the real hosted checkout, `/checkout/…`). Nobody may frame the dashboard.
 */
export const dashboardPageCsp = (styleNonce: string): string => contentSecurityPolicy({ ownAssets: true, styleNonce, frame: ["'self'"] });

/** The document around `<dash-app>`: no margin, the app's background behind it. */
const DOCUMENT_STYLE = 'html,body{margin:0;background:#f6f7fb}';

export function renderDashboardPage(entryUrl: string, nonce: string): string {
  return renderPageShell({
    nonce,
    styles: [DOCUMENT_STYLE],
    title: 'Dashboard',
    // No icon of our own yet: an empty one, so the browser does not ask for /favicon.ico (a 404 in every console).
    head: ['<meta name="robots" content="noindex">', '<meta name="color-scheme" content="light">', '<link rel="icon" href="data:,">'],
    body: `  <dash-app><p role="status">Loading the dashboard…</p></dash-app>
  <noscript><p>The dashboard needs JavaScript.</p></noscript>`,
    scripts: [entryUrl],
  });
}

/**
 * The organisation dashboard's pages: one HTML shell for every path under `/dashboard` (the app routes in
 * the browser: `/dashboard/keys`, `/dashboard/loans/<id>`, the e-mailed `/dashboard/verify-email?token=…`), and the
 * built bundle under `/dashboard/assets/`. Mounted after `/dashboard/api`, which answers its own 404s.
 */
export function createDashboardPages(): express.Router {
  const router = express.Router();
  const assets = staticAssets(DASHBOARD_DIST);

  router.get('/dashboard/assets/:file', (req, res) => {
    const file = req.params.file;
    if (!/^[\w.-]+\.(js|css|map)$/.test(file)) return void res.status(404).type('text/plain').send('Not found.\n');
    if (assets.isHashed(file)) return assets.send(req, res, file, 'immutable');
    const hashed = assets.hashed(file);
    if (!hashed) return void res.status(404).type('text/plain').send('Not found.\n');
    // Vite names every chunk but the entry by its content already: those are immutable too.
    assets.send(req, res, hashed, file === DASHBOARD_ENTRY ? 'short' : 'immutable');
  });

  router.get(['/dashboard', '/dashboard/{*rest}'], (_req, res) => {
    const entry = assets.hashed(DASHBOARD_ENTRY);
    const nonce = newNonce();
    res.setHeader('Content-Security-Policy', dashboardPageCsp(nonce));
    res.setHeader('Cache-Control', 'no-store');
    if (!entry) return void res.status(503).type('text/plain').send('The dashboard is not built (npm run build:dashboard).\n');
    res.status(200).type('html').send(renderDashboardPage(`/dashboard/assets/${entry}`, nonce));
  });
  return router;
}
