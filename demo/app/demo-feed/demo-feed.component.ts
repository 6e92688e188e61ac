import { html, LitElement, nothing, type PropertyValues } from 'lit';
import type { DemoApi, DemoEvent } from '../demo-api';
import { formatKobo, formatTime } from '../format';
import { panelStyles } from '../panel.styles';
import { Poller } from '../poller';
import { feedStyles } from './demo-feed.styles';

const POLL_MS = 1_000;

const LABELS: Record<string, string> = {
  'preapproval.received': 'Credit decision received',
  'preapproval.expired': 'Decision lapsed',
  'loan.kyc.attested': 'AML screen',
  'review.opened': 'Held for a person',
  'review.closed': 'Review decided',
  'loan.approved': 'Loan approved',
  'loan.offer.issued': 'Offer issued',
  'loan.offer.accepted': 'Offer signed',
  'loan.offer.declined': 'Offer declined',
  'loan.cancelled': 'Loan cancelled',
  'mandate.active': 'Direct debit active',
  'loan.disbursed': 'Money disbursed',
  'loan.repayment.completed': 'Repayment allocated',
  'loan.completed': 'Loan fully repaid',
  'loan.defaulted': 'Loan defaulted',
};

const kobo = (value: unknown) => (typeof value === 'number' ? formatKobo(value) : '');

function summary(event: DemoEvent): string {
  const d = event.data;
  switch (event.event) {
    case 'preapproval.received':
      return d.status === 'declined' ? 'recommendation: decline · no loan' : `${kobo(d.approvedAmountKobo)} approved for ${d.tenorDays} days`;
    case 'loan.kyc.attested':
      return `screen ${d.amlScreenStatus} · loan ${d.status}`;
    case 'review.opened':
      return `${String(d.openedReason).replace(/_/g, ' ')} · loan ${d.status}`;
    case 'review.closed':
      return `${String(d.closedReason)} · loan ${d.status}`;
    case 'loan.approved':
    case 'loan.offer.issued':
      return `${kobo(d.principalKobo)} · ${d.documentReference}`;
    case 'loan.offer.accepted':
      return `signed ${d.documentReference}`;
    case 'mandate.active':
      return d.provider === 'rail_c' ? 'the partner’s own direct debit (a status marker)' : 'the bank confirmed the direct debit (sandbox provider)';
    case 'loan.disbursed':
      return `${kobo(d.disbursedAmountKobo)} to ${String(d.settlementDestination).replace(/_/g, ' ')}`;
    case 'loan.repayment.completed':
      return `${kobo(d.amountKobo)} (fee ${kobo(d.feePortionKobo)}, interest ${kobo(d.interestPortionKobo)}, principal ${kobo(d.principalPortionKobo)}) · ${kobo(d.outstandingKobo)} outstanding`;
    case 'loan.completed':
      return `${kobo(d.amountPaidKobo)} paid in total`;
    default:
      return typeof d.status === 'string' ? `loan ${d.status}` : '';
  }
}

/**
 * The run's webhook events as they arrive, oldest first: read from the platform's event log (the
 * outbox the webhook dispatcher delivers from) through the demo server, after the last one seen.
 * Each shows its name, a one-line summary and the `data` a partner's webhook receives.
 */
export class DemoFeed extends LitElement {
  static override styles = [panelStyles, feedStyles];
  static override properties = { api: { attribute: false }, runId: { attribute: false }, events: { state: true } };

  declare api: DemoApi;
  declare runId: string | null;
  declare private events: DemoEvent[];
  private cursor: string | null = null;
  private readonly poller = new Poller(this, (signal) => this.load(signal), POLL_MS);

  constructor() {
    super();
    this.runId = null;
    this.events = [];
  }

  private async load(signal: AbortSignal) {
    const runId = this.runId;
    if (!runId) return;
    const page = await this.api.events(runId, this.cursor, signal);
    if (runId !== this.runId) return;
    this.cursor = page.cursor;
    if (page.events.length) this.events = [...this.events, ...page.events];
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('runId')) return;
    this.events = [];
    this.cursor = null;
    if (this.runId) this.poller.start();
    else this.poller.stop();
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has('events') && this.events.length) {
      const body = this.renderRoot.querySelector('.body');
      body?.scrollTo({ top: body.scrollHeight });
    }
  }

  override render() {
    return html`<section class="panel" aria-labelledby="feed-title">
      <header>
        <h2 id="feed-title">Webhook events</h2>
        <p class="hint">live from the platform’s event log, oldest first</p>
      </header>
      <div class="body">
        ${this.poller.error ? html`<p class="error" role="alert">${this.poller.error.message}</p>` : nothing}
        ${this.events.length === 0
          ? html`<p class="empty">${this.runId ? 'Waiting for the first event…' : 'Events appear here as the platform emits them.'}</p>`
          : html`<ol aria-label="Webhook events, oldest first" aria-live="polite">
              ${this.events.map(
                (e) => html`<li class="event" data-event=${e.event}>
                  <div class="row"><time datetime=${e.createdAt}>${formatTime(e.createdAt)}</time><code class="name">${e.event}</code><span class="label">${LABELS[e.event] ?? ''}</span></div>
                  <p class="summary">${summary(e)}</p>
                  <details><summary>Payload</summary><pre>${JSON.stringify(e.data, null, 2)}</pre></details>
                </li>`,
              )}
            </ol>`}
      </div>
    </section>`;
  }
}
