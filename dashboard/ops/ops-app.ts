import { css, html, LitElement, nothing } from 'lit';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { DashboardApiError } from '../api';
import { createPasskey, passkeysSupported, usePasskey } from '../ui/account-webauthn';
import { describedBy, fieldError, fieldErrorLine } from '../ui/field-errors';
import { dashStyles } from '../ui/styles';
import { opsApi } from './ops-api';
import './ops-queues';

interface StaffSession {
  staff: { id: string; email: string; role: string };
  csrfToken: string;
  enrolment: boolean;
}

type View = 'loading' | 'sign-in' | 'accept' | 'enrol' | 'signed-in';

const messageOf = (error: unknown): string => (error instanceof DashboardApiError ? error.message : 'Something went wrong. Please try again.');

/** The sign-in's and the invitation's fields: API name → the label the form shows (their refusals sit under them). */
const SIGN_IN_LABELS = { email: 'Staff e-mail', password: 'Password' };
const ACCEPT_LABELS = { password: 'New password' };

/** The console's pages (paths under /ops) and their names in the navigation. */
const PAGES = [
  { path: '/ops', label: 'Home' },
  { path: '/ops/payouts', label: 'Payouts' },
  { path: '/ops/funding', label: 'Funding' },
  { path: '/ops/reviews', label: 'Reviews' },
  { path: '/ops/charges', label: 'Charges' },
  { path: '/ops/insurance', label: 'Insurance' },
  { path: '/ops/settlements', label: 'Settlements' },
  { path: '/ops/live', label: 'Live mode' },
  { path: '/ops/proposals', label: 'Proposals' },
  { path: '/ops/webhooks', label: 'Webhooks' },
  { path: '/ops/audit', label: 'Audit log' },
] as const;

/**
 * `<ops-app>`: the operations console's shell, for the service's own staff. Signed out it shows the sign-in (password,
 * then the passkey when one is asked; or a passkey alone) or, from an invitation link, the form that chooses the
 * password; an enrolment session (the production profile asks a passkey of everyone) shows only "register your
 * passkey". Signed in: the navigation and the page of the path (`<ops-page>`). Built on the dashboard's UI kit
 * (styles, client, passkey ceremonies, keyset lists).
 */
