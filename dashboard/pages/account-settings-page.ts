import { css, html, LitElement, nothing } from 'lit';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { api, DashboardApiError } from '../api';
import { session } from '../session';
import { confirmAction } from '../ui/confirm-dialog';
import { createPasskey, onIpAddress, passkeysSupported } from '../ui/account-webauthn';
import { when } from '../ui/format';
import { accountStackedTables } from '../ui/account-styles';
import { dashStyles } from '../ui/styles';

interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

interface ActiveSession {
  createdAt: string;
  lastSeenAt: string;
  ip: string | null;
  userAgent: string | null;
  current: boolean;
}

/** "Chrome on Android" from a user agent (the full string stays in the audit log). */
function browserOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const browser = /Edg\//.test(userAgent) ? 'Edge' : /Firefox\//.test(userAgent) ? 'Firefox' : /Chrom(e|ium)\//.test(userAgent) ? 'Chrome' : /Safari\//.test(userAgent) ? 'Safari' : 'A browser';
  const system = /Android/.test(userAgent) ? 'Android' : /iPhone|iPad|iOS/.test(userAgent) ? 'iOS' : /Windows/.test(userAgent) ? 'Windows' : /Mac OS X|Macintosh/.test(userAgent) ? 'macOS' : /Linux|X11/.test(userAgent) ? 'Linux' : '';
  return system ? `${browser} on ${system}` : browser;
}

const messageOf = (error: unknown): string => (error instanceof DashboardApiError ? error.message : 'Something went wrong. Please try again.');

/**
 * Your account (every member, their own): the e-mail you sign in with, your passkeys (add with a name, rename,
 * remove behind a confirmation), "ask for a passkey after my password", your active sessions, "sign out everywhere".
 * Not tied to the test/live switch: these are yours, not the organisation's.
 */
