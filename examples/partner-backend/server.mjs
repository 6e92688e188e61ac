/**
 * An example partner backend: the smallest real integration of the lending platform, using only the client
 * package (`@lending-platform/client`) and Express.
 *
 * - `GET /`               a form: a borrower applies; the loans this app made, with their status
 * - `POST /apply`         pushes the credit decision, issues the offer, opens the loan's page
 * - `GET /loans/:id`      embeds the borrower checkout with the script tag and a checkout session (minted, then reused
 *                         while it lasts; `?renew` when the checkout says it expired); the loan's status and the
 *                         webhooks received for it update live
 * - `POST /webhooks`      verifies each delivery over the raw body, records it once (deliveries are at least once)
 *
 * At start it lists its own origin in the organisation's checkout settings (so the embedded checkout may run on
 * its pages) and registers its webhook endpoint (the signing secret is shown once; it keeps it in memory).
 *
 *   LENDING_PUBLIC_KEY=pk_test_… LENDING_SECRET_KEY=sk_test_… npm run example
 *
 * Environment: LENDING_BASE_URL (default http://localhost:3000), LENDING_PUBLIC_KEY, LENDING_SECRET_KEY,
 * PORT (default 4000; 0 picks a free one), EXAMPLE_PUBLIC_URL (where the platform reaches this app; default
 * http://localhost:PORT). Webhooks to a localhost URL need the platform started with WEBHOOK_ALLOW_LOOPBACK=true
 * (development only).
 */
import crypto from 'node:crypto';
import express from 'express';
import { createLendingClient, LendingApiError, verifyLendingWebhook, WebhookVerificationError } from '@lending-platform/client';

