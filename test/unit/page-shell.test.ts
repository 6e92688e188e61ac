import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, newNonce, renderPageShell } from '../../server/shared/page-shell';

describe('the page shell', () => {
  it('writes the shared head (charset, viewport, no referrer), escapes the title and script URLs, and puts the scripts last in the body', () => {
    const html = renderPageShell({ title: 'A & <B>', body: '  <main></main>', scripts: ['/x.js?a=1&b="2"'] });
    expect(html).toBe(`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>A &amp; &lt;B&gt;</title>
</head>
<body>
  <main></main>
  <script type="module" src="/x.js?a=1&amp;b=&quot;2&quot;"></script>
</body>
</html>`);
  });

  it('gives inline styles the response\'s nonce, which the policy then allows, and nothing else inline', () => {
    const nonce = newNonce();
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(newNonce()).not.toBe(nonce);
    const html = renderPageShell({ title: 't', nonce, styles: ['p{}'], body: '' });
    expect(html).toContain(`  <style nonce="${nonce}">p{}</style>\n</head>`);
    expect(contentSecurityPolicy({ styleNonce: nonce })).toBe(`default-src 'none'; style-src 'nonce-${nonce}'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'`);
  });
});

describe('the page CSP builder', () => {
  it('starts from nothing: no sources, no <base>, no forms, no framing', () => {
    expect(contentSecurityPolicy({})).toBe("default-src 'none'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'");
  });

  it('a page with its own bundle loads scripts, styles, fetches and images from its origin, and takes the extra sources and framing it names', () => {
    const csp = contentSecurityPolicy({ ownAssets: true, img: ['https:'], font: ["'self'"], media: ['blob:'], frame: ["'self'"], formAction: ["'self'"], frameAncestors: ['https://shop.example'] });
    expect(csp).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; font-src 'self'; connect-src 'self'; media-src blob:; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors https://shop.example",
    );
  });

  it('an empty frameAncestors or formAction list still means none', () => {
    expect(contentSecurityPolicy({ frameAncestors: [], formAction: [] })).toContain("form-action 'none'; base-uri 'none'; frame-ancestors 'none'");
  });
});