export class DashAccountSettingsPage extends LitElement {
  static override styles = [
    dashStyles,
    accountStackedTables,
    css`
      .card h2 { margin-top: 0; }
      .switch { display: flex; gap: 0.6rem; align-items: flex-start; font-weight: 600; margin: 0.25rem 0; }
      .switch input { width: 1.25rem; min-height: 1.25rem; height: 1.25rem; margin-top: 0.15rem; flex: none; }
      form.add { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: flex-end; margin-top: 0.75rem; }
      form.add .field { flex: 1 1 14rem; }
      form.add label { margin-top: 0; }
      td.actions { white-space: nowrap; }
      td.actions button + button { margin-left: 0.4rem; }
      td.actions button { min-height: 36px; padding: 0.3rem 0.7rem; }
      dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.3rem 1rem; margin: 0; }
      dt { font-weight: 600; }
      dd { margin: 0; overflow-wrap: anywhere; }
    `,
  ];
  static override properties = {
    mode: {},
    passkeys: { state: true },
    requirePasskey: { state: true },
    sessions: { state: true },
    loading: { state: true },
    busy: { state: true },
    error: { state: true },
    done: { state: true },
    renaming: { state: true },
  };
  mode: 'test' | 'live' = 'test';
  passkeys: Passkey[] = [];
  requirePasskey = false;
  sessions: ActiveSession[] = [];
  loading = true;
  /** What is in flight: 'add', 'switch', `remove:<id>`, `rename:<id>`, 'everywhere'. */
  busy = '';
  error = '';
  done = '';
  renaming = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    this.loading = true;
    try {
      const [keys, sessions] = await Promise.all([api.get<{ passkeys: Passkey[]; requirePasskey: boolean }>('/passkeys'), api.get<ActiveSession[]>('/account/sessions')]);
      this.passkeys = keys.passkeys;
      this.requirePasskey = keys.requirePasskey;
      this.sessions = sessions;
    } catch (error) {
      this.error = messageOf(error);
    } finally {
      this.loading = false;
    }
  }

  private async act(what: string, work: () => Promise<string | void>) {
    if (this.busy) return;
    this.busy = what;
    this.error = '';
    this.done = '';
    try {
      const done = await work();
      if (done) this.done = done;
    } catch (error) {
      this.error = messageOf(error);
    } finally {
      this.busy = '';
    }
  }

  private add = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const name = String(new FormData(form).get('name') ?? '').trim();
    return this.act('add', async () => {
      const options = await api.post<PublicKeyCredentialCreationOptionsJSON>('/passkeys/registration-options', {});
      const response = await createPasskey(options);
      const added = await api.post<Passkey>('/passkeys', { response, ...(name ? { name } : {}) });
      this.passkeys = [...this.passkeys, added];
      form.reset();
      return `Passkey “${added.name}” added. You can now sign in with it.`;
    });
  };

  private rename = (event: SubmitEvent, passkey: Passkey) => {
    event.preventDefault();
    const name = String(new FormData(event.target as HTMLFormElement).get('name') ?? '').trim();
    return this.act(`rename:${passkey.id}`, async () => {
      const renamed = await api.patch<Passkey>(`/passkeys/${encodeURIComponent(passkey.id)}`, { name });
      this.passkeys = this.passkeys.map((p) => (p.id === passkey.id ? renamed : p));
      this.renaming = '';
      return `Passkey renamed “${renamed.name}”.`;
    });
  };

  private async removePasskey(passkey: Passkey) {
    const sure = await confirmAction({
      title: `Remove the passkey “${passkey.name}”?`,
      body: 'You will no longer be able to sign in with it. The passkey stays on the device until you delete it there too.',
      confirm: 'Remove passkey',
      danger: true,
    });
    if (!sure) return;
    await this.act(`remove:${passkey.id}`, async () => {
      await api.delete(`/passkeys/${encodeURIComponent(passkey.id)}`);
      this.passkeys = this.passkeys.filter((p) => p.id !== passkey.id);
      return `Passkey “${passkey.name}” removed.`;
    });
  }

  private async toggle(event: Event) {
    const input = event.target as HTMLInputElement;
    const on = input.checked;
    if (!on) {
      const sure = await confirmAction({
        title: 'Stop asking for a passkey?',
        body: 'Your password alone will sign you in again.',
        confirm: 'Stop asking',
        danger: true,
      });
      if (!sure) {
        input.checked = true;
        return;
      }
    }
    await this.act('switch', async () => {
      try {
        await api.patch('/account/security', { requirePasskey: on });
        this.requirePasskey = on;
        return on ? 'From your next sign-in, a passkey is asked after your password.' : 'Your password alone signs you in again.';
      } catch (error) {
        input.checked = this.requirePasskey;
        throw error;
      }
    });
  }

  private async everywhere() {
    const sure = await confirmAction({
      title: 'Sign out everywhere?',
      body: 'Every session of your account ends, on every device, this one included. You will sign in again.',
      confirm: 'Sign out everywhere',
      danger: true,
    });
    if (!sure) return;
    await this.act('everywhere', async () => {
      await api.post('/sign-out-everywhere', {});
      // The shell shows the sign-in page.
      api.dispatchEvent(new Event('signed-out'));
    });
  }

  private passkeyRow(passkey: Passkey) {
    const busy = this.busy.endsWith(`:${passkey.id}`);
    if (this.renaming === passkey.id) {
      return html`<tr>
        <td colspan="4">
          <form class="add" @submit=${(e: SubmitEvent) => this.rename(e, passkey)}>
            <div class="field">
              <label for="rename-${passkey.id}">New name for “${passkey.name}”</label>
              <input id="rename-${passkey.id}" name="name" required maxlength="60" .value=${passkey.name} />
            </div>
            <button type="submit" ?disabled=${busy}>${busy ? 'Saving…' : 'Save'}</button>
            <button type="button" class="secondary" @click=${() => (this.renaming = '')}>Cancel</button>
          </form>
        </td>
      </tr>`;
    }
    return html`<tr>
      <td data-label="Name"><span>${passkey.name}</span></td>
      <td data-label="Added"><span>${when(passkey.createdAt)}</span></td>
      <td data-label="Last used"><span>${passkey.lastUsedAt ? when(passkey.lastUsedAt) : html`<span class="muted">Not yet</span>`}</span></td>
      <td class="actions">
        <button type="button" class="secondary" @click=${() => (this.renaming = passkey.id)} aria-label="Rename ${passkey.name}">Rename</button>
        <button type="button" class="secondary" @click=${() => this.removePasskey(passkey)} ?disabled=${busy} aria-label="Remove ${passkey.name}">${busy ? 'Removing…' : 'Remove'}</button>
      </td>
    </tr>`;
  }

  private passkeysCard() {
    const supported = passkeysSupported();
    return html`<section class="card" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">Passkeys</h2>
      <p class="muted">A passkey signs you in with this device's fingerprint, face or screen lock instead of your password — nothing to type, nothing to phish.</p>
      ${this.passkeys.length === 0
        ? html`<p>You have no passkey yet. Add one below to sign in without your password, or to ask for it after your password.</p>`
        : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Your passkeys">
            <table class="stack">
              <caption class="visually-hidden">Your passkeys</caption>
              <thead><tr><th scope="col">Name</th><th scope="col">Added</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
              <tbody>${this.passkeys.map((p) => this.passkeyRow(p))}</tbody>
            </table>
          </div>`}
      ${supported && onIpAddress()
        ? html`<p class="notice">Passkeys need the dashboard at its host name, not an IP address: open it at the address in your sign-up e-mail to add one.</p>`
        : supported
        ? html`<form class="add" @submit=${this.add}>
            <div class="field">
              <label for="passkey-name">Name of the new passkey (optional)</label>
              <input id="passkey-name" name="name" maxlength="60" placeholder="e.g. Work laptop" autocomplete="off" />
            </div>
            <button type="submit" ?disabled=${this.busy === 'add'}>${this.busy === 'add' ? 'Waiting for your device…' : 'Add a passkey'}</button>
          </form>`
        : html`<p class="notice">This browser cannot make passkeys. Use a recent browser on a device with a screen lock.</p>`}
    </section>`;
  }

  private twoStepCard() {
    const none = this.passkeys.length === 0;
    return html`<section class="card" aria-labelledby="two-step-heading">
      <h2 id="two-step-heading">Two-step sign-in</h2>
      <label class="switch" for="require-passkey">
        <input id="require-passkey" type="checkbox" .checked=${this.requirePasskey} ?disabled=${(none && !this.requirePasskey) || this.busy === 'switch'} @change=${this.toggle} aria-describedby="two-step-hint" />
        Ask for a passkey after my password
      </label>
      <p class="hint" id="two-step-hint">
        ${none && !this.requirePasskey ? 'Add a passkey first.' : 'Someone who learns your password still cannot sign in without your device.'}
        ${this.busy === 'switch' ? html`<span role="status">Saving…</span>` : nothing}
      </p>
    </section>`;
  }

  private sessionsCard() {
    return html`<section class="card" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Where you are signed in</h2>
      <div class="table-wrap" tabindex="0" role="region" aria-label="Your active sessions">
        <table class="stack">
          <caption class="visually-hidden">Your active sessions</caption>
          <thead><tr><th scope="col">Signed in</th><th scope="col">Last active</th><th scope="col">IP address</th><th scope="col">Browser</th></tr></thead>
          <tbody>
            ${this.sessions.map(
              (s) => html`<tr>
                <td data-label="Signed in"><span>${when(s.createdAt)} ${s.current ? html`<span class="badge ok">This device</span>` : nothing}</span></td>
                <td data-label="Last active"><span>${when(s.lastSeenAt)}</span></td>
                <td data-label="IP address"><span><code>${s.ip ?? '—'}</code></span></td>
                <td data-label="Browser"><span>${browserOf(s.userAgent)}</span></td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      <p class="hint">Sessions end after 30 minutes without activity, and 12 hours after sign-in.</p>
      <button type="button" class="danger" @click=${this.everywhere} ?disabled=${this.busy === 'everywhere'}>${this.busy === 'everywhere' ? 'Signing out…' : 'Sign out everywhere'}</button>
    </section>`;
  }

  override render() {
    const me = session();
    return html`<h1 tabindex="-1">Your account</h1>
      ${this.error ? html`<p role="alert" class="error">${this.error}</p>` : nothing}
      <div role="status">${this.done ? html`<p class="notice">${this.done}</p>` : nothing}</div>
      <section class="card" aria-labelledby="details-heading">
        <h2 id="details-heading">Sign-in details</h2>
        <dl>
          <dt>E-mail</dt><dd>${me?.user.email ?? ''}</dd>
          <dt>Organisation</dt><dd>${me?.organisation.name ?? ''}</dd>
          <dt>Role</dt><dd>${me?.role ?? ''}</dd>
        </dl>
        <p class="hint">Forgot the password? Sign out and use “Forgot your password?” on the sign-in page.</p>
      </section>
      ${this.loading ? html`<p role="status" class="muted">Loading your passkeys and sessions…</p>` : html`${this.passkeysCard()} ${this.twoStepCard()} ${this.sessionsCard()}`}`;
  }
}
customElements.define('dash-account-settings-page', DashAccountSettingsPage);
