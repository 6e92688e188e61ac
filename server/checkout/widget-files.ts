import fs from 'node:fs';
import path from 'node:path';
import express, { type Response } from 'express';
import { staticAssets } from './static-assets';

function notFound(res: Response, error: string, message: string): void {
  res.status(404).json({ status: 404, success: false, message, error });
}

/**
 * The checkout server's public files, built next to `widgetFile` (see `static-assets.ts`):
 * - `/widget.js`: the script tag's stable URL, the bundle itself, short-cached (a tiny loader of the
 *   hashed file would cost a slow link one more round trip before the bundle starts);
 * - `/assets/<name>.<hash>.js`: the same bundle under its content-hashed name, immutable (the hosted page);
 * - `/api/locales/<locale>[.<hash>].json`: the texts other than English, fetched when a borrower picks one;
 * - `/api/steps/checkout-{steps,mandate,test-hints}.<hash>.js`: the rarer steps, the mandate step and test mode's
 *   hints, fetched by the script-tag bundle on first need.
 * Without the build's manifest the plain files are served as they are.
 */
export function widgetFileRoutes(widgetFile: string): { router: express.Router; hashedWidget(): string | undefined } {
  const router = express.Router();
  const widgetAssets = staticAssets(path.dirname(widgetFile));
  const widgetName = path.basename(widgetFile);

  // Public files, the same for everyone: readable from any origin (script tags, ES module imports, fetch).
  const publicFile = (res: Response) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  };

  // The script tag's stable URL serves the bundle itself, short-cached: on a slow link a tiny loader
  // would cost one more round trip before the bundle even starts. The hosted page uses the hashed URL.
  router.get('/widget.js', (req, res) => {
    publicFile(res);
    const hashed = widgetAssets.hashed(widgetName);
    if (hashed) return widgetAssets.send(req, res, hashed, 'short');
    if (!fs.existsSync(widgetFile)) {
      res.status(404).type('application/javascript').send('// The checkout widget is not built yet.\n');
      return;
    }
    res.sendFile(widgetFile, { maxAge: '5m', headers: { 'content-type': 'application/javascript; charset=utf-8' } });
  });

  // Content-hashed files of the build (the bundle the hosted page loads): immutable.
  router.get('/assets/:file', (req, res) => {
    const name = String(req.params.file);
    if (!widgetAssets.isHashed(name)) return notFound(res, 'NOT_FOUND', 'No such file (an older build\'s file is gone: reload the page).');
    publicFile(res);
    widgetAssets.send(req, res, name, 'immutable');
  });

  // The widget's texts other than English (built next to the bundle by the locales plugin), fetched
  // only when a borrower picks the language: `pcm.json` short-cached, `pcm.<hash>.json` (what the
  // script-tag bundle asks for) immutable.
  router.get('/api/locales/:file', (req, res) => {
    const match = /^(pcm|yo|ha|ig)(\.[0-9a-f]{10})?\.json$/.exec(String(req.params.file));
    const stable = match && `locales/${match[1]}.json`;
    if (!stable) return notFound(res, 'locale_not_found', 'No texts for this language.');
    const current = widgetAssets.hashed(stable);
    if (match[2] && widgetAssets.isHashed(`locales/${match[0]}`)) {
      publicFile(res);
      return widgetAssets.send(req, res, `locales/${match[0]}`, 'immutable');
    }
    // The stable name, or a hash of an older build (a script-tag bundle cached from before a deploy): today's
    // texts, not cached as that hash (keys it lacks show in English, which beats the whole page in English).
    if (current) {
      publicFile(res);
      return widgetAssets.send(req, res, current, match[2] ? 'revalidate' : 'short');
    }
    const file = path.join(path.dirname(widgetFile), stable);
    if (match[2] || !fs.existsSync(file)) return notFound(res, 'locale_not_found', 'No texts for this language.');
    publicFile(res);
    res.sendFile(file, { maxAge: '5m', headers: { 'content-type': 'application/json; charset=utf-8' } });
  });

  // The on-demand files (the rarer steps, widget/steps.ts; the mandate step, widget/mandate-step.ts; test mode's
  // hints, widget/test-hints-step.ts), loaded by
  // the script-tag bundle on first need as `{api}/steps/<name>`:
  // the hashed name the bundle was built with is immutable. An older build's hash is gone (its bundle
  // and its steps must match): 404, and the borrower's retry after a reload gets today's pair.
  router.get('/api/steps/:file', (req, res) => {
    const name = String(req.params.file);
    const match = /^(checkout-(?:steps|mandate|test-hints))(\.[0-9a-f]{10})?\.js$/.exec(name);
    if (!match) return notFound(res, 'NOT_FOUND', 'No such file.');
    if (widgetAssets.isHashed(name)) {
      publicFile(res);
      return widgetAssets.send(req, res, name, 'immutable');
    }
    const file = path.join(path.dirname(widgetFile), name);
    if (match[2] || !fs.existsSync(file)) return notFound(res, 'NOT_FOUND', 'No such file (an older build\'s file is gone: reload the page).');
    publicFile(res);
    res.sendFile(file, { maxAge: '5m', headers: { 'content-type': 'application/javascript; charset=utf-8' } });
  });

  return { router, hashedWidget: () => widgetAssets.hashed(widgetName) };
}
