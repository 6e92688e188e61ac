import { css, html, LitElement, nothing } from 'lit';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { api, DashboardApiError } from '../api';
import { currentLocation, href } from '../router';
import { dashStyles } from '../ui/styles';
import { describedBy, fieldError, fieldErrorLine, type FieldError } from '../ui/field-errors';
import './accept-invitation';
import './passkey-sign-in';
import './sandbox-inbox-link';

type View = 'sign-in' | 'sign-up' | 'verify-email' | 'forgot-password' | 'reset-password' | 'accept-invitation';

/** The forms' fields as the server names them, and their labels: a refusal is shown under its field in these words. */
const LABELS: Record<string, string> = { organisationName: 'Organisation name', email: 'Work e-mail', password: 'Password' };

/** The fields each form shows (a refusal about another field stays in the alert). */
const VIEW_FIELDS: Record<View, readonly string[]> = {
  'sign-in': ['email', 'password'],
  'sign-up': ['organisationName', 'email', 'password'],
  'verify-email': [],
  'forgot-password': ['email'],
  'reset-password': ['password'],
  'accept-invitation': [],
};

/** What went wrong: beside its field when the server names one of the form's, else in the form's alert. */
const errorOf = (error: unknown): FieldError => {
  if (!(error instanceof DashboardApiError)) return { field: undefined, message: 'Something went wrong. Please try again.' };
  // The password policy's refusal is about the password, though the server names no field.
  if (error.code === 'password_rejected') return { field: 'password', message: error.message };
  return fieldError(error, LABELS);
};

/**
 * The signed-out pages: sign in, sign up, verify the e-mail (the e-mailed link), ask for and set a new password, accept
 * an invitation. Each form keeps what was typed when the server refuses, says why in an alert, and disables its button
 * while a request is in flight. Fires `signed-in` `{ next }` once a session exists.
 */
export class DashAccountPage extends LitElement {
  static override styles = [
    dashStyles,
    css`
      :host { min-height: 100vh; background: var(--dash-surface); padding: 2rem 1rem; box-sizing: border-box; }
      main { max-width: 26rem; margin: 0 auto; background: #fff; border: 1px solid var(--dash-border); border-radius: 12px; padding: 1.5rem; }
      form button[type='submit'] { width: 100%; justify-content: center; margin-top: 1.25rem; }
      .links { margin-top: 1rem; display: flex; flex-direction: column; gap: 0.4rem; }
    `,
  ];
  static override properties = { view: {}, busy: { state: true }, error: { state: true }, done: { state: true }, secondFactor: { state: true } };
  view: View = 'sign-in';
  busy = false;
  error: FieldError | undefined;
  done = '';
  /** Set when the password was right and a passkey is asked next. */
  secondFactor: PublicKeyCredentialRequestOptionsJSON | undefined;

