import path from 'node:path';
import express from 'express';
import { AppError } from '../domain/errors';
import type { Platform } from '../platform';
import { readNewestSandboxMail } from '../../integrations/mailer';
import { readRecentSandboxSms } from '../../integrations/sms';
import { escapeHtml } from '../../shared/escape-html';
import { contentSecurityPolicy, newNonce, renderPageShell } from '../../shared/page-shell';

/**
 * `GET /sandbox/mail` (also `/sandbox/inbox`): the sandbox inbox as one page, for a developer waiting for a code or a
 * link: the newest e-mails the sandbox mailer wrote to `MAIL_DIR` (sign-up verification, password reset, invitation)
 * and the test-mode texts of the last 24 hours (every phone), newest first. No script; a link to check again.
 *
 * Who may read it. The e-mails carry working links with tokens (a reset link is a way into an account), so the page is
 * mounted only with the sandbox routes (`SANDBOX_ROUTES_ENABLED`, which the production profile refuses), and answers
 * only a browser on this machine: the connection must come from a loopback address and carry no forwarding header
 * (a reverse proxy on the same machine would make every remote visitor look local). Anyone else gets 403
 * `sandbox_inbox_loopback_only`. A developer on another machine reaches it through a tunnel that ends on loopback
 * (`ssh -L 3000:127.0.0.1:3000 host`), or reads the JSON files in `MAIL_DIR`.
 */
export function createSandboxInboxRouter(platform: Pick<Platform, 'db' | 'clock' | 'config'>): express.Router {
  const router = express.Router();
  const mailDir = platform.config.MAIL_DIR ?? path.join(platform.config.DATA_DIR, 'mail');
  router.use((req, _res, next) => {
    if (!isFromThisMachine(req)) {
      throw new AppError('sandbox_inbox_loopback_only', 'The sandbox inbox answers only a browser on the machine the server runs on (loopback, no proxy); open it there, or read the files in MAIL_DIR.');
    }
    next();
  });
  const page: express.RequestHandler = async (_req, res) => {
    const since = new Date(platform.clock.now().getTime() - 24 * 3_600_000);
    const [mail, texts] = await Promise.all([
      platform.config.SMTP_URL ? Promise.resolve(undefined) : readNewestSandboxMail(mailDir),
      readRecentSandboxSms(platform.db, since),
    ]);
    const nonce = newNonce();
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', contentSecurityPolicy({ styleNonce: nonce }));
    res.type('html').send(
      renderPageShell({
        title: 'Sandbox inbox',
        nonce,
        styles: [STYLES],
        body: renderBody(mail, texts.map((t) => ({ to: t.phone, from: t.sender, body: t.body, sentAt: t.createdAt }))),
      }),
    );
  };
  router.get('/', page);
  router.head('/', page);
  return router;
}

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'via'];

/** The peer is this machine (127.0.0.0/8, ::1, or those as IPv4-mapped IPv6) and no proxy sits in between. */
export function isFromThisMachine(req: Pick<express.Request, 'socket' | 'headers'>): boolean {
  const address = (req.socket.remoteAddress ?? '').replace(/^::ffff:/i, '');
  const loopback = address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
  return loopback && FORWARDING_HEADERS.every((name) => req.headers[name] === undefined);
}

interface Text {
  to: string;
  from: string;
  body: string;
  sentAt: string;
}

function renderBody(mail: Array<{ to: string; from: string; subject: string; text: string; sentAt: string }> | undefined, texts: Text[]): string {
  const mailSection = mail === undefined
    ? '<p class="muted">E-mail goes out by SMTP (<code>SMTP_URL</code> is set), so there is no sandbox mail to show.</p>'
    : mail.length === 0
      ? '<p class="muted">No e-mail yet. Sign up, ask for a password reset or invite a colleague, then check again.</p>'
      : `<ol class="messages">${mail.map((m) => `<li><article>
  <h3>${escapeHtml(m.subject)}</h3>
  <p class="meta">To <strong>${escapeHtml(m.to)}</strong> · ${when(m.sentAt)}</p>
  <div class="body">${linkify(m.text)}</div>
</article></li>`).join('\n')}</ol>`;
  const textSection = texts.length === 0
    ? '<p class="muted">No texts in the last 24 hours. A checkout sends one when the borrower asks for a code.</p>'
    : `<ol class="messages">${texts.map((t) => `<li><article>
  <p class="meta">To <strong>${escapeHtml(t.to)}</strong> from ${escapeHtml(t.from)} · ${when(t.sentAt)}</p>
  <div class="body">${linkify(t.body)}</div>
</article></li>`).join('\n')}</ol>`;
  return `<main>
  <h1>Sandbox inbox</h1>
  <p class="muted">What the sandbox sent instead of real e-mail and texts, newest first. Only on this machine, never in production.</p>
  <p><a class="again" href="">Check again</a></p>
  <section aria-labelledby="mail"><h2 id="mail">E-mail</h2>${mailSection}</section>
  <section aria-labelledby="texts"><h2 id="texts">Texts (test mode, last 24 hours)</h2>${textSection}</section>
</main>`;
}

const when = (iso: string) => `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'))}</time>`;

/** Escapes the text and makes its http(s) links clickable (a code or link is what the reader came for). */
function linkify(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"]+)/)
    .map((part, index) => (index % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part)))
    .join('');
}

const STYLES = `
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1a1a1a; background: #f6f7f9; }
  main { max-width: 46rem; margin: 0 auto; padding: 1rem; }
  h1 { font-size: 1.5rem; margin: .5rem 0; }
  h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
  h3 { font-size: 1rem; margin: 0 0 .25rem; }
  .muted, .meta { color: #4a5160; }
  .meta { font-size: .875rem; margin: 0 0 .5rem; }
  .messages { list-style: none; padding: 0; margin: 0; display: grid; gap: .75rem; }
  article { background: #fff; border: 1px solid #d5d9e0; border-radius: 8px; padding: .75rem 1rem; }
  .body { white-space: pre-wrap; overflow-wrap: anywhere; }
  a { color: #0b5cad; }
  a.again { display: inline-block; padding: .5rem 1rem; border: 1px solid #0b5cad; border-radius: 6px; text-decoration: none; min-height: 24px; }
  code { font-size: .9em; }
`;
