import { css, html, LitElement, nothing } from 'lit';
import { api, DashboardApiError } from '../api';
import { allowed } from '../session';
import { confirmAction } from '../ui/confirm-dialog';
import '../ui/copy-button';
import { when } from '../ui/format';
import { dashStyles } from '../ui/styles';

type KeyStatus = 'active' | 'expiring' | 'expired' | 'revoked';
interface KeyRow {
  id: string;
  publicKey: string;
  mode: 'test' | 'live';
  secretLast4: string;
  status: KeyStatus;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  rolledTo: string | null;
}
interface IssuedPair {
  id: string;
  publicKey: string;
  secretKey: string;
  mode: 'test' | 'live';
}
type Overlap = 'now' | '1h' | '24h';

const OVERLAPS: Array<[Overlap, string]> = [
  ['now', 'Stop the old key now'],
  ['1h', 'Keep the old key working for 1 hour'],
  ['24h', 'Keep the old key working for 24 hours'],
];

const messageOf = (error: unknown) => (error instanceof DashboardApiError ? error.message : 'Something went wrong. Please try again.');

/**
 * API keys of the organisation in the current mode: list (public key, created, last used, status), generate a pair
 * (the secret shown once, with a copy button and a warning), roll with a chosen overlap, revoke (after a
 * confirmation). The server checks `keys.read` / `keys.manage`; a refusal is shown as the page's alert.
 */
export class DashKeysPage extends LitElement {
  static override styles = [
    dashStyles,
    css`
      .secret { border-color: #fdb022; background: #fffcf5; }
      .card h2 { margin-top: 0; }
      td code, td .badge { white-space: nowrap; word-break: normal; }
      .secret dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.4rem 0.75rem; align-items: center; margin: 0.75rem 0; }
      .secret dt { font-weight: 600; }
      .secret dd { margin: 0; display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; min-width: 0; }
      .secret code { background: #fff; border: 1px solid var(--dash-border); border-radius: 6px; padding: 0.2rem 0.4rem; }
      td.actions { white-space: nowrap; }
      td.actions .row { flex-wrap: nowrap; }
      .roll select { max-width: 22rem; }
      .more { margin-top: 0.75rem; }
      @media (max-width: 600px) {
        .secret dl { grid-template-columns: 1fr; }
      }
    `,
  ];
  static override properties = {
    mode: {},
    rows: { state: true },
    nextCursor: { state: true },
    loading: { state: true },
    refusal: { state: true },
    error: { state: true },
    done: { state: true },
    busy: { state: true },
    issued: { state: true },
    rolling: { state: true },
  };
  mode: 'test' | 'live' = 'test';
  rows: KeyRow[] = [];
  nextCursor: string | null = null;
  loading = true;
  /** The server refused the page (role, mode): shown instead of the list. */
  refusal = '';
  error = '';
  done = '';
  busy = '';
  issued: IssuedPair | undefined;
  rolling: KeyRow | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(more = false) {
    this.loading = true;
    try {
      const page = await api.page<KeyRow>('/keys', { limit: 50, cursor: more ? this.nextCursor : undefined });
      this.rows = more ? [...this.rows, ...page.data] : page.data;
      this.nextCursor = page.nextCursor;
      this.refusal = '';
    } catch (error) {
      if (more) this.error = messageOf(error);
      else this.refusal = messageOf(error);
    } finally {
      this.loading = false;
    }
  }

  private async act(label: string, work: () => Promise<void>) {
    if (this.busy) return;
    this.busy = label;
    this.error = '';
    this.done = '';
    try {
      await work();
    } catch (error) {
      this.error = messageOf(error);
    } finally {
      this.busy = '';
    }
  }

  private generate = () =>
    this.act('generate', async () => {
      this.issued = await api.post<IssuedPair>('/keys');
      this.done = 'Key pair created.';
      await this.load();
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#new-key-title')?.focus();
    });

  private roll(event: SubmitEvent) {
    event.preventDefault();
    const key = this.rolling;
    if (!key) return;
    const overlap = new FormData(event.target as HTMLFormElement).get('overlap') as Overlap;
    return this.act('roll', async () => {
      const rolled = await api.post<{ issued: IssuedPair }>(`/keys/${encodeURIComponent(key.id)}/roll`, { overlap });
      this.issued = rolled.issued;
      this.rolling = undefined;
      this.done = overlap === 'now' ? 'Key rolled: the old key no longer works.' : 'Key rolled: the old key works until the time shown in the list.';
      await this.load();
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#new-key-title')?.focus();
    });
  }

  private async revoke(key: KeyRow) {
    const ok = await confirmAction({
      title: 'Revoke this key?',
      body: `${key.publicKey} will be refused by the API within a second, by every server. Anything still using it stops working. This cannot be undone.`,
      confirm: 'Revoke key',
      danger: true,
    });
    if (!ok) return;
    await this.act(`revoke:${key.id}`, async () => {
      await api.post(`/keys/${encodeURIComponent(key.id)}/revoke`);
      this.done = `Key ${key.publicKey} revoked.`;
      await this.load();
    });
  }

  private status(key: KeyRow) {
    switch (key.status) {
      case 'active':
        return html`<span class="badge ok">Active</span>`;
      case 'expiring':
        return html`<span class="badge warn">Expires ${when(key.expiresAt)}</span>`;
      case 'expired':
        return html`<span class="badge">Expired ${when(key.expiresAt)}</span>`;
      case 'revoked':
        return html`<span class="badge bad">Revoked ${when(key.revokedAt)}</span>`;
    }
  }