  protected override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('view') && changed.get('view') !== undefined) {
      this.error = undefined;
      this.done = '';
      this.secondFactor = undefined;
    }
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.view === 'verify-email') void this.verify();
  }

  private token = () => currentLocation().query.get('token') ?? '';

  private async submit(event: SubmitEvent, work: (form: FormData) => Promise<void>) {
    event.preventDefault();
    if (this.busy) return;
    this.busy = true;
    this.error = undefined;
    try {
      await work(new FormData(event.target as HTMLFormElement));
    } catch (error) {
      this.error = errorOf(error);
    } finally {
      this.busy = false;
    }
  }

  private async verify() {
    this.busy = true;
    try {
      await api.post('/verify-email', { token: this.token() });
      this.done = 'Your e-mail is verified. You can sign in.';
    } catch (error) {
      this.error = errorOf(error);
    } finally {
      this.busy = false;
    }
  }

  private signIn = (form: FormData) =>
    api.post<{ csrfToken: string; secondFactor?: 'passkey'; options?: PublicKeyCredentialRequestOptionsJSON }>('/sign-in', { email: form.get('email'), password: form.get('password') }).then((data) => {
      // The password was right and this account asks a passkey too: the second step (passkey-sign-in.ts) opens the session.
      if (data.secondFactor === 'passkey') {
        this.secondFactor = data.options;
        return;
      }
      api.csrfToken = data.csrfToken;
      const next = currentLocation().query.get('next') ?? '/';
      this.dispatchEvent(new CustomEvent('signed-in', { detail: { next }, bubbles: true, composed: true }));
    });

  private signUp = (form: FormData) =>
    api.post('/sign-up', { organisationName: form.get('organisationName'), email: form.get('email'), password: form.get('password') }).then(() => {
      this.done = 'Check your inbox: we sent you a link to verify your e-mail.';
    });

  private forgot = (form: FormData) =>
    api.post('/password-reset/request', { email: form.get('email') }).then(() => {
      this.done = 'If this e-mail has an account, we sent it a link to choose a new password.';
    });

  private reset = (form: FormData) =>
    api.post<{ firstPassword: boolean }>('/password-reset', { token: this.token(), password: form.get('password') }).then((data) => {
      this.done = data.firstPassword ? 'Your password is set. Sign in with it.' : 'Your password is changed, and every other session has ended. Sign in with the new password.';
    });

  /** The form's alert: the whole message, or (when it sits under a field) the same words with the field's label for a screen reader. */
  private alert() {
    const error = this.error;
    if (!error) return nothing;
    const words = error.field ? `${LABELS[error.field]}: ${error.message}` : error.message;
    return html`<p role="alert" class=${this.besideField(error) ? 'visually-hidden' : 'error'}>${words}</p>`;
  }

  private besideField(error: FieldError): boolean {
    return error.field !== undefined && VIEW_FIELDS[this.view].includes(error.field);
  }

  private errorFor(field: string): string | undefined {
    return this.error?.field === field && this.besideField(this.error) ? this.error.message : undefined;
  }

  private password(autocomplete: 'current-password' | 'new-password') {
    const hint = autocomplete === 'new-password';
    const error = this.errorFor('password');
    return html`<label for="password">Password</label>
      <input id="password" name="password" type="password" required autocomplete=${autocomplete} maxlength="512" aria-invalid=${error ? 'true' : 'false'} aria-describedby=${describedBy('password', hint, Boolean(error))} />
      ${hint ? html`<p class="hint" id="password-hint">At least 15 characters. A few unrelated words make a strong one.</p>` : nothing}
      ${fieldErrorLine('password', error)}`;
  }

  private email() {
    const error = this.errorFor('email');
    return html`<label for="email">Work e-mail</label><input id="email" name="email" type="email" required autocomplete="email" inputmode="email" aria-invalid=${error ? 'true' : 'false'} aria-describedby=${describedBy('email', false, Boolean(error))} />
      ${fieldErrorLine('email', error)}`;
  }

  private body() {
    switch (this.view) {
      case 'sign-in':
        if (this.secondFactor) {
          return html`<h1>Confirm it is you</h1>
            <p>Your password is right. Your account also asks for your passkey: use it to finish signing in.</p>
            <dash-passkey-sign-in .secondFactor=${this.secondFactor}></dash-passkey-sign-in>
            <div class="links"><a href=${href('/sign-in')} @click=${() => (this.secondFactor = undefined)}>Start again</a></div>`;
        }
        return html`<h1>Sign in</h1>
          ${this.alert()}
          <form @submit=${(e: SubmitEvent) => this.submit(e, this.signIn)}>
            ${this.email()} ${this.password('current-password')}
            <button type="submit" ?disabled=${this.busy}>${this.busy ? 'Signing in…' : 'Sign in'}</button>
          </form>
          <dash-passkey-sign-in></dash-passkey-sign-in>
          <div class="links"><a href=${href('/forgot-password')}>Forgot your password?</a><a href=${href('/sign-up')}>Create an organisation</a></div>`;
      case 'sign-up':
        return html`<h1>Create your organisation</h1>
          <p class="muted">It starts in test mode: sandbox keys, no real money. Live mode is switched on after our checks.</p>
          ${this.done ? html`<p role="status" class="notice">${this.done}</p><dash-sandbox-inbox-link></dash-sandbox-inbox-link>` : html`${this.alert()}
                <form @submit=${(e: SubmitEvent) => this.submit(e, this.signUp)}>
                  <label for="organisationName">Organisation name</label>
                  <input id="organisationName" name="organisationName" required maxlength="150" autocomplete="organization"
                    aria-invalid=${this.errorFor('organisationName') ? 'true' : 'false'} aria-describedby=${describedBy('organisationName', false, Boolean(this.errorFor('organisationName')))} />
                  ${fieldErrorLine('organisationName', this.errorFor('organisationName'))}
                  ${this.email()} ${this.password('new-password')}
                  <button type="submit" ?disabled=${this.busy}>${this.busy ? 'Creating…' : 'Create organisation'}</button>
                </form>`}
          <div class="links"><a href=${href('/sign-in')}>I already have an account</a></div>`;
      case 'verify-email':
        return html`<h1>Verify your e-mail</h1>
          ${this.busy ? html`<p role="status">Checking your link…</p>` : nothing} ${this.alert()}
          ${this.done ? html`<p role="status" class="notice">${this.done}</p>` : nothing}
          ${this.error ? html`<dash-sandbox-inbox-link></dash-sandbox-inbox-link>` : nothing}
          <div class="links"><a href=${href('/sign-in')}>Sign in</a></div>`;
      case 'forgot-password':
        return html`<h1>Reset your password</h1>
          ${this.done ? html`<p role="status" class="notice">${this.done}</p><dash-sandbox-inbox-link></dash-sandbox-inbox-link>` : html`${this.alert()}
                <form @submit=${(e: SubmitEvent) => this.submit(e, this.forgot)}>
                  ${this.email()}
                  <button type="submit" ?disabled=${this.busy}>${this.busy ? 'Sending…' : 'Send me a link'}</button>
                </form>`}
          <div class="links"><a href=${href('/sign-in')}>Back to sign in</a></div>`;
      case 'reset-password':
        return html`<h1>Choose a new password</h1>
          ${this.done ? html`<p role="status" class="notice">${this.done}</p>` : html`${this.alert()}
                <form @submit=${(e: SubmitEvent) => this.submit(e, this.reset)}>
                  ${this.password('new-password')}
                  <button type="submit" ?disabled=${this.busy}>${this.busy ? 'Saving…' : 'Save the new password'}</button>
                </form>`}
          <div class="links"><a href=${href('/sign-in')}>Sign in</a></div>`;
      case 'accept-invitation':
        return html`<dash-accept-invitation></dash-accept-invitation>`;
    }
  }

  override render() {
    return html`<main>${this.body()}</main>`;
  }
}
customElements.define('dash-account-page', DashAccountPage);
