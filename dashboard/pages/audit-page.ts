import { css, html, LitElement, nothing } from 'lit';
import { when } from '../ui/format';
import { accountStackedTables } from '../ui/account-styles';
import { dashStyles } from '../ui/styles';
import { KeysetList } from '../ui/keyset-list';

interface AuditRow {
  id: string;
  userId: string | null;
  email: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  userAgent: string | null;
  at: string;
}

interface Filters {
  action: string;
  email: string;
  from: string;
  to: string;
}

/** The actions the log records (server: domain/dashboard/audit.ts), in words. Unknown ones show their code. */
const ACTIONS: Record<string, string> = {
  sign_up: 'Signed up',
  email_verified: 'Verified the e-mail',
  sign_in: 'Signed in',
  sign_out: 'Signed out',
  sign_out_everywhere: 'Signed out everywhere',
  password_reset_requested: 'Asked for a password reset',
  password_reset: 'Reset the password',
  owner_created: 'Owner created',
  organisation_switched: 'Switched organisation',
  member_invited: 'Invited a member',
  invitation_accepted: 'Accepted an invitation',
  invitation_revoked: 'Revoked an invitation',
  member_role_changed: 'Changed a role',
  member_removed: 'Removed a member',
  passkey_registered: 'Added a passkey',
  passkey_renamed: 'Renamed a passkey',
  passkey_removed: 'Removed a passkey',
  passkey_sign_in: 'Signed in with a passkey',
  passkey_second_factor_enabled: 'Turned on the passkey step',
  passkey_second_factor_disabled: 'Turned off the passkey step',
  key_created: 'Created an API key',
  key_rolled: 'Rolled an API key',
  key_revoked: 'Revoked an API key',
  product_created: 'Defined a product',
  product_updated: 'Edited a product',
  product_deactivated: 'Deactivated a product',
  pool_funded: 'Funded the pool',
  pool_funding_requested: 'Sent a funding notice',
  pool_funding_confirmed: 'Funding confirmed',
  loan_approved: 'Approved a loan',
  loan_rejected: 'Rejected a loan',
  loan_cancelled: 'Cancelled a loan',
  loan_disbursed: 'Disbursed a loan',
  review_cleared: 'Cleared a review',
  review_rejected: 'Rejected a review',
  webhook_endpoint_created: 'Added a webhook endpoint',
  webhook_endpoint_updated: 'Edited a webhook endpoint',
  webhook_endpoint_deleted: 'Deleted a webhook endpoint',
  webhook_secret_rotated: 'Rotated a signing secret',
  webhook_secret_revealed: 'Revealed a signing secret',
  webhook_redelivered: 'Redelivered a webhook',
  webhook_test_sent: 'Sent a test event',
  checkout_settings_updated: 'Changed checkout settings',
  settlements_exported: 'Downloaded settlements',
};

const EMPTY: Filters = { action: '', email: '', from: '', to: '' };

/**
 * Audit log: who (e-mail), what, when, from which IP and browser, newest first, filterable by action, person and
 * dates; "Load more" follows the keyset cursor with the same filters. Read-only (the log is append-only). The same
 * log in test and live mode: it is the organisation's.
 */
export class DashAuditPage extends LitElement {
  static override styles = [
    dashStyles,
    accountStackedTables,
    css`
      form.filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: 0 0.75rem; align-items: end; margin-bottom: 1rem; }
      form.filters .buttons { display: flex; gap: 0.5rem; margin-top: 0.75rem; }
      td.when { white-space: nowrap; }
      td.what { min-width: 9rem; }
      td.ua { min-width: 14rem; max-width: 22rem; font-size: 0.85rem; color: var(--dash-muted); }
      td.target code { word-break: normal; overflow-wrap: anywhere; }
      .more { margin-top: 1rem; display: flex; gap: 0.75rem; align-items: center; }
      .code { display: block; font-size: 0.8rem; color: var(--dash-muted); }
    `,
  ];
  static override properties = {
    mode: {},
    filters: { state: true },
  };
  mode: 'test' | 'live' = 'test';
  private list = new KeysetList<AuditRow>(this, { path: '/audit-log', limit: 50, failure: 'The audit log could not be loaded. Try again.', query: () => this.filters });
  filters: Filters = { ...EMPTY };

