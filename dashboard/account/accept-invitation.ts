import { css, html, LitElement, nothing } from 'lit';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { api, DashboardApiError } from '../api';
import './passkey-sign-in';
import './sandbox-inbox-link';
import { currentLocation, href } from '../router';
import { dashStyles } from '../ui/styles';
import { describedBy, fieldError, fieldErrorLine } from '../ui/field-errors';

interface InvitationInfo {
  organisationName: string;
  email: string;
  role: string;
  expiresAt: string;
  hasAccount: boolean;
}

const messageOf = (error: unknown) => (error instanceof DashboardApiError ? error.message : 'Something went wrong. Please try again.');

/**
 * Accepting an invitation (the e-mailed `/dashboard/accept-invitation?token=…`): shows which organisation and role,
 * then asks for the account's password (an existing account) or a new one (a new person, same rules as sign-up).
 * On success a session exists in the inviting organisation and `signed-in` fires, so the shell opens the dashboard;
 * an account that asks a passkey after the password confirms with it first (the invitation is accepted by then).
 */
export class DashAcceptInvitation extends LitElement {
  static override styles = [dashStyles, css`.after { margin-top: 1.25rem; }`];
  static override properties = { info: { state: true }, error: { state: true }, passwordError: { state: true }, busy: { state: true }, loading: { state: true }, secondFactor: { state: true } };
  secondFactor: PublicKeyCredentialRequestOptionsJSON | undefined;
  info: InvitationInfo | undefined;
  error = '';
  /** The password policy's refusal (or a refused password), shown under the password field. */
  passwordError = '';
  busy = false;
  loading = true;

  private token = () => currentLocation().query.get('token') ?? '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.describe();
  }

  private async describe() {
    try {
      this.info = await api.post<InvitationInfo>('/invitations/describe', { token: this.token() });
    } catch (error) {
      this.error = error instanceof DashboardApiError && error.code === 'invalid_request' ? 'This invitation link is incomplete. Open the link from the e-mail again.' : messageOf(error);
    } finally {
      this.loading = false;
    }
  }

  private async accept(event: SubmitEvent) {
    event.preventDefault();
    if (this.busy) return;
    this.busy = true;
    this.error = '';
    this.passwordError = '';
    try {
      const data = await api.post<{ csrfToken: string; secondFactor?: 'passkey'; options?: PublicKeyCredentialRequestOptionsJSON }>('/invitations/accept', {
        token: this.token(),
        password: new FormData(event.target as HTMLFormElement).get('password'),
      });
      if (data.secondFactor === 'passkey') {
        this.secondFactor = data.options;
        return;
      }
      api.csrfToken = data.csrfToken;
      this.dispatchEvent(new CustomEvent('signed-in', { detail: { next: '/' }, bubbles: true, composed: true }));
    } catch (error) {
      const aboutPassword = error instanceof DashboardApiError && (error.code === 'password_rejected' || fieldError(error, { password: 'Password' }).field === 'password');
      if (aboutPassword) this.passwordError = fieldError(error, { password: 'Password' }).message;
      else this.error = messageOf(error);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const alert = this.error
      ? html`<p role="alert" class="error">${this.error}</p>`
      : this.passwordError
        ? html`<p role="alert" class="visually-hidden">Password: ${this.passwordError}</p>`
        : nothing;
    const invalid = this.passwordError ? 'true' : 'false';
    if (this.loading) return html`<h1>Join an organisation</h1><p role="status">Checking your invitation…</p>`;
    const info = this.info;
    if (info && this.secondFactor) {
      return html`<h1>Confirm it is you</h1>
        <p>You joined <strong>${info.organisationName}</strong>. Your account also asks for your passkey: use it to finish signing in.</p>
        <dash-passkey-sign-in .secondFactor=${this.secondFactor}></dash-passkey-sign-in>
        <p class="muted after">No passkey at hand? <a href=${href('/sign-in')}>Start again from the sign-in page</a>; you are a member already.</p>`;
    }
    if (!info) return html`<h1>Join an organisation</h1>${alert}<dash-sandbox-inbox-link></dash-sandbox-inbox-link><p><a href=${href('/sign-in')}>Sign in</a></p>`;
    return html`<h1>Join ${info.organisationName}</h1>
      <p>You are invited as <strong>${info.role}</strong>, with the e-mail <strong>${info.email}</strong>.</p>
      ${alert}
      <form @submit=${(e: SubmitEvent) => this.accept(e)}>
        <input type="email" name="username" autocomplete="username" .value=${info.email} hidden readonly aria-hidden="true" tabindex="-1" />
        ${info.hasAccount
          ? html`<p class="muted">You already have a dashboard account: enter its password to join.</p>
              <label for="password">Password</label>
              <input id="password" name="password" type="password" required autocomplete="current-password" maxlength="512" aria-invalid=${invalid} aria-describedby=${describedBy('password', false, Boolean(this.passwordError))} />
              ${fieldErrorLine('password', this.passwordError)}`
          : html`<label for="password">Choose a password</label>
              <input id="password" name="password" type="password" required autocomplete="new-password" maxlength="512" aria-invalid=${invalid} aria-describedby=${describedBy('password', true, Boolean(this.passwordError))} />
              <p class="hint" id="password-hint">At least 15 characters. A few unrelated words make a strong one.</p>
              ${fieldErrorLine('password', this.passwordError)}`}
        <button type="submit" ?disabled=${this.busy}>${this.busy ? 'Joining…' : `Join ${info.organisationName}`}</button>
      </form>`;
  }
}
customElements.define('dash-accept-invitation', DashAcceptInvitation);