const platformUrl = (process.env.LENDING_BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const publicKey = process.env.LENDING_PUBLIC_KEY;
const secretKey = process.env.LENDING_SECRET_KEY;
if (!publicKey || !secretKey) {
  console.error('Set LENDING_PUBLIC_KEY and LENDING_SECRET_KEY to the test key pair `npm start` printed (or one from the dashboard).');
  process.exit(1);
}
const lending = createLendingClient({ baseUrl: platformUrl, publicKey, secretKey });

/** What this app remembers (a real backend keeps it in its database). */
const loans = new Map(); // loanId → { id, preapprovalId, borrower, amountNaira, createdAt }
const events = new Map(); // event id → { id, event, loanId, receivedAt }
const sessions = new Map(); // loanId → the checkout session its page embeds ({ token, expiresAt, … })
let signingSecret;

/** A fresh test-mode BVN for the form (a real app has the borrower's own from its KYC step): each application its own borrower. */
const sandboxBvn = () => `2${String(crypto.randomInt(0, 1e10)).padStart(10, '0')}`;
const escape = (value) => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside a <script>: no `<` can close the element. */
const scriptJson = (value) => JSON.stringify(value).replace(/</g, '\\u003c');
const page = (title, body) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Example partner</title><link rel="icon" href="data:,">
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #1f2933; background: #f5f7fa; }
  header { background: #0f766e; color: #fff; padding: 12px 16px; } header a { color: #fff; }
  main { max-width: 640px; margin: 0 auto; padding: 16px; overflow-wrap: anywhere; }
  label { display: block; margin: 12px 0 4px; font-weight: 600; }
  input { width: 100%; box-sizing: border-box; padding: 10px; font: inherit; border: 1px solid #9aa5b1; border-radius: 6px; }
  button { margin-top: 16px; padding: 12px 16px; font: inherit; font-weight: 600; color: #fff; background: #0f766e; border: 0; border-radius: 6px; }
  table { width: 100%; border-collapse: collapse; } td, th { text-align: left; padding: 6px 4px; border-bottom: 1px solid #d9e2ec; }
  .status { font-weight: 700; } .error { color: #b42318; } .hint { margin: 4px 0 0; font-size: 14px; color: #52606d; }
</style></head>
<body><header><a href="/">Example partner</a></header><main>${body}</main></body></html>`;

/** The webhooks about one application: its pre-approval's, then its loan's, in the order received. */
function eventsOf(loan) {
  return [...events.values()].filter((e) => e.loanId === loan.id || (e.preapprovalId && e.preapprovalId === loan.preapprovalId)).sort((a, b) => a.receivedAt.localeCompare(b.receivedAt));
}

const app = express();

// Webhooks first, with the raw body: the signature covers the exact bytes.
app.post('/webhooks', express.raw({ type: 'application/json', limit: '1mb' }), async (req, res) => {
  try {
    const delivery = await verifyLendingWebhook(req.body, req.headers, signingSecret);
    const data = delivery.data ?? {};
    if (!events.has(delivery.id)) {
      const loanId = data.loanId ?? (delivery.event.startsWith('loan.') ? data.id : null);
      events.set(delivery.id, { id: delivery.id, event: delivery.event, loanId, preapprovalId: data.preapprovalId ?? null, receivedAt: new Date().toISOString() });
    }
    res.status(200).end();
  } catch (error) {
    // A bad signature is refused; the platform retries, and a forged delivery never counts.
    res.status(error instanceof WebhookVerificationError ? 400 : 500).end();
  }
});

app.use(express.urlencoded({ extended: false }));

app.get('/', (_req, res) => {
  const rows = [...loans.values()]
    .reverse()
    .map((l) => `<tr><td><a href="/loans/${escape(l.id)}">${escape(l.borrower)}</a></td><td>₦${escape(l.amountNaira.toLocaleString('en-NG'))}</td><td>${escape(l.createdAt.slice(0, 16).replace('T', ' '))}</td></tr>`)
    .join('');
  res.type('html').send(
    page(
      'Apply',
      `<h1>Pay for it in instalments</h1>
<form method="post" action="/apply">
  <label for="firstName">First name</label><input id="firstName" name="firstName" required autocomplete="given-name" value="Ada">
  <label for="lastName">Last name</label><input id="lastName" name="lastName" required autocomplete="family-name" value="Obi">
  <label for="phone">Phone number</label><input id="phone" name="phone" required inputmode="tel" autocomplete="tel" value="+2348012345678">
  <label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="email" value="ada@example.com">
  <label for="bvn">BVN</label><input id="bvn" name="bvn" required inputmode="numeric" autocomplete="off" aria-describedby="bvn-hint" value="${sandboxBvn()}">
  <p class="hint" id="bvn-hint">11 digits. The platform knows a borrower by their BVN: a BVN it has seen keeps that borrower's name and phone. With test keys any BVN verifies except 00000000000 (fails).</p>
  <label for="amount">Amount (naira)</label><input id="amount" name="amount" required inputmode="numeric" value="100000">
  <button type="submit">Apply</button>
</form>
${rows ? `<h2>Applications</h2><table><thead><tr><th>Borrower</th><th>Amount</th><th>When</th></tr></thead><tbody>${rows}</tbody></table>` : ''}`,
    ),
  );
});

app.post('/apply', async (req, res, next) => {
  try {
    const amountNaira = Number(String(req.body.amount ?? '').replace(/[\s,₦]/g, ''));
    if (!Number.isFinite(amountNaira) || amountNaira <= 0) return res.status(400).type('html').send(page('Apply', '<p class="error">Enter an amount in naira.</p><a href="/">Back</a>'));
    const bvn = String(req.body.bvn ?? '').replace(/\s/g, '');
    if (!/^\d{11}$/.test(bvn)) return res.status(400).type('html').send(page('Apply', '<p class="error">Enter the borrower\'s BVN: 11 digits.</p><a href="/">Back</a>'));
    const email = String(req.body.email ?? '').trim();
    const borrower = { firstName: String(req.body.firstName), lastName: String(req.body.lastName), phone: String(req.body.phone), ...(email ? { email } : {}) };
    // Your credit engine decided; the push carries naira (`approved_amount`), the platform keeps kobo.
    const { data: pushed } = await lending.post('/v1/preapprovals', {
      body: {
        borrower,
        decision: {
          metadata: { assessment_id: `example_${crypto.randomUUID()}`, bvn },
          decision: { recommendation: 'APPROVE', approved_amount: amountNaira, conditions: { interest_rate: 3.5, tenor_days: 90, repayment_frequency: 'monthly' } },
        },
      },
    });
    const { data: loan } = await lending.post('/v1/preapprovals/{id}/issue-offer', { params: { path: { id: pushed.preapprovalId } }, body: {} });
    loans.set(loan.id, { id: loan.id, preapprovalId: pushed.preapprovalId, borrower: `${borrower.firstName} ${borrower.lastName}`, amountNaira, createdAt: new Date().toISOString() });
    res.redirect(303, `/loans/${loan.id}`);
  } catch (error) {
    next(error);
  }
});

app.get('/loans/:id', async (req, res, next) => {
  try {
    if (!loans.has(req.params.id)) return res.status(404).type('html').send(page('Not found', '<p>No such application.</p><a href="/">Back</a>'));
    const { data: loan } = await lending.get('/v1/loans/{id}', { params: { path: { id: req.params.id } } });
    // The page holds only a short-lived session token, never a key. The same session serves every view while it has
    // time left (a reload keeps the borrower's verified phone and progress; a new session would ask for a new code), a
    // fresh one after. A closed loan (declined, cancelled, completed…) has nothing left to check out: the page shows
    // its status without the checkout.
    // `?renew`: the embedded checkout said its session expired; mint a new one, then show the page at its own address.
    if ('renew' in req.query) {
      sessions.delete(loan.id);
      return res.redirect(303, `/loans/${encodeURIComponent(loan.id)}`);
    }
    let session = sessions.get(loan.id);
    if (!session || Date.parse(session.expiresAt) - Date.now() < 10_000) {
      session = null;
      try {
        ({ data: session } = await lending.post('/v1/loans/{id}/checkout-sessions', { params: { path: { id: loan.id } } }));
        sessions.set(loan.id, session);
      } catch (error) {
        if (!(error instanceof LendingApiError && error.code === 'invalid_loan_state')) throw error;
      }
    }
    const checkout = session
      ? `<div id="loan-checkout"></div>
<script>
  (function (w, n) { w[n] = w[n] || function () { (w[n].q = w[n].q || []).push(arguments); }; })(window, 'LoanCheckout');
  LoanCheckout('mount', '#loan-checkout', {
    session: ${scriptJson(session.token)},
    onSuccess: () => refresh(),
    // A session left idle past its lifetime ends: this page asks for a new one (once a minute at most, never a loop).
    onEvent: (event) => {
      if (event.type !== 'session_expired' || event.reason !== 'expired') return;
      const last = Number(sessionStorage.getItem('example-renewed') ?? 0);
      if (Date.now() - last < 60_000) return;
      sessionStorage.setItem('example-renewed', String(Date.now()));
      location.replace(${scriptJson(`/loans/${loan.id}?renew`)});
    },
  });
</script>
<script async src="${escape(platformUrl)}/checkout/widget.js"></script>`
      : `<p id="checkout-closed">Nothing is left to do in the checkout for this loan. <a href="/">Start a new application</a></p>`;
    res.type('html').send(
      page(
        'Your loan',
        `<h1>Your loan</h1>
<p>Status: <span class="status" id="status">${escape(loan.status)}</span></p>
${checkout}
<h2>Webhooks received</h2>
<ul id="events"></ul>
<script>
  async function refresh() {
    const answer = await fetch(${scriptJson(`/loans/${loan.id}/status.json`)}).then((r) => r.json());
    document.getElementById('status').textContent = answer.status;
    const list = document.getElementById('events');
    list.replaceChildren(...answer.events.map((e) => Object.assign(document.createElement('li'), { textContent: e.event + ' (verified)' })));
  }
  refresh();
  setInterval(refresh, 2000);
</script>`,
      ),
    );
  } catch (error) {
    next(error);
  }
});

app.get('/loans/:id/status.json', async (req, res, next) => {
  try {
    if (!loans.has(req.params.id)) return res.status(404).json({ error: 'not_found' });
    const { data: loan } = await lending.get('/v1/loans/{id}', { params: { path: { id: req.params.id } } });
    res.set('Cache-Control', 'no-store').json({ status: loan.status, events: eventsOf(loans.get(loan.id)).map((e) => ({ event: e.event, receivedAt: e.receivedAt })) });
  } catch (error) {
    next(error);
  }
});

// The platform's typed errors carry a code and a link to what to do.
app.use((error, _req, res, _next) => {
  const detail = error instanceof LendingApiError ? `${error.status} ${error.code}: ${error.message}` : String(error?.message ?? error);
  const docUrl = error instanceof LendingApiError ? error.docUrl : undefined;
  console.error(docUrl ? `${detail} (${docUrl})` : detail);
  const more = docUrl ? ` <a href="${escape(docUrl)}">What this error means</a>` : '';
  res.status(502).type('html').send(page('Something went wrong', `<p class="error">${escape(detail)}</p><p>${more} <a href="/">Back</a></p>`));
});

const server = app.listen(Number(process.env.PORT ?? 4000), '127.0.0.1', async (error) => {
  if (error) {
    console.error(`could not listen on 127.0.0.1:${process.env.PORT ?? 4000}: ${error.message} (set PORT to a free port, or 0 for any)`);
    process.exit(1);
  }
  const port = server.address().port;
  const publicUrl = (process.env.EXAMPLE_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    // Let the embedded checkout run on this app's pages (and keep the origins already listed).
    const { data: settings } = await lending.get('/v1/checkout-settings');
    const origins = new Set([...(settings.allowedOrigins ?? []), new URL(publicUrl).origin, `http://127.0.0.1:${port}`]);
    await lending.patch('/v1/checkout-settings', { body: { allowedOrigins: [...origins] } });
    // One endpoint for this app: replace the one an earlier run registered (its secret is gone with that run).
    const webhookUrl = `${publicUrl}/webhooks`;
    const { data: endpoints } = await lending.get('/v1/webhook-endpoints');
    for (const old of endpoints.filter((e) => e.url === webhookUrl)) await lending.delete('/v1/webhook-endpoints/{id}', { params: { path: { id: old.id } } });
    const { data: endpoint } = await lending.post('/v1/webhook-endpoints', { body: { url: webhookUrl, description: 'example partner backend' } });
    signingSecret = endpoint.signingSecret;
    console.log(`example partner backend listening on http://127.0.0.1:${port} (open ${publicUrl}); platform ${platformUrl}`);
  } catch (error) {
    console.error(`could not set up against ${platformUrl}: ${error instanceof LendingApiError ? `${error.status} ${error.code}: ${error.message}` : error.message}`);
    process.exit(1);
  }
});
