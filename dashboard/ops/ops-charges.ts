import { css, html, LitElement, nothing } from 'lit';
import { DashboardApiError } from '../api';
import { describedBy, fieldError, fieldErrorLine } from '../ui/field-errors';
import { naira, when } from '../ui/format';
import { KeysetList } from '../ui/keyset-list';
import { dashStyles } from '../ui/styles';
import { opsApi } from './ops-api';

interface Charge {
  id: string;
  loanId: string;
  organisationName: string;
  mode: 'test' | 'live';
  provider: string;
  amountKobo: number;
  reference: string;
  problem: 'collected_not_applied' | 'outcome_unknown';
  failureReason: string | null;
  createdAt: string;
  proposalId: string | null;
}
interface RailReading {
  status: 'processing' | 'succeeded' | 'failed' | 'not_found';
  chargeReference: string | null;
  failureReason: string | null;
}

const PROBLEM: Record<Charge['problem'], string> = {
  collected_not_applied: 'Collected, not applied',
  outcome_unknown: 'Outcome unknown',
};
const RAIL: Record<RailReading['status'], string> = {
  succeeded: 'The rail took it: apply it.',
  processing: 'Still processing at the rail: look again later.',
  failed: 'The rail says it failed: no money was taken, release it.',
  not_found: 'The rail has no charge by this reference: no money was taken, release it.',
};
const messageOf = (error: unknown): string => (error instanceof DashboardApiError ? error.message : 'Something went wrong. Please try again.');

/**
 * `<ops-charges>`: mandate charges that need a person — collected but not applied, or with an unknown outcome. "Look up
 * at the rail" reads the charge (never a new debit) and shows what the rail says; "Apply" applies a collected charge
 * to its loan (in live mode: a proposal another staff member approves); "Release" marks a charge that took no money
 * as failed with a reason.
 */
export class OpsCharges extends LitElement {
  static override styles = [
    dashStyles,
    css`
      td form { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; margin: 0; }
      td form input { width: 11rem; min-height: 36px; }
      td button { min-height: 36px; padding: 0.3rem 0.7rem; }
      td .field-error { flex-basis: 100%; margin: 0; }
      .actions { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; }
      .status { margin: 0.5rem 0; }
      .reading { display: block; margin-top: 0.25rem; font-size: 0.9rem; }
    `,
  ];
  static override properties = { message: { state: true }, failure: { state: true }, fieldErrors: { state: true }, readings: { state: true } };
  message = '';
  failure = '';
  fieldErrors: Record<string, string> = {};
  /** What the rail said of a charge, by its id, after "Look up at the rail". */
  readings: Record<string, RailReading> = {};
  private charges = new KeysetList<Charge>(this, { client: opsApi, path: '/charges', failure: 'The charges could not be loaded.' });

  override connectedCallback(): void {
    super.connectedCallback();
    void this.charges.load();
  }

  private reset() {
    this.message = '';
    this.failure = '';
    this.fieldErrors = {};
  }

  private async lookUp(charge: Charge) {
    this.reset();
    try {
      const data = await opsApi.post<{ rail: RailReading }>(`/charges/${charge.id}/look-up`, {});
      this.readings = { ...this.readings, [charge.id]: data.rail };
      this.message = `${charge.reference}: ${RAIL[data.rail.status]}`;
    } catch (error) {
      this.failure = messageOf(error);
    }
  }

  private async apply(charge: Charge) {
    this.reset();
    try {
      const data = await opsApi.post<{ outcome: string }>(`/charges/${charge.id}/apply`, {});
      this.message = data.outcome === 'proposed' ? 'Proposed: another staff member must approve it under Proposals.' : `Charge ${charge.reference} applied to the loan.`;
      await this.charges.load();
    } catch (error) {
      this.failure = messageOf(error);
    }
  }

