import { css, html, LitElement, nothing } from 'lit';
import { api, DashboardApiError } from '../api';
import { allowed, session } from '../session';
import { API_SCOPE_AREAS, API_SCOPE_AREA_LABELS, SCOPE_PERMISSION, scopesBeyondRole, type ApiScope, type ApiScopeArea } from '../../server/shared/api-key-scopes';
import { confirmAction } from '../ui/confirm-dialog';
import '../ui/copy-button';
import { when } from '../ui/format';
import { dashStyles } from '../ui/styles';
import { describedBy, fieldErrorLine } from '../ui/field-errors';

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
  /** null: full access. */
  scopes: ApiScope[] | null;
}
interface IssuedPair {
  id: string;
  publicKey: string;
  secretKey: string;
  mode: 'test' | 'live';
  scopes: ApiScope[] | null;
}
type Overlap = 'now' | '1h' | '24h';
/** What a new key may do in one area: nothing, read (GET), or read and write. */
type AreaAccess = 'none' | 'read' | 'write';

const ACCESS_LABELS: Array<[AreaAccess, string]> = [
  ['none', 'No access'],
  ['read', 'Read'],
  ['write', 'Read and write'],
];

/** Whether the signed-in role may put `scope` on a key (the server checks again: 403 `scope_not_permitted`). */
const mayGrant = (scope: ApiScope) => allowed(SCOPE_PERMISSION[scope]);
/** Whether the signed-in role may make (or roll) a key with these scopes; null is full access, every scope. */
const mayMake = (scopes: ApiScope[] | null) => {
  const role = session()?.role;
  return role !== undefined && scopesBeyondRole(role, scopes).length === 0;
};

const OVERLAPS: Array<[Overlap, string]> = [
  ['now', 'Stop the old key now'],
  ['1h', 'Keep the old key working for 1 hour'],
  ['24h', 'Keep the old key working for 24 hours'],
];

const messageOf = (error: unknown) => (error instanceof DashboardApiError ? error.message : 'Something went wrong. Please try again.');

