import type { Request } from 'express';
import type { OfferLetterLinkRefusal } from '../domain/checkout/offer-letter-link-refusal';
import { escapeHtml } from '../../shared/escape-html';
import { linkPageText } from '../../shared/link-page-texts';
import { contentSecurityPolicy, newNonce, renderPageShell } from '../../shared/page-shell';

/**
 * Whether the caller is a browser that landed on a link (it asks for HTML before JSON). API clients
 * (`Accept: application/json`, or no preference at all) keep the JSON error answer.
 */
export const wantsPage = (req: Request): boolean => req.accepts(['application/json', 'text/html']) === 'text/html';

const STYLE = `body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#fff}
main{max-width:32rem;margin:0 auto;padding:24px 16px}
.bar{height:6px;background:var(--brand)}
.lender{font-weight:600;margin:0 0 24px}
h1{font-size:1.375rem;line-height:1.3;margin:0 0 12px}
p{margin:0 0 12px}
ul{list-style:none;padding:0;margin:0 0 24px}
li{margin:0 0 8px}
a{color:#1d4ed8;text-underline-offset:2px}
footer{margin-top:32px;font-size:.875rem;color:#4b5563}`;

/**
 * The branded page of a signed link that no longer works, in the borrower's language: what happened,
 * the way forward (the checkout opens the letter with a new link on every tap), and — for a link this
 * platform signed — the lender's name, colour and contact from its checkout settings. Plain HTML, no
 * script; nothing of the loan beyond the lender's public face.
 */
export function renderLinkRefusalPage(refusal: OfferLetterLinkRefusal, platformName: string): { html: string; csp: string } {
  const { locale, lender } = refusal;
  const text = (key: Parameters<typeof linkPageText>[1], params?: Record<string, string>) => escapeHtml(linkPageText(locale, key, params));
  const title = linkPageText(locale, `${refusal.reason}.title`);
  const contacts = lender
    ? [
        lender.phone ? `<li><a href="tel:${escapeHtml(lender.phone.replace(/[^\d+]/g, ''))}">${escapeHtml(lender.phone)}</a></li>` : '',
        lender.email ? `<li><a href="mailto:${escapeHtml(lender.email)}">${escapeHtml(lender.email)}</a></li>` : '',
        lender.url ? `<li><a href="${escapeHtml(lender.url)}" rel="noopener">${escapeHtml(lender.url.replace(/^https?:\/\//, ''))}</a></li>` : '',
      ].join('')
    : '';
  const nonce = newNonce();
  // The brand colour is only a decorative bar (no text on it), so any colour keeps the page's contrast.
  const brand = lender?.brandColor && /^#[0-9a-f]{6}$/i.test(lender.brandColor) ? lender.brandColor : '#1d4ed8';
  const html = renderPageShell({
    title,
    lang: locale,
    nonce,
    styles: [`:root{--brand:${brand}}\n${STYLE}`],
    body: `  <div class="bar"></div>
  <main>
    ${lender ? `<p class="lender">${escapeHtml(lender.name)}</p>` : ''}
    <h1>${escapeHtml(title)}</h1>
    <p>${text(`${refusal.reason}.body`)}</p>
    <p>${text('next')}</p>
    ${lender && contacts ? `<p>${text('contact', { lender: lender.name })}</p>\n    <ul>${contacts}</ul>` : ''}
    <footer>${text('securedBy', { platform: platformName })}</footer>
  </main>`,
  });
  return { html, csp: contentSecurityPolicy({ styleNonce: nonce }) };
}
