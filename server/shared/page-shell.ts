import crypto from 'node:crypto';
import { escapeHtml } from './escape-html';

/**
 * The one shell and Content-Security-Policy of every server-rendered page (the hosted checkout,
 * the sales demo, the meeting page, the sandbox rails' pages). A page file says what is its own
 * (title, body, bundle, policy); what must stay true of all of them is written here once:
 * UTF-8, a mobile viewport, no referrer, a policy that starts from `default-src 'none'` and allows
 * neither `<base>` nor framing unless the page asks for it.
 */
export interface PageShell {
  /** Plain text (escaped here). */
  title: string;
  /** The document's language; default `en`. */
  lang?: string;
  /** More `<head>` elements, as HTML, after the shared ones (theme colour, icon). */
  head?: readonly string[];
  /** Inline stylesheets, each carrying `nonce` (which the page's policy must list: `styleNonce`). */
  styles?: readonly string[];
  /** A fresh value per response (`newNonce()`), for the inline styles and scripts. */
  nonce?: string;
  /** The `<body>`'s content, as HTML. */
  body: string;
  /** Module scripts, by URL (escaped here), at the end of `<body>`. */
  scripts?: readonly string[];
}

export function renderPageShell(page: PageShell): string {
  const nonce = page.nonce === undefined ? '' : ` nonce="${escapeHtml(page.nonce)}"`;
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    ...(page.head ?? []),
    `<title>${escapeHtml(page.title)}</title>`,
    ...(page.styles ?? []).map((style) => `<style${nonce}>${style}</style>`),
  ];
  const scripts = (page.scripts ?? []).map((src) => `  <script type="module"${nonce} src="${escapeHtml(src)}"></script>`);
  return `<!doctype html>
<html lang="${escapeHtml(page.lang ?? 'en')}">
<head>
${head.map((line) => `  ${line}`).join('\n')}
</head>
<body>
${[page.body, ...scripts].join('\n')}
</body>
</html>`;
}

/** A per-response nonce for inline styles or scripts: 128 random bits. */
export const newNonce = (): string => crypto.randomBytes(16).toString('base64');

/**
 * What a page may load, on top of nothing (`default-src 'none'`, `base-uri 'none'`, and
 * `form-action` and `frame-ancestors` `'none'` unless given).
 */
export interface PagePolicy {
  /** The page runs its own bundle: scripts, stylesheets, fetches and images (also `data:`) from this origin. */
  ownAssets?: boolean;
  /** Inline `<style>` elements carrying this nonce. */
  styleNonce?: string;
  /** More image sources. */
  img?: readonly string[];
  font?: readonly string[];
  media?: readonly string[];
  /** What the page may show in frames. */
  frame?: readonly string[];
  /** Where its forms may post, and (browsers apply it to them) the redirects that follow; default `'none'`. */
  formAction?: readonly string[];
  /** Who may frame the page; default `'none'`. */
  frameAncestors?: readonly string[];
}

const NONE = ["'none'"];
const SELF = ["'self'"];

/** The `Content-Security-Policy` header value for a page. */
export function contentSecurityPolicy(policy: PagePolicy): string {
  const own = policy.ownAssets ?? false;
  const styles = [...(own ? SELF : []), ...(policy.styleNonce ? [`'nonce-${policy.styleNonce}'`] : [])];
  const directives: Array<[string, readonly string[]]> = [
    ['default-src', NONE],
    ['script-src', own ? SELF : []],
    ['style-src', styles],
    ['img-src', [...(own ? ["'self'", 'data:'] : []), ...(policy.img ?? [])]],
    ['font-src', policy.font ?? []],
    ['connect-src', own ? SELF : []],
    ['media-src', policy.media ?? []],
    ['frame-src', policy.frame ?? []],
    ['form-action', policy.formAction?.length ? policy.formAction : NONE],
    ['base-uri', NONE],
    ['frame-ancestors', policy.frameAncestors?.length ? policy.frameAncestors : NONE],
  ];
  return directives
    .filter(([, sources]) => sources.length > 0)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}