export class OpsApp extends LitElement {
  static override styles = [
    dashStyles,
    css`
      header { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; justify-content: space-between; padding: 0.75rem 1rem; background: #1a1f36; color: #fff; }
      header strong { font-size: 1.05rem; }
      header .who { font-size: 0.9rem; }
      header button { background: transparent; border-color: #fff; }
      nav { display: flex; flex-wrap: wrap; gap: 0.25rem; padding: 0.5rem 1rem; background: #fff; border-bottom: 1px solid var(--dash-border); }
      nav a { padding: 0.4rem 0.7rem; border-radius: 8px; text-decoration: none; font-weight: 600; min-height: 28px; display: inline-flex; align-items: center; }
      nav a[aria-current='page'] { background: #eef0ff; color: var(--dash-primary-dark); }
      main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
      .account { max-width: 26rem; margin: 2rem auto; }
      form button, .account button { width: 100%; justify-content: center; margin-top: 1rem; }
    `,
  ];
  static override properties = { view: { state: true }, session: { state: true }, error: { state: true }, fieldErrors: { state: true }, busy: { state: true }, pending: { state: true }, path: { state: true } };
  view: View = 'loading';
  session: StaffSession | undefined;
  error = '';
  /** A refusal about one field, by the control's id (`email`, `password`), shown under it. */
  fieldErrors: Record<string, string> = {};
  busy = false;
  /** The options of the passkey step after a right password. */
  pending: PublicKeyCredentialRequestOptionsJSON | undefined;
  path = location.pathname;

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('popstate', () => (this.path = location.pathname));
    opsApi.addEventListener('signed-out', () => {
      this.session = undefined;
      this.view = 'sign-in';
    });
    void this.start();
  }

  private async start() {
    if (location.pathname === '/ops/accept-invitation') {
      this.view = 'accept';
      return;
    }
    await this.loadSession();
  }

  private async loadSession() {
    try {
      this.session = await opsApi.get<StaffSession>('/session');
      opsApi.csrfToken = this.session.csrfToken;
      this.view = this.session.enrolment ? 'enrol' : 'signed-in';
      if (location.pathname === '/ops/sign-in' || location.pathname === '/ops/accept-invitation') this.go('/ops');
    } catch {
      this.view = 'sign-in';
    }
  }

  private go(path: string) {
    history.pushState(null, '', path);
    this.path = path;
  }

  /** Runs one step; a refusal about a field of `labels` goes under that field, any other into the form's alert. */
  private async run(work: () => Promise<void>, labels: Record<string, string> = {}) {
    if (this.busy) return;
    this.busy = true;
    this.error = '';
    this.fieldErrors = {};
    try {
      await work();
    } catch (error) {
      const { field, message } = fieldError(error, labels, messageOf(error));
      // The password policy's refusal names no field: it is about the password all the same.
      const about = field ?? (error instanceof DashboardApiError && error.code === 'password_rejected' && labels.password ? 'password' : undefined);
      if (about) this.fieldErrors = { [about]: message };
      else this.error = message;
    } finally {
      this.busy = false;
    }
  }

  private async opened(data: { csrfToken?: string; secondFactor?: string; options?: PublicKeyCredentialRequestOptionsJSON }) {
    if (data.secondFactor === 'passkey') {
      this.pending = data.options;
      return;
    }
    opsApi.csrfToken = data.csrfToken;
    this.pending = undefined;
    await this.loadSession();
  }

  private signIn(event: SubmitEvent) {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    void this.run(async () => this.opened(await opsApi.post('/sign-in', { email: form.get('email'), password: form.get('password') })), SIGN_IN_LABELS);
  }

  private passkey() {
    void this.run(async () => {
      if (this.pending) {
        const response = await usePasskey(this.pending);
        return this.opened(await opsApi.post('/passkeys/second-factor/verify', { response }));
      }
      const options = await opsApi.post<PublicKeyCredentialRequestOptionsJSON>('/passkeys/sign-in/options', {});
      const response = await usePasskey(options);
      return this.opened(await opsApi.post('/passkeys/sign-in/verify', { response }));
    });
  }

  private accept(event: SubmitEvent) {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const token = new URLSearchParams(location.search).get('token') ?? '';
    void this.run(async () => {
      const data = await opsApi.post<{ csrfToken: string }>('/accept-invitation', { token, password: form.get('password') });
      history.replaceState(null, '', '/ops');
      this.path = '/ops';
      await this.opened(data);
    }, ACCEPT_LABELS);
  }

  private enrol() {
    void this.run(async () => {
      const options = await opsApi.post<PublicKeyCredentialCreationOptionsJSON>('/passkeys/registration-options', {});
      const response = await createPasskey(options);
      await opsApi.post('/passkeys', { response, name: 'Console passkey' });
      await this.loadSession();
    });
  }

  private signOut() {
    void this.run(async () => {
      await opsApi.post('/sign-out', {});
      this.session = undefined;
      this.view = 'sign-in';
      this.go('/ops/sign-in');
    });
  }

  private errorBox() {
    return this.error ? html`<p role="alert" class="error">${this.error}</p>` : nothing;
  }

  /** A field's control attributes' values and its error line: `aria-invalid`, `aria-describedby`, the line below. */
  private invalid(id: string) {
    return this.fieldErrors[id] ? 'true' : nothing;
  }

  private described(id: string) {
    return describedBy(id, false, Boolean(this.fieldErrors[id]));
  }

  /** The field's error line, and (visually hidden) the same with the field's label, heard at once. */
  private errorUnder(id: string, label: string) {
    const message = this.fieldErrors[id];
    return html`${fieldErrorLine(id, message)}${message ? html`<p class="visually-hidden" role="alert">${label}: ${message}</p>` : nothing}`;
  }

  override render() {
    switch (this.view) {
      case 'loading':
        return html`<main><p role="status">Loading the console…</p></main>`;
      case 'accept':
        return html`<main class="account">
          <h1>Join the operations console</h1>
          <p class="muted">Choose a password for your staff account (at least 12 characters). You will add a passkey next.</p>
          <form @submit=${this.accept}>
            <label for="password">New password</label>
            <input id="password" name="password" type="password" autocomplete="new-password" required minlength="12" aria-invalid=${this.invalid('password')} aria-describedby=${this.described('password')} />
            ${this.errorUnder('password', ACCEPT_LABELS.password)}
            <button ?disabled=${this.busy}>Join the console</button>
          </form>
          ${this.errorBox()}
        </main>`;
      case 'enrol':
        return html`<main class="account">
          <h1>Register your passkey</h1>
          <p>The console asks a passkey of every staff member. Create one on this device to continue.</p>
          <button ?disabled=${this.busy || !passkeysSupported()} @click=${this.enrol}>Create a passkey</button>
          ${this.errorBox()}
        </main>`;
      case 'sign-in':
        return html`<main class="account">
          <h1>Operations console</h1>
          <p class="muted">For the service's own staff. Partners sign in to the dashboard instead.</p>
          ${this.pending
            ? html`<p class="notice">Password accepted. Now confirm with your passkey.</p>
                <button ?disabled=${this.busy} @click=${this.passkey}>Confirm with your passkey</button>`
            : html`<form @submit=${this.signIn}>
                  <label for="email">Staff e-mail</label>
                  <input id="email" name="email" type="email" autocomplete="username" required aria-invalid=${this.invalid('email')} aria-describedby=${this.described('email')} />
                  ${this.errorUnder('email', SIGN_IN_LABELS.email)}
                  <label for="password">Password</label>
                  <input id="password" name="password" type="password" autocomplete="current-password" required aria-invalid=${this.invalid('password')} aria-describedby=${this.described('password')} />
                  ${this.errorUnder('password', SIGN_IN_LABELS.password)}
                  <button ?disabled=${this.busy}>Sign in</button>
                </form>
                <button class="secondary" ?disabled=${this.busy || !passkeysSupported()} @click=${this.passkey}>Use a passkey instead</button>`}
          ${this.errorBox()}
        </main>`;
      case 'signed-in':
        return html`<header>
            <strong>Operations console</strong>
            <span class="who">${this.session!.staff.email} · ${this.session!.staff.role}</span>
            <button ?disabled=${this.busy} @click=${this.signOut}>Sign out</button>
          </header>
          <nav aria-label="Console">
            ${PAGES.map(
              (page) =>
                html`<a href=${page.path} aria-current=${this.path === page.path ? 'page' : 'false'} @click=${(e: Event) => {
                  e.preventDefault();
                  this.go(page.path);
                }}>${page.label}</a>`,
            )}
          </nav>
          <main>${this.errorBox()}<ops-page .path=${this.path} .staff=${this.session!.staff}></ops-page></main>`;
    }
  }
}

customElements.define('ops-app', OpsApp);
