import { html, LitElement, nothing } from 'lit';
import { AsyncAction } from '../async-action';
import { adoptDocumentStyles } from '../document-styles';
import type { CheckoutApi, OtpSent } from '../checkout-api';
import { otpStyles } from './lc-otp.styles';

const CODE = /^\d{6}$/;

/**
 * Phone verification: sends a code to the borrower's phone on record, takes the 6 digits (typed,
 * pasted or autofilled: one input with autocomplete="one-time-code"), verifies them, and fires
 * `lc-otp-verified`. Rendered in the light DOM so the platform's one-time-code autofill reaches it.
 */
export class LcOtp extends LitElement {
  static override properties = {
    api: { attribute: false },
    phoneHint: { attribute: 'phone-hint' },
    code: { state: true },
    now: { state: true },
  };

  declare api: CheckoutApi;
  declare phoneHint: string;
  declare private code: string;
  declare private now: number;
  private readonly send = new AsyncAction<OtpSent>(this);
  private readonly verify = new AsyncAction<{ verified: boolean }>(this);
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.phoneHint = '';
    this.code = '';
    this.now = Date.now();
  }

  protected override createRenderRoot() {
    adoptDocumentStyles('lc-otp', otpStyles);
    return this;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.ticker);
  }

  private async sendCode() {
    const sent = await this.send.run((signal) => this.api.sendOtp(signal));
    if (!sent) return;
    clearInterval(this.ticker);
    this.ticker = setInterval(() => {
      this.now = Date.now();
      if (this.now >= Date.parse(sent.resendAvailableAt)) clearInterval(this.ticker);
    }, 1000);
    await this.updateComplete;
    this.querySelector<HTMLInputElement>('#lc-otp-code')?.focus();
  }

  private onInput(event: Event) {
    this.code = (event.target as HTMLInputElement).value.replace(/\D/g, '').slice(0, 6);
    if (CODE.test(this.code)) void this.submit();
  }

  private async submit(event?: Event) {
    event?.preventDefault();
    if (!CODE.test(this.code) || this.verify.status === 'pending') return;
    const result = await this.verify.run((signal) => this.api.verifyOtp(this.code, signal));
    if (result?.verified) this.dispatchEvent(new CustomEvent('lc-otp-verified', { bubbles: true, composed: true }));
  }

  override render() {
    const sent = this.send.value;
    if (!sent) {
      return html`
        <p>We will text a 6-digit code to your phone${this.phoneHint ? html` ending ${this.phoneHint.replace(/\D/g, '')}` : nothing}.</p>
        ${this.send.status === 'error' ? html`<p class="lc-error" role="alert">${this.send.error!.message}</p>` : nothing}
        <div class="lc-actions">
          <button type="button" @click=${this.sendCode} ?disabled=${this.send.status === 'pending'}>
            ${this.send.status === 'pending' ? 'Sending…' : 'Send code'}
          </button>
        </div>
      `;
    }
    const wait = Math.max(0, Math.ceil((Date.parse(sent.resendAvailableAt) - this.now) / 1000));
    const error = this.verify.status === 'error' ? this.verify.error!.message : this.send.status === 'error' ? this.send.error!.message : '';
    return html`
      <form @submit=${this.submit} novalidate>
        <div class="lc-field">
          <label for="lc-otp-code">Code sent to ${sent.sentTo}</label>
          <input
            id="lc-otp-code"
            name="one-time-code"
            autocomplete="one-time-code"
            inputmode="numeric"
            pattern="[0-9]*"
            maxlength="6"
            .value=${this.code}
            @input=${this.onInput}
            aria-invalid=${error ? 'true' : 'false'}
            aria-describedby="lc-otp-help${error ? ' lc-otp-error' : ''}"
          />
          <span id="lc-otp-help">6 digits. The code is valid for 5 minutes.</span>
          ${error ? html`<span id="lc-otp-error" class="lc-error" role="alert">${error}</span>` : nothing}
        </div>
        <div class="lc-actions">
          <button type="submit" ?disabled=${!CODE.test(this.code) || this.verify.status === 'pending'}>
            ${this.verify.status === 'pending' ? 'Checking…' : 'Verify'}
          </button>
          <button type="button" class="lc-secondary" @click=${this.sendCode} ?disabled=${wait > 0 || this.send.status === 'pending'}>
            ${wait > 0 ? `Resend in ${wait} s` : 'Resend code'}
          </button>
        </div>
      </form>
    `;
  }
}
