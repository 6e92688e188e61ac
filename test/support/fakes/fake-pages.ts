import type http from 'node:http';

/**
 * The small HTML pages the local provider fakes serve at `/_fake` (used by `npm run rehearse`, docs/rehearsal.md, and
 * by tests): a person drives the fake as a provider's own sandbox dashboard would let them (approve a mandate, choose
 * a bureau report, set a balance, fail a debit, read a text). Plain forms that post back and redirect (303) to the
 * page, so they work without script; readable on a phone.
 */
export const escapeHtml = (text: unknown) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export const naira = (kobo: number) => `₦${(kobo / 100).toLocaleString('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fafafa}
main{max-width:44rem;margin:0 auto;padding:1rem}
h1{font-size:1.4rem;margin:.5rem 0}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
.note{color:#444;font-size:.9rem}
section,li.card{background:#fff;border:1px solid #d0d0d0;border-radius:.5rem;padding:.75rem;margin:.5rem 0}
ul{list-style:none;padding:0;margin:0}
form{display:inline-flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:.25rem .5rem .25rem 0}
label{display:flex;flex-direction:column;font-size:.9rem}
input{font:inherit;padding:.4rem;border:1px solid #767676;border-radius:.25rem;max-width:100%}
button{font:inherit;min-height:2.75rem;padding:.4rem .9rem;border-radius:.25rem;border:1px solid #1a4d8f;background:#1a4d8f;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1a4d8f}
code{overflow-wrap:anywhere}`;

/** A whole page: language, viewport, title, one main landmark. */
export function fakePage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>
<h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>`;
}

/** A one-button form posting to `action`, with hidden fields. */
export function button(action: string, label: string, fields: Record<string, string> = {}, secondary = false): string {
  const hidden = Object.entries(fields).map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('');
  return `<form method="post" action="${escapeHtml(action)}">${hidden}<button type="submit"${secondary ? ' class="secondary"' : ''}>${escapeHtml(label)}</button></form>`;
}

export function sendHtml(res: http.ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(html);
}

export function redirect(res: http.ServerResponse, location: string): void {
  res.writeHead(303, { location, 'content-length': '0' }).end();
}

/** A form body (`application/x-www-form-urlencoded`). */
export const formOf = (raw: string) => new URLSearchParams(raw);
