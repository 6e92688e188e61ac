import { css, html, LitElement, nothing } from 'lit';
import { DashboardApiError } from '../api';
import { describedBy, fieldError, fieldErrorLine } from '../ui/field-errors';
import { naira, when } from '../ui/format';
import { KeysetList } from '../ui/keyset-list';
import { dashStyles } from '../ui/styles';
import { opsApi } from './ops-api';

interface PolicyToRecord {
  id: string;
  loanId: string;
  organisationName: string;
  mode: 'test' | 'live';
  provider: string;
  premiumKobo: number;
  principalKobo: number;
  tenorDays: number;
  createdAt: string;
  proposalId: string | null;
}

/** The server's limit (`POLICY_DOCUMENT_MAX_BYTES`), checked here first so nobody waits for a refused upload. */
const MAX_BYTES = 5 * 1024 * 1024;
const LABELS = { policyNumber: 'Policy number', documentBase64: 'Policy document (PDF)' };
const messageOf = (error: unknown): string => (error instanceof DashboardApiError ? error.message : 'Something went wrong. Please try again.');

function base64Of(bytes: ArrayBuffer): string {
  const view = new Uint8Array(bytes);
  let binary = '';
  for (let i = 0; i < view.length; i += 0x8000) binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * `<ops-insurance>`: insurance policies bound by hand, still pending. Live cover has no insurer API to call: the
 * insurer issues the policy outside the platform and a staff member records its number and the policy PDF here. In
 * live mode that is a proposal another staff member approves (under Proposals, where the document opens); in test
 * mode it takes effect at once.
 */
export class OpsInsurance extends LitElement {
  static override styles = [
    dashStyles,
    css`
      td form { display: flex; flex-direction: column; gap: 0.35rem; margin: 0; max-width: 18rem; text-align: left; }
      td form input { min-height: 36px; max-width: 100%; }
      td form input[type='file'] { font-size: 0.9rem; }
      td button { min-height: 36px; padding: 0.3rem 0.7rem; align-self: flex-start; }
      td label { font-size: 0.9rem; }
      td .field-error { margin: 0; }
      .status { margin: 0.5rem 0; }
    `,
  ];
  static override properties = { message: { state: true }, failure: { state: true }, fieldErrors: { state: true }, busy: { state: true } };
  message = '';
  failure = '';
  /** A refusal under its field, by the control's id. */
  fieldErrors: Record<string, string> = {};
  busy = '';
  private policies = new KeysetList<PolicyToRecord>(this, { client: opsApi, path: '/insurance-policies', failure: 'The insurance policies could not be loaded.' });

  override connectedCallback(): void {
    super.connectedCallback();
    void this.policies.load();
  }

  private async record(event: SubmitEvent, policy: PolicyToRecord) {
    event.preventDefault();
    this.message = '';
    this.failure = '';
    this.fieldErrors = {};
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const file = data.get('document');
    const documentId = `document-${policy.id}`;
    if (!(file instanceof File) || file.size === 0) {
      this.fieldErrors = { [documentId]: 'Choose the policy document the insurer issued (a PDF).' };
      return;
    }
    if (file.size > MAX_BYTES) {
      this.fieldErrors = { [documentId]: 'The document is larger than 5 MB: ask the insurer for a smaller copy.' };
      return;
    }
    this.busy = policy.id;
    try {
      const outcome = await opsApi.post<{ outcome: string }>(`/insurance-policies/${policy.id}/record`, {
        policyNumber: data.get('policyNumber'),
        documentBase64: base64Of(await file.arrayBuffer()),
      });
      this.message = outcome.outcome === 'proposed' ? 'Proposed: another staff member must approve it under Proposals.' : 'Policy recorded: it is active.';
      await this.policies.load();
    } catch (error) {
      const { field, message } = fieldError(error, LABELS, messageOf(error));
      if (field) this.fieldErrors = { [field === 'policyNumber' ? `number-${policy.id}` : documentId]: message };
      else this.failure = message;
    } finally {
      this.busy = '';
    }
  }

  private row(p: PolicyToRecord) {
    const numberId = `number-${p.id}`;
    const documentId = `document-${p.id}`;
    const numberError = this.fieldErrors[numberId];
    const documentError = this.fieldErrors[documentId];
    return html`<tr>
      <td data-label="Disbursed">${when(p.createdAt)}</td>
      <td data-label="Organisation">${p.organisationName}</td>
      <td data-label="Mode"><span class="badge ${p.mode === 'live' ? 'warn' : 'test'}">${p.mode}</span></td>
      <td data-label="Insurer">${p.provider.replace(/_/g, ' ')}</td>
      <td data-label="Premium" class="num">${naira(p.premiumKobo)}</td>
      <td data-label="Loan"><span><code>${p.loanId}</code><br />${naira(p.principalKobo)} · ${p.tenorDays} days</span></td>
      <td data-label="Action">${p.proposalId
        ? html`<span><span class="badge warn">Awaiting approval</span><br /><a href="/ops/api/insurance-policies/${p.id}/document" target="_blank" rel="noopener">Policy document</a></span>`
        : html`<form aria-label="Record the policy for loan ${p.loanId}" @submit=${(e: SubmitEvent) => this.record(e, p)}>
            <label for=${numberId}>Policy number</label>
            <input id=${numberId} name="policyNumber" required minlength="3" maxlength="64" autocomplete="off" aria-invalid=${numberError ? 'true' : nothing} aria-describedby=${describedBy(numberId, false, Boolean(numberError))} />
            ${fieldErrorLine(numberId, numberError)}
            <label for=${documentId}>Policy document (PDF, up to 5 MB)</label>
            <input id=${documentId} name="document" type="file" accept="application/pdf,.pdf" required aria-invalid=${documentError ? 'true' : nothing} aria-describedby=${describedBy(documentId, false, Boolean(documentError))} />
            ${fieldErrorLine(documentId, documentError)}
            <button ?disabled=${this.busy === p.id}>${this.busy === p.id ? 'Recording…' : 'Record'}</button>
          </form>`}</td>
    </tr>`;
  }

  override render() {
    const list = this.policies;
    return html`<h1>Insurance policies to record</h1>
      <p class="muted">Live cover is bound with the insurer by hand: the loan was disbursed with its policy pending and the premium owed to the insurer. Record the policy number and the policy document the insurer issued; in live mode a second staff member approves it.</p>
      <div role="status" class="status">${this.message ? html`<p class="notice">${this.message}</p>` : nothing}</div>
      ${this.failure ? html`<p role="alert" class="error">${this.failure}</p>` : nothing}
      <div class="table-wrap has-cards"><table class="cards">
        <thead><tr><th>Disbursed</th><th>Organisation</th><th>Mode</th><th>Insurer</th><th class="num">Premium</th><th>Loan</th><th>Action</th></tr></thead>
        <tbody>${list.rows.map((p) => this.row(p))}</tbody>
      </table></div>
      ${list.rows.length === 0 && !list.loading ? html`<p class="muted">No policy is waiting to be recorded.</p>` : nothing}
      ${list.error ? html`<p role="alert" class="error">${list.error}</p>` : nothing}
      ${list.nextCursor ? html`<button class="secondary" ?disabled=${list.loading !== ''} @click=${() => list.load(true)}>Show more</button>` : nothing}`;
  }
}

customElements.define('ops-insurance', OpsInsurance);
