import { html, LitElement, nothing, unsafeCSS } from 'lit';
import { AsyncAction } from '../async-action';
import { emit } from '../step-events';
import type { CheckoutApi, Guarantor, OtpSent } from '../checkout-api';
import { stepBaseStyles } from '../step-styles';
import { errorText, LocaleController, t, tp } from '../i18n/i18n';
import { cleanInput, digits, phoneNumber } from '../inputs';
import { guarantorStyles } from './lc-guarantors.styles';

/**
 * Guarantors, when the product asks for them: the borrower names each one (name, phone,
 * relationship); we text the guarantor a code, and the borrower types the code the guarantor gives
 * them, which confirms the phone and the agreement. Fires `lc-guarantors-changed` after each
 * confirmation (the parent re-reads the state and moves on once enough are confirmed).
 *
 * A step of `<lc-checkout>` (it renders and wires it); not meant to be used on its own. Its events stop
 * at `<lc-checkout>`.
 *
 * @summary Guarantors: the borrower names each one and types the code the guarantor was texted.
 * @fires lc-guarantors-changed - a guarantor was confirmed (the checkout reads the state again).
 * @csspart button - every button (with `primary` or `secondary`)
 * @csspart primary - the step's main action (a button, full width)
 * @csspart secondary - the step's other actions
 * @csspart error - error messages
 * @csspart input - text inputs and selects
 * @csspart label - field labels
 * @cssprop --lc-primary - the brand colour of the main action (`theme.brandColor`)
 * @cssprop --lc-on-primary - text on the brand colour (white, ink or black: whichever reaches 4.5:1)
 * @cssprop --lc-link - links and secondary actions (the brand colour darkened to 4.5:1 on white)
 * @cssprop --lc-radius - corner radius of controls (`theme.radius`)
 * @cssprop --lc-danger - errors
 * @cssprop --lc-focus - the focus ring
 */
export class LcGuarantors extends LitElement {
  static override styles = [unsafeCSS(stepBaseStyles), unsafeCSS(guarantorStyles)];

  static override properties = {
    api: { attribute: false },
    required: { type: Number },
    guarantors: { attribute: false },
    pendingId: { state: true },
  };

  declare api: CheckoutApi;
  declare required: number;
  declare guarantors: Guarantor[];
  /** The guarantor whose code is awaited. */
  declare private pendingId: string | undefined;
  private readonly add = new AsyncAction<{ guarantor: Guarantor; otp: OtpSent | null }>(this);
  private readonly verify = new AsyncAction<Guarantor>(this);
  private readonly resend = new AsyncAction<OtpSent>(this);
  private readonly locale = new LocaleController(this);

  constructor() {
    super();
    this.required = 0;
    this.guarantors = [];
  }


  private value(id: string) {
    return this.renderRoot.querySelector<HTMLInputElement>(`#${id}`)?.value.trim() ?? '';
  }

  private async addGuarantor(event: Event) {
    event.preventDefault();
    const details = { fullName: this.value('lc-g-name'), phone: this.value('lc-g-phone'), relationship: this.value('lc-g-relationship') };
    const added = await this.add.run((signal) => this.api.addGuarantor(details, signal));
    if (!added) return;
    this.pendingId = added.guarantor.id;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>('#lc-g-code')?.focus();
  }

  private async verifyCode(event: Event) {
    event.preventDefault();
    const id = this.pendingId!;
    const code = this.value('lc-g-code');
    const verified = await this.verify.run((signal) => this.api.verifyGuarantor(id, code, signal));
    if (!verified) return;
    this.pendingId = undefined;
    emit(this, 'lc-guarantors-changed');
  }

  override render() {
    const confirmed = this.guarantors.filter((g) => g.verified).length;
    const pending = this.guarantors.find((g) => g.id === this.pendingId) ?? (this.add.value?.guarantor.id === this.pendingId ? this.add.value?.guarantor : undefined);
    return html`
      <p>${tp('guarantors.needed', this.required, { confirmed })}</p>
      ${this.guarantors.length
        ? html`<ul>${this.guarantors.map((g) => html`<li>${g.fullName} (${g.relationship}, ${g.phoneHint}): ${g.verified ? t('guarantors.confirmed') : t('guarantors.waiting')}</li>`)}</ul>`
        : nothing}
      ${pending ? this.renderCode(pending) : this.renderAdd()}
    `;
  }

  private renderAdd() {
    const error = this.add.status === 'error' ? errorText(this.add.error!) : '';
    return html`
      <form @submit=${this.addGuarantor} novalidate>
        <div class="lc-field"><label part="label" for="lc-g-name">${t('guarantors.name')}</label><input part="input" id="lc-g-name" autocomplete="off" maxlength="200" /></div>
        <div class="lc-field"><label part="label" for="lc-g-phone">${t('guarantors.phone')}</label><input part="input" id="lc-g-phone" type="tel" inputmode="tel" autocomplete="off" @input=${cleanInput(phoneNumber)} /></div>
        <div class="lc-field">
          <label part="label" for="lc-g-relationship">${t('guarantors.relationship')}</label>
          <input part="input" id="lc-g-relationship" autocomplete="off" maxlength="60" aria-describedby="lc-g-relationship-help" />
          <span id="lc-g-relationship-help">${t('guarantors.relationshipHelp')}</span>
        </div>
        ${error ? html`<p class="lc-error" part="error" role="alert">${error}</p>` : nothing}
        <button part="button primary" type="submit" ?disabled=${this.add.status === 'pending'}>${this.add.status === 'pending' ? t('guarantors.sending') : t('guarantors.send')}</button>
      </form>
    `;
  }

  private renderCode(guarantor: Guarantor) {
    const error = this.verify.status === 'error' ? errorText(this.verify.error!) : '';
    const resent =
      this.resend.status === 'done' ? html`<p role="status">${t('guarantors.resent', { name: guarantor.fullName })}</p>`
      : this.resend.status === 'error' ? html`<p class="lc-error" part="error" role="alert">${errorText(this.resend.error!)}</p>`
      : nothing;
    return html`
      ${resent}
      <form @submit=${this.verifyCode} novalidate>
        <div class="lc-field">
          <label part="label" for="lc-g-code">${t('guarantors.codeLabel', { name: guarantor.fullName })}</label>
          <input part="input" id="lc-g-code" inputmode="numeric" autocomplete="off" @input=${cleanInput((v) => digits(v, 6))} aria-invalid=${error ? 'true' : 'false'}
            aria-describedby="lc-g-code-help${error ? ' lc-g-code-error' : ''}" />
          <span id="lc-g-code-help">${t('guarantors.codeHelp', { name: guarantor.fullName })}</span>
          ${error ? html`<span id="lc-g-code-error" class="lc-error" part="error" role="alert">${error}</span>` : nothing}
        </div>
        <div class="lc-actions">
          <button part="button primary" type="submit" ?disabled=${this.verify.status === 'pending'}>${this.verify.status === 'pending' ? t('guarantors.checking') : t('guarantors.confirm')}</button>
          <button part="button secondary" type="button" class="lc-secondary" ?disabled=${this.resend.status === 'pending'}
            @click=${() => this.resend.run((signal) => this.api.resendGuarantorCode(guarantor.id, signal))}>${t('guarantors.resend')}</button>
        </div>
      </form>
    `;
  }
}