  private async release(event: SubmitEvent, charge: Charge) {
    event.preventDefault();
    this.reset();
    const form = event.target as HTMLFormElement;
    try {
      await opsApi.post(`/charges/${charge.id}/release`, { reason: new FormData(form).get('reason') });
      this.message = `Charge ${charge.reference} released: it will not be sent again.`;
      await this.charges.load();
    } catch (error) {
      const { field, message } = fieldError(error, { reason: 'Reason to release' }, messageOf(error));
      if (field) this.fieldErrors = { [`release-${charge.id}`]: message };
      else this.failure = message;
    }
  }

  /** The charge's loan, on its console page (`<ops-loan>`). */
  private openLoan(event: Event, loanId: string) {
    event.preventDefault();
    history.pushState(null, '', `/ops/loans/${loanId}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }

  private row(c: Charge) {
    const id = `release-${c.id}`;
    const reading = this.readings[c.id];
    const error = this.fieldErrors[id];
    return html`<tr>
      <td data-label="Created">${when(c.createdAt)}</td>
      <td data-label="Organisation">${c.organisationName}</td>
      <td data-label="Mode"><span class="badge ${c.mode === 'live' ? 'warn' : 'test'}">${c.mode}</span></td>
      <td data-label="Amount" class="num"><a href="/ops/loans/${c.loanId}" @click=${(e: Event) => this.openLoan(e, c.loanId)}>${naira(c.amountKobo)}<span class="visually-hidden">: open the loan</span></a></td>
      <td data-label="Charge"><span><code>${c.reference}</code><br />${c.provider.replace(/_/g, ' ')}</span></td>
      <td data-label="Problem"><span>${PROBLEM[c.problem]}${reading ? html`<span class="reading">Rail: ${RAIL[reading.status]}</span>` : nothing}</span></td>
      <td data-label="Action">${c.proposalId
        ? html`<span class="badge warn">Awaiting approval</span>`
        : html`<div class="actions">
            <button class="secondary" aria-label="Look up at the rail: ${c.reference}" @click=${() => this.lookUp(c)}>Look up at the rail</button>
            ${reading && reading.status !== 'succeeded' ? nothing : html`<button aria-label="Apply: ${c.reference}" @click=${() => this.apply(c)}>Apply</button>`}
            ${c.problem === 'outcome_unknown' && reading?.status !== 'succeeded'
              ? html`<form aria-label="Release charge ${c.reference}" @submit=${(e: SubmitEvent) => this.release(e, c)}>
                  <label class="visually-hidden" for=${id}>Reason to release ${c.reference}</label>
                  <input id=${id} name="reason" required minlength="3" maxlength="500" placeholder="Reason to release" aria-invalid=${error ? 'true' : nothing} aria-describedby=${describedBy(id, false, Boolean(error))} />
                  <button class="secondary">Release</button>
                  ${fieldErrorLine(id, error)}
                </form>`
              : nothing}
          </div>`}</td>
    </tr>`;
  }

  override render() {
    const list = this.charges;
    return html`<h1>Charges that need a person</h1>
      <p class="muted">Mandate charges the rail took but the loan did not take in, and charges whose outcome the rail left unknown. Look each up at the rail first: nothing is sent.</p>
      <div role="status" class="status">${this.message ? html`<p class="notice">${this.message}</p>` : nothing}</div>
      ${this.failure ? html`<p role="alert" class="error">${this.failure}</p>` : nothing}
      <div class="table-wrap has-cards"><table class="cards">
        <thead><tr><th>Created</th><th>Organisation</th><th>Mode</th><th class="num">Amount</th><th>Charge</th><th>Problem</th><th>Action</th></tr></thead>
        <tbody>${list.rows.map((c) => this.row(c))}</tbody>
      </table></div>
      ${list.rows.length === 0 && !list.loading ? html`<p class="muted">No charge needs a person.</p>` : nothing}
      ${list.error ? html`<p role="alert" class="error">${list.error}</p>` : nothing}
      ${list.nextCursor ? html`<button class="secondary" ?disabled=${list.loading !== ''} @click=${() => list.load(true)}>Show more</button>` : nothing}`;
  }
}

customElements.define('ops-charges', OpsCharges);