  private issuedCard() {
    const pair = this.issued;
    if (!pair) return nothing;
    return html`<section class="card secret" aria-labelledby="new-key-title">
      <h2 id="new-key-title" tabindex="-1">Your new ${pair.mode} key pair</h2>
      <p role="note"><strong>Copy the secret key now: it will not be shown again.</strong> Store it in your server's secrets; never put it in a browser or a mobile app. If you lose it, roll the key.</p>
      <dl>
        <dt>Public key</dt>
        <dd><code data-testid="new-public-key">${pair.publicKey}</code><dash-copy-button .value=${pair.publicKey} label="Copy public key"></dash-copy-button></dd>
        <dt>Secret key</dt>
        <dd><code data-testid="new-secret-key">${pair.secretKey}</code><dash-copy-button .value=${pair.secretKey} label="Copy secret key"></dash-copy-button></dd>
      </dl>
      <button type="button" class="secondary" @click=${() => (this.issued = undefined)}>I have stored the secret key</button>
    </section>`;
  }

  private rollCard() {
    const key = this.rolling;
    if (!key) return nothing;
    return html`<section class="card roll" aria-labelledby="roll-title">
      <h2 id="roll-title" tabindex="-1">Roll ${key.publicKey}</h2>
      <p>A new key pair is created now. Choose how long the old one keeps working, so you can deploy the new one first.</p>
      <form @submit=${(e: SubmitEvent) => this.roll(e)}>
        <label for="overlap">Overlap</label>
        <select id="overlap" name="overlap">
          ${OVERLAPS.map(([value, label]) => html`<option value=${value} ?selected=${value === '24h'}>${label}</option>`)}
        </select>
        <div class="row more">
          <button type="submit" ?disabled=${this.busy !== ''}>${this.busy === 'roll' ? 'Rolling…' : 'Roll key'}</button>
          <button type="button" class="secondary" @click=${() => (this.rolling = undefined)}>Cancel</button>
        </div>
      </form>
    </section>`;
  }

  private table() {
    if (this.loading && this.rows.length === 0) return html`<p role="status">Loading keys…</p>`;
    if (this.rows.length === 0) {
      return html`<div class="card"><p>No ${this.mode} keys yet.</p><p class="muted">${allowed('keys.manage') ? 'Generate a key pair to call the API from your server.' : 'Ask an owner, admin or developer to generate one.'}</p></div>`;
    }
    const manage = allowed('keys.manage');
    return html`<div class="table-wrap">
        <table>
          <caption class="visually-hidden">API keys in ${this.mode} mode</caption>
          <thead>
            <tr><th scope="col">Public key</th><th scope="col">Mode</th><th scope="col">Secret</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th>${manage ? html`<th scope="col">Actions</th>` : nothing}</tr>
          </thead>
          <tbody>
            ${this.rows.map(
              (key) => html`<tr data-key=${key.publicKey}>
                <td><code>${key.publicKey}</code></td>
                <td><span class="badge ${key.mode === 'test' ? 'test' : ''}">${key.mode}</span></td>
                <td><code>sk_${key.mode}_…${key.secretLast4}</code></td>
                <td>${when(key.createdAt)}</td>
                <td>${key.lastUsedAt ? when(key.lastUsedAt) : html`<span class="muted">Never</span>`}</td>
                <td>${this.status(key)}</td>
                ${manage
                  ? html`<td class="actions"><div class="row">
                      ${key.status === 'active'
                        ? html`<button type="button" class="secondary" aria-label="Roll ${key.publicKey}" @click=${async () => {
                            this.rolling = key;
                            await this.updateComplete;
                            this.renderRoot.querySelector<HTMLElement>('#roll-title')?.focus();
                          }}>Roll</button>`
                        : nothing}
                      ${key.status === 'active' || key.status === 'expiring'
                        ? html`<button type="button" class="danger" aria-label="Revoke ${key.publicKey}" ?disabled=${this.busy !== ''} @click=${() => this.revoke(key)}>
                            ${this.busy === `revoke:${key.id}` ? 'Revoking…' : 'Revoke'}
                          </button>`
                        : nothing}
                    </div></td>`
                  : nothing}
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${this.nextCursor ? html`<button type="button" class="secondary more" ?disabled=${this.loading} @click=${() => this.load(true)}>${this.loading ? 'Loading…' : 'Show older keys'}</button>` : nothing}`;
  }

  override render() {
    const heading = html`<h1 tabindex="-1">API keys</h1>`;
    if (this.refusal) return html`${heading}<p role="alert" class="error">${this.refusal}</p>`;
    return html`${heading}
      <div class="spread">
        <p class="muted">Your server sends the public and the secret key with every API call in ${this.mode} mode. Keys of the other mode are on the other side of the mode switch.</p>
        ${allowed('keys.manage')
          ? html`<button type="button" @click=${this.generate} ?disabled=${this.busy !== ''}>${this.busy === 'generate' ? 'Generating…' : `Generate a ${this.mode} key pair`}</button>`
          : nothing}
      </div>
      ${this.error ? html`<p role="alert" class="error">${this.error}</p>` : nothing}
      <p role="status" class=${this.done ? 'notice' : 'visually-hidden'}>${this.done}</p>
      ${this.issuedCard()} ${this.rollCard()} ${this.table()}`;
  }
}
customElements.define('dash-keys-page', DashKeysPage);
