import { css, html, LitElement, nothing } from 'lit';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { api, DashboardApiError } from '../api';
import { currentLocation } from '../router';
import { onIpAddress, passkeysSupported, usePasskey } from '../ui/account-webauthn';
import { dashStyles } from '../ui/styles';

const messageOf = (error: unknown): string => (error instanceof DashboardApiError ? error.message : 'Something went wrong. Please try again.');

function signedIn(element: HTMLElement, data: { csrfToken: string }) {
  api.csrfToken = data.csrfToken;
  const next = currentLocation().query.get('next') ?? '/';
  element.dispatchEvent(new CustomEvent('signed-in', { detail: { next }, bubbles: true, composed: true }));
}

/**
 * "Use a passkey instead" on the sign-in page (its name avoids "Sign in" so `getByRole('button', { name: 'Sign in' })` stays unique): passwordless, with a discoverable passkey (no e-mail typed). With
 * `secondFactor` set (the password step answered `{ secondFactor: 'passkey', options }`), it is the second step
 * instead: "Confirm with your passkey" against the options the password step returned. Fires `signed-in` `{ next }`
 * like the password form.
 */
export class DashPasskeySignIn extends LitElement {
  static override styles = [
    dashStyles,
    css`
      :host { margin-top: 1rem; }
      .or { display: flex; align-items: center; gap: 0.75rem; color: var(--dash-muted); margin: 1rem 0; font-size: 0.9rem; }
      .or::before, .or::after { content: ''; flex: 1; border-top: 1px solid var(--dash-border); }
      button { width: 100%; justify-content: center; }
    `,
  ];
  static override properties = { secondFactor: { attribute: false }, busy: { state: true }, error: { state: true } };
  /** The options of a pending second step, or undefined for the passwordless button. */
  secondFactor: PublicKeyCredentialRequestOptionsJSON | undefined;
  busy = false;
  error = '';

  private async run(work: () => Promise<{ csrfToken: string }>) {
    if (this.busy) return;
    this.busy = true;
    this.error = '';
    try {
      signedIn(this, await work());
    } catch (error) {
      this.error = messageOf(error);
    } finally {
      this.busy = false;
    }
  }

  private passwordless = () =>
    this.run(async () => {
      const options = await api.post<PublicKeyCredentialRequestOptionsJSON>('/passkeys/sign-in/options', {});
      return api.post<{ csrfToken: string }>('/passkeys/sign-in/verify', { response: await usePasskey(options) });
    });

  private confirm = () =>
    this.run(async () => api.post<{ csrfToken: string }>('/passkeys/second-factor/verify', { response: await usePasskey(this.secondFactor!) }));

  override render() {
    // WebAuthn needs a host name: on an IP address (or a browser without passkeys) the button would only fail.
    if (!passkeysSupported() || onIpAddress()) return nothing;
    const alert = this.error ? html`<p role="alert" class="error">${this.error}</p>` : nothing;
    if (this.secondFactor) {
      return html`${alert}
        <button type="button" @click=${this.confirm} ?disabled=${this.busy}>${this.busy ? 'Waiting for your passkey…' : 'Confirm with your passkey'}</button>`;
    }
    return html`<div class="or" aria-hidden="true">or</div>
      ${alert}
      <button type="button" class="secondary" @click=${this.passwordless} ?disabled=${this.busy}>${this.busy ? 'Waiting for your passkey…' : 'Use a passkey instead'}</button>`;
  }
}
customElements.define('dash-passkey-sign-in', DashPasskeySignIn);
