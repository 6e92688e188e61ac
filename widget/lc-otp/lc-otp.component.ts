import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { AsyncAction } from '../async-action';
import { emit } from '../step-events';
import { adoptDocumentStyles } from '../document-styles';
import { errorText, LocaleController, t } from '../i18n/i18n';
import type { CheckoutApi, OtpChallenge, OtpSent } from '../checkout-api';
import { otpStyles } from './lc-otp.styles';
import { codeFrom } from './otp-code';

const CODE = /^\d{6}$/;


const attemptsOf = (data: unknown): number | undefined => {
  const left = (data as { attemptsLeft?: unknown } | undefined)?.attemptsLeft;
  return typeof left === 'number' ? left : undefined;
};

const isChallenge = (data: unknown): data is OtpChallenge =>
  typeof data === 'object' && data !== null && typeof (data as OtpChallenge).sentTo === 'string' && typeof (data as OtpChallenge).resendInSeconds === 'number';

/**
 * Phone verification: sends a code to the borrower's phone on record, takes the 6 digits (typed,
 * pasted with spaces or dashes, or autofilled: one input with autocomplete="one-time-code" and no
 * length limit that would cut a paste short), verifies them, and fires `lc-otp-verified`.
 * Rendered in the light DOM so the platform's one-time-code autofill reaches it.
 *
 * A code already sent comes back from the server (`challenge`, the state's `otpChallenge`, or the
 * 429 of a "Send code" within the cool-down): after a reload the box, the countdown to "Send a new
 * code" and the attempts left are shown again. A code from an earlier text gets its own message.
 *
 * A step of `<lc-checkout>` (it renders and wires it); not meant to be used on its own. Its events stop
 * at `<lc-checkout>`.
 *
 * @summary Phone verification: the code texted to the borrower's phone on record.
 * @fires lc-otp-verified - the phone is verified (the public `lc-otp-verified`).
 * @cssprop --lc-primary - the brand colour of the main action (`theme.brandColor`)
 * @cssprop --lc-on-primary - text on the brand colour (white, ink or black: whichever reaches 4.5:1)
 * @cssprop --lc-link - links and secondary actions (the brand colour darkened to 4.5:1 on white)
 * @cssprop --lc-radius - corner radius of controls (`theme.radius`)
 * @cssprop --lc-danger - errors
 * @cssprop --lc-focus - the focus ring
 * @cssprop --lc-notice-bg - the background of the "code sent" notice
 */
export class LcOtp extends LitElement {
  static override properties = {
    api: { attribute: false },
    phoneHint: { attribute: 'phone-hint' },
    challenge: { attribute: false },
    code: { state: true },
    now: { state: true },
    sent: { state: true },
    notice: { state: true },
  };

  declare api: CheckoutApi;
  declare phoneHint: string;
  /** The code in play according to the server (null: none). */
  declare challenge: OtpChallenge | null;
  declare private code: string;
  declare private now: number;
  declare private sent: OtpChallenge | undefined;
  declare private notice: string;
  private readonly send = new AsyncAction<OtpSent>(this);
  private readonly verify = new AsyncAction<{ verified: boolean }>(this);
  private ticker: ReturnType<typeof setInterval> | undefined;
  /** When "Send a new code" opens, on this page's clock (from the server's seconds, so a phone clock that is off does not matter). */
  private resendAt = 0;
  /** When the code in the box stops working, on this page's clock (the server's own difference between expiry and resend). */
  private expiresAt = 0;
  private readonly locale = new LocaleController(this);

  constructor() {
    super();
    this.phoneHint = '';
    this.challenge = null;
    this.code = '';
    this.now = Date.now();
    this.notice = '';
  }