/**
 * API keys of the organisation in the current mode (the list is of one mode, which each key's prefix also says): list
 * (public key, access, created, last used, status), generate a pair with full access or chosen scopes (the secret shown
 * once, with a copy button and a warning), roll with a chosen overlap, revoke (after a confirmation). The server checks
 * `keys.read` / `keys.manage` and, for a new or rolled key, that the role may grant its scopes; a refusal is shown as
 * the page's alert. Choices the role may not grant are disabled, and a key it could not have made offers no roll.
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
      fieldset { border: 1px solid var(--dash-border); border-radius: 8px; margin: 0.75rem 0; padding: 0.5rem 0.75rem 0.75rem; min-width: 0; }
      legend { font-weight: 600; padding: 0 0.25rem; }
      .choice { display: flex; gap: 0.5rem; align-items: flex-start; font-weight: 400; margin: 0.5rem 0 0; }
      .choice input { width: auto; min-height: 0; margin-top: 0.3rem; flex: none; }
      .choice .hint, .scope-grid .hint { display: block; margin-top: 0.1rem; font-weight: 400; }
      .scope-grid { display: grid; grid-template-columns: minmax(0, 1fr) 12rem; gap: 0.6rem 0.75rem; align-items: center; margin-top: 0.5rem; }
      .scope-grid label { margin: 0; }
      .scope-grid label code { word-break: normal; font-size: 0.95em; }
      ul.scopes { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.25rem; min-width: 9rem; }
      ul.scopes code { white-space: nowrap; word-break: normal; }
      @media (max-width: 640px) {
        /* A card is narrower than a key: there the public key may break anywhere rather than push the page sideways. */
        table.cards td code { white-space: normal; word-break: break-all; }
        td.actions .row { flex-wrap: wrap; }
      }
      @media (max-width: 600px) {
        .secret dl { grid-template-columns: 1fr; }
        .scope-grid { grid-template-columns: minmax(0, 1fr) 10rem; }
      }
    `,
  ];
  static override properties = { scopesError: { state: true },
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
    access: { state: true },
    areas: { state: true },
  };
  mode: 'test' | 'live' = 'test';
  rows: KeyRow[] = [];
  nextCursor: string | null = null;
  loading = true;
  /** The server refused the page (role, mode): shown instead of the list. */
  refusal = '';
  error = '';
  /** A restricted key with no area chosen: said under the scopes. */
  scopesError = '';
  done = '';
  busy = '';
  issued: IssuedPair | undefined;
  rolling: KeyRow | undefined;
  /** The new key's access: full (owners and admins) or restricted to the areas chosen below. */
  access: 'full' | 'restricted' = mayMake(null) ? 'full' : 'restricted';
  areas: Partial<Record<ApiScopeArea, AreaAccess>> = {};

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

  /** The chosen scopes (an area's `write` includes its `read`), or null for full access. */
  private chosenScopes(): ApiScope[] | null {
    if (this.access === 'full') return null;
    return API_SCOPE_AREAS.flatMap((area) => {
      const level = this.areas[area] ?? 'none';
      return level === 'none' ? [] : [`${area}:${level}` as ApiScope];
    });
  }

  private generate = (event: SubmitEvent) => {
    event.preventDefault();
    const scopes = this.chosenScopes();
    if (scopes !== null && scopes.length === 0) {
      this.scopesError = 'Choose at least one area for a restricted key.';
      return;
    }
    this.scopesError = '';
    return this.act('generate', async () => {
      this.issued = await api.post<IssuedPair>('/keys', scopes === null ? {} : { scopes });
      this.done = 'Key pair created.';
      this.areas = {};
      await this.load();
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#new-key-title')?.focus();
    });
  };

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

  private scopes(scopes: ApiScope[] | null) {
    if (scopes === null) return html`<span class="badge">Full access</span>`;
    return html`<ul class="scopes" aria-label="Scopes">${scopes.map((scope) => html`<li><code>${scope}</code></li>`)}</ul>`;
  }

  /** The new key's form: full access, or per area no access / read / read and write; what the role may not grant is disabled. */
  private newKeyForm() {
    if (!allowed('keys.manage')) return nothing;
    const fullAllowed = mayMake(null);
    const role = session()?.role ?? '';
    return html`<form class="card" @submit=${this.generate} aria-labelledby="new-key-form-title" novalidate>
      <h2 id="new-key-form-title">New key pair</h2>
      <fieldset>
        <legend>Access</legend>
        <label class="choice"><input type="radio" name="access" value="full" .checked=${this.access === 'full'} ?disabled=${!fullAllowed} @change=${() => (this.access = 'full')} aria-describedby="full-hint" /><span>Full access<span class="hint" id="full-hint">${fullAllowed ? 'Every area of the API, read and write, including areas added later.' : `Your role (${role}) may not grant full access: choose the areas the key needs.`}</span></span></label>
        <label class="choice"><input type="radio" name="access" value="restricted" .checked=${this.access === 'restricted'} @change=${() => (this.access = 'restricted')} /><span>Restricted<span class="hint">Only the areas chosen below; anything else answers 403 <code>insufficient_scope</code>.</span></span></label>
      </fieldset>
      ${this.access === 'restricted'
        ? html`<fieldset id="scopes" aria-describedby=${describedBy('scopes', false, Boolean(this.scopesError))}>
            <legend>Scopes</legend>
            ${fieldErrorLine('scopes', this.scopesError)}
            ${this.scopesError ? html`<p role="alert" class="visually-hidden">Scopes: ${this.scopesError}</p>` : nothing}
            ${fullAllowed ? nothing : html`<p class="hint">Greyed-out choices need a role that may do the same on this dashboard (an owner or admin).</p>`}
            <div class="scope-grid">
              ${API_SCOPE_AREAS.map((area) => {
                const current = this.areas[area] ?? 'none';
                return html`<label for="scope-${area}"><code>${area}</code><span class="hint">${API_SCOPE_AREA_LABELS[area]}</span></label>
                  <select id="scope-${area}" @change=${(e: Event) => (this.areas = { ...this.areas, [area]: (e.target as HTMLSelectElement).value as AreaAccess })}>
                    ${ACCESS_LABELS.map(
                      ([value, label]) => html`<option value=${value} ?selected=${value === current} ?disabled=${value !== 'none' && !mayGrant(`${area}:${value}`)}>${label}</option>`,
                    )}
                  </select>`;
              })}
            </div>
          </fieldset>`
        : nothing}
      <button type="submit" ?disabled=${this.busy !== ''}>${this.busy === 'generate' ? 'Generating…' : `Generate a ${this.mode} key pair`}</button>
    </form>`;
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
        <dt>Access</dt>
        <dd>${this.scopes(pair.scopes)}</dd>
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
    return html`<div class="table-wrap has-cards">
        <table class="cards">
          <caption class="visually-hidden">API keys in ${this.mode} mode</caption>
          <thead>
            <tr><th scope="col">Public key</th><th scope="col">Secret</th><th scope="col">Access</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th>${manage ? html`<th scope="col">Actions</th>` : nothing}</tr>
          </thead>
          <tbody>
            ${this.rows.map(
              (key) => html`<tr data-key=${key.publicKey}>
                <td data-label="Public key"><code>${key.publicKey}</code></td>
                <td data-label="Secret"><code>sk_${key.mode}_…${key.secretLast4}</code></td>
                <td data-label="Access">${this.scopes(key.scopes)}</td>
                <td data-label="Created">${when(key.createdAt)}</td>
                <td data-label="Last used">${key.lastUsedAt ? when(key.lastUsedAt) : html`<span class="muted">Never</span>`}</td>
                <td data-label="Status">${this.status(key)}</td>
                ${manage
                  ? html`<td class="actions"><div class="row">
                      ${key.status === 'active' && mayMake(key.scopes)
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
        <p class="muted">Your server sends the public and the secret key with every API call in ${this.mode} mode. Keys of the other mode are on the other side of the mode switch. A key has full access or only the scopes chosen when it was made; both halves of the pair carry them.</p>
      </div>
      ${this.error ? html`<p role="alert" class="error">${this.error}</p>` : nothing}
      <p role="status" class=${this.done ? 'notice' : 'visually-hidden'}>${this.done}</p>
      ${this.issuedCard()} ${this.rollCard()} ${this.newKeyForm()} ${this.table()}`;
  }
}
customElements.define('dash-keys-page', DashKeysPage);
