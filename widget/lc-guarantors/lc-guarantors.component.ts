import { html, LitElement, nothing, unsafeCSS } from 'lit';
import { AsyncAction } from '../async-action';
import { emit } from '../step-events';
import type { CheckoutApi, Guarantor, OtpSent } from '../checkout-api';
import { stepBaseStyles } from '../step-styles';
import { errorText, LocaleController, refusedField, t, tp } from '../i18n/i18n';
import { cleanInput, digits, phoneNumber } from '../inputs';
import { guarantorStyles } from './lc-guarantors.styles';

/** The platform's names of the fields the add form sends → the form's own (`lc-g-<name>`). */
const FIELDS: Record<string, string> = { fullName: 'name', phone: 'phone', relationship: 'relationship' };

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
    const failed = this.add.status === 'error' ? this.add.error! : undefined;
    const error = failed ? errorText(failed) : '';
    // A refusal of one field shows under that field (its own words); any other refusal under the form.
    const at = failed ? (failed.code === 'guarantor_phone_invalid' ? 'phone' : FIELDS[refusedField(failed)]) : undefined;
    const field = (name: string, label: string, input: (invalid: string, describedBy: string) => unknown, help = '') => {
      const text = at === name ? error : '';
      const ids = [help && `lc-g-${name}-help`, text && `lc-g-${name}-error`].filter(Boolean).join(' ');
      return html`<div class="lc-field">
        <label part="label" for="lc-g-${name}">${label}</label>
        ${input(text ? 'true' : 'false', ids)}
        ${help ? html`<span id="lc-g-${name}-help">${help}</span>` : nothing}
        ${text ? html`<span id="lc-g-${name}-error" class="lc-error" part="error" role="alert">${text}</span>` : nothing}
      </div>`;
    };
    return html`
      <form @submit=${this.addGuarantor} novalidate>
        ${field('name', t('guarantors.name'), (invalid, ids) => html`<input part="input" id="lc-g-name" autocomplete="off" maxlength="200" aria-invalid=${invalid} aria-describedby=${ids || nothing} />`)}
        ${field('phone', t('guarantors.phone'), (invalid, ids) => html`<input part="input" id="lc-g-phone" type="tel" inputmode="tel" autocomplete="off" @input=${cleanInput(phoneNumber)} aria-invalid=${invalid} aria-describedby=${ids || nothing} />`)}
        ${field('relationship', t('guarantors.relationship'), (invalid, ids) => html`<input part="input" id="lc-g-relationship" autocomplete="off" maxlength="60" aria-invalid=${invalid} aria-describedby=${ids} />`, t('guarantors.relationshipHelp'))}
        ${error && !at ? html`<p class="lc-error" part="error" role="alert">${error}</p>` : nothing}
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
