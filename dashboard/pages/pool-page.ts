import { css, html, LitElement, nothing } from 'lit';
import { api, type Mode } from '../api';
import { allowed } from '../session';
import { confirmAction } from '../ui/confirm-dialog';
import '../ui/copy-button';
import { naira, when, typedNumber } from '../ui/format';
import { dashStyles } from '../ui/styles';
import { describedBy, fieldError, fieldErrorLine, type FieldError } from '../ui/field-errors';
import { scaleDecimal } from '../../server/shared/decimal';

interface PoolBalance {
  code: string;
  currency: string;
  balanceKobo: number;
}
interface FundingNotice {
  id: string;
  poolCode: string;
  amountKobo: number;
  reference: string;
  status: 'pending' | 'confirmed';
  createdAt: string;
  confirmedAt: string | null;
}
interface PoolState {
  mode: Mode;
  pools: PoolBalance[];
  notices: FundingNotice[];
  productPoolCodes: string[];
}
interface Movement {
  id: string;
  poolCode: string;
  amountKobo: number;
  kind: string;
  reference: string;
  description: string | null;
  createdAt: string;
}
type Funding = { kind: 'funded'; balance: PoolBalance } | { kind: 'notice'; notice: FundingNotice };

/** The funding form's fields as the server names them, and their labels on the form. */
const FUND_LABELS: Record<string, string> = { pool: 'Pool code', amountKobo: 'Amount (₦)' };