  override connectedCallback(): void {
    super.connectedCallback();
    void this.list.load(false);
  }

  private apply = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    this.filters = { action: String(form.get('action') ?? ''), email: String(form.get('email') ?? '').trim(), from: String(form.get('from') ?? ''), to: String(form.get('to') ?? '') };
    void this.list.load(false);
  };

  private clear = () => {
    this.filters = { ...EMPTY };
    (this.renderRoot.querySelector('form.filters') as HTMLFormElement | null)?.reset();
    void this.list.load(false);
  };

  private filtered = () => Object.values(this.filters).some(Boolean);

  private table() {
    if (this.list.rows.length === 0) {
      if (this.list.loading) return nothing;
      return html`<p class="card">${this.filtered()
        ? 'Nothing matches these filters. Widen the dates, pick another action, or clear the filters.'
        : 'Nothing recorded yet. Every change made in the dashboard — keys, products, the pool, team, webhooks — appears here.'}</p>`;
    }
    return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Audit log entries">
      <table class="stack">
        <caption class="visually-hidden">Audit log, newest first</caption>
        <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Target</th><th scope="col">IP address</th><th scope="col">Browser</th></tr></thead>
        <tbody>
          ${this.list.rows.map(
            (row) => html`<tr>
              <td class="when" data-label="When"><span>${when(row.at)}</span></td>
              <td data-label="Who"><span>${row.email ?? html`<span class="muted">System</span>`}</span></td>
              <td class="what" data-label="What"><span>${ACTIONS[row.action] ?? row.action}<span class="code">${row.action}</span></span></td>
              <td class="target" data-label="Target"><span>${row.target ? html`<code>${row.target}</code>` : '—'}</span></td>
              <td data-label="IP address"><span><code>${row.ip ?? '—'}</code></span></td>
              <td class="ua" data-label="Browser"><span>${row.userAgent ?? '—'}</span></td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  override render() {
    const f = this.filters;
    return html`<h1 tabindex="-1">Audit log</h1>
      <p class="muted">Every action taken in this organisation's dashboard: who, what, when and from where. Entries are never changed or deleted.</p>
      <form class="filters" @submit=${this.apply} aria-label="Filter the audit log">
        <div>
          <label for="audit-action">Action</label>
          <select id="audit-action" name="action">
            <option value="" ?selected=${f.action === ''}>All actions</option>
            ${Object.entries(ACTIONS).map(([code, label]) => html`<option value=${code} ?selected=${f.action === code}>${label}</option>`)}
          </select>
        </div>
        <div>
          <label for="audit-email">Person (e-mail)</label>
          <input id="audit-email" name="email" type="email" autocomplete="off" .value=${f.email} />
        </div>
        <div>
          <label for="audit-from">From</label>
          <input id="audit-from" name="from" type="date" .value=${f.from} />
        </div>
        <div>
          <label for="audit-to">To (inclusive)</label>
          <input id="audit-to" name="to" type="date" .value=${f.to} />
        </div>
        <div class="buttons">
          <button type="submit" ?disabled=${this.list.loading}>Filter</button>
          ${this.filtered() ? html`<button type="button" class="secondary" @click=${this.clear}>Clear</button>` : nothing}
        </div>
      </form>
      ${this.list.error ? html`<p role="alert" class="error">${this.list.error}</p>` : nothing}
      ${this.table()}
      <div class="more">
        ${this.list.nextCursor ? html`<button type="button" class="secondary" @click=${() => this.list.load(true)} ?disabled=${this.list.loading}>${this.list.loading ? 'Loading…' : 'Load more'}</button>` : nothing}
        <span role="status" class="muted">${this.list.loading ? 'Loading…' : this.list.rows.length ? `${this.list.rows.length} entries shown${this.list.nextCursor ? '' : ' — that is all'}.` : ''}</span>
      </div>`;
  }
}
customElements.define('dash-audit-page', DashAuditPage);