  protected override createRenderRoot() {
    adoptDocumentStyles('lc-otp', otpStyles);
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.sent && this.now < this.expiresAt) this.startCountdown();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.ticker);
  }

  protected override willUpdate(changed: PropertyValues): void {
    // The server's challenge restores the box (a reload); a code sent from this page afterwards wins.
    if (changed.has('challenge') && this.challenge && !this.sent) this.show(this.challenge);
  }

  /** Shows the box for a code sent, with the countdown to the next one. */
  private show(challenge: OtpChallenge) {
    this.sent = challenge;
    this.resendAt = Date.now() + challenge.resendInSeconds * 1000;
    this.expiresAt = this.resendAt + Date.parse(challenge.expiresAt) - Date.parse(challenge.resendAvailableAt);
    this.startCountdown();
  }

  private startCountdown() {
    clearInterval(this.ticker);
    this.now = Date.now();
    this.ticker = setInterval(() => {
      this.now = Date.now();
      if (this.now >= this.expiresAt) clearInterval(this.ticker);
    }, 1000);
  }

  private async sendCode() {
    this.notice = '';
    const sent = await this.send.run((signal) => this.api.sendOtp(signal));
    const error = this.send.error;
    if (sent) {
      this.show({ ...sent, attemptsLeft: sent.attemptsAllowed });
      this.code = '';
      this.verify.reset();
    } else if (error?.code === 'otp_resend_too_soon' && isChallenge(error.data)) {
      // A code was sent moments ago (from this page before a reload, or another tab): show its box and the countdown, not an error.
      this.show(error.data);
      this.notice = t('otp.alreadySent', { phone: error.data.sentTo });
      this.send.reset();
    } else return;
    await this.updateComplete;
    this.querySelector<HTMLInputElement>('#lc-otp-code')?.focus();
  }

  private onInput(event: Event) {
    const input = event.target as HTMLInputElement;
    this.code = codeFrom(input.value);
    // The box shows the digits only ("477 707" pasted reads 477707).
    input.value = this.code;
    if (CODE.test(this.code)) void this.submit();
  }

  private async submit(event?: Event) {
    event?.preventDefault();
    if (!CODE.test(this.code) || this.verify.status === 'pending') return;
    const result = await this.verify.run((signal) => this.api.verifyOtp(this.code, signal));
    if (result?.verified) {
      emit(this, 'lc-otp-verified');
      return;
    }
    const left = attemptsOf(this.verify.error?.data);
    if (left !== undefined && this.sent) this.sent = { ...this.sent, attemptsLeft: left };
  }

  override render() {
    const sent = this.sent;
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
    const wait = Math.max(0, Math.ceil((this.resendAt - this.now) / 1000));
    const error = this.verify.status === 'error' ? errorText(this.verify.error!) : this.send.status === 'error' ? errorText(this.send.error!) : '';
    const locked = sent.attemptsLeft <= 0;
    // Past its five minutes the box says so, never "valid for 5 minutes".
    const expired = this.now >= this.expiresAt || this.verify.error?.code === 'otp_expired';
    return html`
      ${this.notice ? html`<p class="lc-notice" role="status">${this.notice}</p>` : nothing}
      <form @submit=${this.submit} novalidate>
        <div class="lc-field">
          <label for="lc-otp-code">${t('otp.label', { phone: sent.sentTo })}</label>
          <input
            id="lc-otp-code"
            name="one-time-code"
            autocomplete="one-time-code"
            inputmode="numeric"
            .value=${this.code}
            @input=${this.onInput}
            aria-invalid=${error ? 'true' : 'false'}
            aria-describedby="lc-otp-help lc-otp-attempts${error ? ' lc-otp-error' : ''}"
          />
          <span id="lc-otp-help" class=${expired ? 'lc-error' : ''}>${t(expired ? 'otp.expired' : 'otp.help')}</span>
          <span id="lc-otp-attempts" class=${locked ? 'lc-error' : 'lc-muted'}>${locked ? t('otp.noAttemptsLeft') : t('otp.attemptsLeft', { n: sent.attemptsLeft })}</span>
          ${error ? html`<span id="lc-otp-error" class="lc-error" role="alert">${error}</span>` : nothing}
        </div>
        <div class="lc-actions">
          <button type="submit" ?disabled=${!CODE.test(this.code) || this.verify.status === 'pending' || locked}>
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