/** Capital pool: balances, funding (instant in test mode, a bank-transfer notice in live mode), ledger movements. */
export class DashPoolPage extends LitElement {
  static override styles = [
    dashStyles,
    css`
      .balances { display: grid; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); gap: 1rem; margin-bottom: 1rem; }
      .balances .card { margin: 0; }
      .amount { font-size: 1.6rem; font-weight: 700; font-variant-numeric: tabular-nums; }
      .fund { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: 0 1rem; align-items: start; }
      form.card h2 { margin-top: 0; }
      .submit { margin-top: 1rem; }
      .credit { color: var(--dash-ok); }
      .debit { color: var(--dash-danger); }
    `,
  ];
  static override properties = {
    mode: {},
    state: { state: true },
    movements: { state: true },
    nextCursor: { state: true },
    loading: { state: true },
    loadingMore: { state: true },
    error: { state: true },
    pool: { state: true },
    amount: { state: true },
    funding: { state: true },
    fundError: { state: true },
    done: { state: true },
  };
  mode: Mode = 'test';
  state: PoolState | undefined;
  movements: Movement[] = [];
  nextCursor: string | null = null;
  loading = false;
  loadingMore = false;
  error = '';
  pool = '';
  amount = '';
  funding = false;
  fundError: FieldError | undefined;
  done: Funding | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    this.loading = true;
    this.error = '';
    try {
      const [state, page] = await Promise.all([api.get<PoolState>('/pool'), api.page<Movement>('/pool/movements')]);
      this.state = state;
      this.movements = page.data;
      this.nextCursor = page.nextCursor;
      if (!this.pool) this.pool = state.pools[0]?.code ?? state.productPoolCodes[0] ?? 'MAIN';
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.loading = false;
    }
  }

  private async more() {
    this.loadingMore = true;
    try {
      const page = await api.page<Movement>('/pool/movements', { cursor: this.nextCursor });
      this.movements = [...this.movements, ...page.data];
      this.nextCursor = page.nextCursor;
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.loadingMore = false;
    }
  }

  private async fund(event: Event) {
    event.preventDefault();
    this.done = undefined;
    const amountKobo = scaleDecimal(typedNumber(this.amount), 2);
    if (amountKobo === undefined || amountKobo <= 0) {
      this.fundError = { field: 'amountKobo', message: 'Enter naira with at most 2 decimals, more than 0 (e.g. 250000 or 1,500.50).' };
      return;
    }
    const pool = this.pool.trim();
    if (this.mode === 'live') {
      const ok = await confirmAction({
        title: `Fund ${pool} with ${naira(amountKobo)}?`,
        body: 'We give you a transfer reference. Send the amount from your bank quoting it; the pool is credited once we confirm the transfer arrived.',
        confirm: 'Get transfer reference',
      });
      if (!ok) return;
    }
    this.funding = true;
    this.fundError = undefined;
    try {
      this.done = await api.post<Funding>('/pool/fund', { pool, amountKobo });
      this.amount = '';
      await this.load();
    } catch (error) {
      this.fundError = fieldError(error, FUND_LABELS, 'Funding failed; try again.');
    } finally {
      this.funding = false;
    }
  }

  private renderDone() {
    const done = this.done;
    if (!done) return nothing;
    if (done.kind === 'funded') return html`<p role="status" class="notice">Pool <code>${done.balance.code}</code> funded. Its balance is now ${naira(done.balance.balanceKobo)}.</p>`;
    return html`<div role="status" class="notice">
      <p><strong>Transfer ${naira(done.notice.amountKobo)} quoting reference <code data-testid="funding-reference">${done.notice.reference}</code>.</strong></p>
      <p>Use the settlement account in your agreement with us. Pool <code>${done.notice.poolCode}</code> is credited once we confirm the transfer arrived; the notice below shows when.</p>
      <dash-copy-button .value=${done.notice.reference} label="Copy reference"></dash-copy-button>
    </div>`;
  }

  private fundErrorOf(field: string): string | undefined {
    return this.fundError?.field === field ? this.fundError.message : undefined;
  }

  private renderFundForm() {
    if (!allowed('pool.fund')) return html`<p class="muted">An owner or admin of your organisation funds the pool.</p>`;
    const live = this.mode === 'live';
    const codes = [...new Set([...(this.state?.pools.map((p) => p.code) ?? []), ...(this.state?.productPoolCodes ?? [])])];
    return html`<form class="card" @submit=${this.fund} novalidate>
      <h2>${live ? 'Fund the live pool' : 'Fund the test pool'}</h2>
      <p class="muted">${live ? 'Live pools hold real money: you get a bank-transfer reference, and the pool is credited when the transfer arrives.' : 'Test pools hold sandbox money: funding is instant.'}</p>
      <div class="fund">
        <div>
          <label for="pool">Pool code</label>
          <input id="pool" .value=${this.pool} @input=${(e: Event) => (this.pool = (e.target as HTMLInputElement).value)} autocomplete="off"
            aria-invalid=${this.fundErrorOf('pool') ? 'true' : 'false'} aria-describedby=${describedBy('pool', true, Boolean(this.fundErrorOf('pool')))} />
          <div class="hint" id="pool-hint">${codes.length ? `Your pools: ${codes.join(', ')}` : 'The code your products name as their capital pool.'}</div>
          ${fieldErrorLine('pool', this.fundErrorOf('pool'))}
        </div>
        <div>
          <label for="amount">Amount (₦)</label>
          <input id="amount" inputmode="decimal" .value=${this.amount} @input=${(e: Event) => (this.amount = (e.target as HTMLInputElement).value)} autocomplete="off"
            aria-invalid=${this.fundErrorOf('amountKobo') ? 'true' : 'false'} aria-describedby=${describedBy('amount', true, Boolean(this.fundErrorOf('amountKobo')))} />
          <div class="hint" id="amount-hint">Naira, up to 2 decimals.</div>
          ${fieldErrorLine('amount', this.fundErrorOf('amountKobo'))}
        </div>
      </div>
      <div class="submit"><button type="submit" ?disabled=${this.funding}>${this.funding ? 'Funding…' : live ? 'Request funding' : 'Fund test pool'}</button></div>
      ${this.fundError
        ? html`<p role="alert" class=${this.fundError.field ? 'visually-hidden' : 'error'}>${this.fundError.field ? `${FUND_LABELS[this.fundError.field]}: ` : ''}${this.fundError.message}</p>`
        : nothing}
    </form>`;
  }

  private renderNotices() {
    const notices = this.state?.notices ?? [];
    if (this.mode !== 'live' && notices.length === 0) return nothing;
    return html`<h2>Funding notices</h2>
      ${notices.length === 0
        ? html`<p class="muted">No funding requested yet. Request funding above to get a transfer reference.</p>`
        : html`<div class="table-wrap has-cards" tabindex="0" role="region" aria-label="Funding notices"><table class="cards">
            <thead><tr><th scope="col">Reference</th><th scope="col">Pool</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col">Requested</th><th scope="col">Confirmed</th></tr></thead>
            <tbody>${notices.map(
              (n) => html`<tr><td data-label="Reference"><code>${n.reference}</code></td><td data-label="Pool"><code>${n.poolCode}</code></td><td class="num" data-label="Amount">${naira(n.amountKobo)}</td>
                <td data-label="Status">${n.status === 'confirmed' ? html`<span class="badge ok">Confirmed</span>` : html`<span class="badge warn">Awaiting transfer</span>`}</td>
                <td data-label="Requested">${when(n.createdAt)}</td><td data-label="Confirmed">${when(n.confirmedAt)}</td></tr>`,
            )}</tbody>
          </table></div>`}`;
  }

  private renderMovements() {
    return html`<h2>Ledger movements</h2>
      ${this.movements.length === 0
        ? html`<p class="muted">No movements yet. Funding, disbursements and repaid principal show here.</p>`
        : html`<div class="table-wrap has-cards" tabindex="0" role="region" aria-label="Pool ledger movements"><table class="cards">
              <thead><tr><th scope="col">When</th><th scope="col">Pool</th><th scope="col">What</th><th scope="col">Reference</th><th scope="col" class="num">Amount</th></tr></thead>
              <tbody>${this.movements.map(
                (m) => html`<tr><td data-label="When">${when(m.createdAt)}</td><td data-label="Pool"><code>${m.poolCode}</code></td><td data-label="What">${m.description ?? m.kind.replace(/_/g, ' ')}</td><td data-label="Reference"><code>${m.reference}</code></td>
                  <td data-label="Amount" class="num ${m.amountKobo < 0 ? 'debit' : 'credit'}">${m.amountKobo < 0 ? '−' : '+'}${naira(Math.abs(m.amountKobo))}</td></tr>`,
              )}</tbody>
            </table></div>
            ${this.nextCursor ? html`<p><button type="button" class="secondary" ?disabled=${this.loadingMore} @click=${this.more}>${this.loadingMore ? 'Loading…' : 'Load more'}</button></p>` : nothing}`}`;
  }

  override render() {
    const pools = this.state?.pools ?? [];
    return html`<h1 tabindex="-1">Capital pool</h1>
      <p class="muted">The money your loans are disbursed from, in ${this.mode} mode. A pool is never overdrawn: a disbursement it cannot cover is refused.</p>
      ${this.error ? html`<p role="alert" class="error">${this.error}</p>` : nothing}
      ${this.loading && !this.state ? html`<p role="status" class="muted">Loading the pool…</p>` : nothing}
      ${this.state
        ? html`<section class="balances" aria-label="Balances">
            ${pools.length === 0
              ? html`<div class="card"><p><strong>No money in a pool yet.</strong></p><p class="muted">Fund a pool below before disbursing loans.</p></div>`
              : pools.map((p) => html`<div class="card"><div class="muted">Pool <code>${p.code}</code></div><div class="amount">${naira(p.balanceKobo)}</div></div>`)}
          </section>`
        : nothing}
      ${this.renderDone()} ${this.renderFundForm()} ${this.renderNotices()} ${this.renderMovements()}`;
  }
}
customElements.define('dash-pool-page', DashPoolPage);
