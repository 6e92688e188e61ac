import { html, LitElement, nothing } from 'lit';
import { AsyncAction } from '../async-action';
import { adoptDocumentStyles } from '../document-styles';
import { errorText, LocaleController, t } from '../i18n/i18n';
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
  private readonly locale = new LocaleController(this);

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
        <p>${this.phoneHint ? t('otp.introEnding', { digits: this.phoneHint.replace(/\D/g, '') }) : t('otp.intro')}</p>
        ${this.send.status === 'error' ? html`<p class="lc-error" role="alert">${errorText(this.send.error!)}</p>` : nothing}
        <div class="lc-actions">
          <button type="button" @click=${this.sendCode} ?disabled=${this.send.status === 'pending'}>
            ${this.send.status === 'pending' ? t('otp.sending') : t('otp.send')}
          </button>
        </div>
      `;
    }
    const wait = Math.max(0, Math.ceil((Date.parse(sent.resendAvailableAt) - this.now) / 1000));
    const error = this.verify.status === 'error' ? errorText(this.verify.error!) : this.send.status === 'error' ? errorText(this.send.error!) : '';
    return html`
      <form @submit=${this.submit} novalidate>
        <div class="lc-field">
          <label for="lc-otp-code">${t('otp.label', { phone: sent.sentTo })}</label>
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
          <span id="lc-otp-help">${t('otp.help')}</span>
          ${error ? html`<span id="lc-otp-error" class="lc-error" role="alert">${error}</span>` : nothing}
        </div>
        <div class="lc-actions">
          <button type="submit" ?disabled=${!CODE.test(this.code) || this.verify.status === 'pending'}>
            ${this.verify.status === 'pending' ? t('otp.checking') : t('otp.verify')}
          </button>
          <button type="button" class="lc-secondary" @click=${this.sendCode} ?disabled=${wait > 0 || this.send.status === 'pending'}>
            ${wait > 0 ? t('otp.resendIn', { seconds: wait }) : t('otp.resend')}
          </button>
        </div>
      </form>
    `;
  }
}
