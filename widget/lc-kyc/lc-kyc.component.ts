import { html, LitElement, nothing, unsafeCSS } from 'lit';
import { AsyncAction } from '../async-action';
import { emit } from '../step-events';
import type { CheckoutApi } from '../checkout-api';
import { stepBaseStyles } from '../step-styles';
import { errorText, LocaleController, t } from '../i18n/i18n';
import { cleanInput, digits } from '../inputs';
import { kycStyles } from './lc-kyc.styles';

type KycResult = { outcome: 'verified' | 'failed' | 'pending'; loanStatus: string };


/**
 * Identity (managed-tier loans): BVN (exactly 11 digits), NIN, date of birth and address, sent to
 * the loan's KYC route. `pending` asks to submit again, `failed` says what happens next. Fires
 * `lc-kyc-submitted` (detail `{outcome}`) after every answer and `lc-kyc-verified` once verified. The BVN lives only in the input and the request body (never a URL) and
 * the field is cleared once submitted.
 *
 * A step of `<lc-checkout>` (it renders and wires it); not meant to be used on its own. Its events stop
 * at `<lc-checkout>`.
 *
 * @summary Identity (managed-tier loans): BVN, NIN, date of birth and address.
 * @fires {CustomEvent<{outcome: 'verified' | 'failed' | 'pending'}>} lc-kyc-submitted - every answer of the identity check (the public `lc-kyc-submitted` on `<lc-checkout>`).
 * @fires lc-kyc-verified - the identity was verified (the checkout moves on).
 * @csspart button - every button (with `primary` or `secondary`)
 * @csspart primary - the step's main action (a button, full width)
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
export class LcKyc extends LitElement {
  static override styles = [unsafeCSS(stepBaseStyles), unsafeCSS(kycStyles)];

  static override properties = {
    api: { attribute: false },
    invalidBvn: { state: true },
  };

  declare api: CheckoutApi;
  declare private invalidBvn: boolean;
  private readonly submit = new AsyncAction<KycResult>(this);
  private readonly locale = new LocaleController(this);

  constructor() {
    super();
    this.invalidBvn = false;
  }


  private field(id: string): HTMLInputElement | null {
    return this.renderRoot.querySelector<HTMLInputElement>(`#${id}`);
  }

  private async send(event: Event) {
    event.preventDefault();
    const bvn = this.field('lc-kyc-bvn')?.value.trim() ?? '';
    this.invalidBvn = !/^\d{11}$/.test(bvn);
    if (this.invalidBvn) {
      await this.updateComplete;
      this.field('lc-kyc-bvn')?.focus();
      return;
    }
    const optional = (id: string) => this.field(id)?.value.trim() || undefined;
    const details = { bvn, nin: optional('lc-kyc-nin'), dateOfBirth: optional('lc-kyc-dob'), address: optional('lc-kyc-address') };
    const result = await this.submit.run((signal) => this.api.submitKyc(details, signal));
    if (result) emit(this, 'lc-kyc-submitted', { outcome: result.outcome });
    if (result?.outcome === 'verified') {
      this.field('lc-kyc-bvn')!.value = '';
      emit(this, 'lc-kyc-verified');
    }
  }

  override render() {
    const result = this.submit.status === 'done' ? this.submit.value : undefined;
    const note = result && result.outcome !== 'verified' ? t(result.outcome === 'failed' ? 'kyc.failed' : 'kyc.pending') : '';
    const error = this.submit.status === 'error' ? errorText(this.submit.error!) : '';
    return html`
      <form @submit=${this.send} novalidate>
        <div class="lc-field">
          <label part="label" for="lc-kyc-bvn">${t('kyc.bvn')}</label>
          <input part="input" id="lc-kyc-bvn" inputmode="numeric" autocomplete="off" @input=${cleanInput((v) => digits(v, 11))} aria-invalid=${this.invalidBvn ? 'true' : 'false'}
            aria-describedby="lc-kyc-bvn-help${this.invalidBvn ? ' lc-kyc-bvn-error' : ''}" />
          <span id="lc-kyc-bvn-help">${t('kyc.bvnHelp')}</span>
          ${this.invalidBvn ? html`<span id="lc-kyc-bvn-error" class="lc-error" part="error">${t('kyc.bvnInvalid')}</span>` : nothing}
        </div>
        <div class="lc-field">
          <label part="label" for="lc-kyc-nin">${t('kyc.nin')}</label>
          <input part="input" id="lc-kyc-nin" inputmode="numeric" autocomplete="off" @input=${cleanInput((v) => digits(v, 11))} />
        </div>
        <div class="lc-field">
          <label part="label" for="lc-kyc-dob">${t('kyc.dob')}</label>
          <input part="input" id="lc-kyc-dob" type="date" autocomplete="bday" />
        </div>
        <div class="lc-field">
          <label part="label" for="lc-kyc-address">${t('kyc.address')}</label>
          <input part="input" id="lc-kyc-address" type="text" autocomplete="street-address" maxlength="300" />
        </div>
        ${note ? html`<p role="status">${note}</p>` : nothing}
        ${error ? html`<p class="lc-error" part="error" role="alert">${error}</p>` : nothing}
        <button part="button primary" type="submit" ?disabled=${this.submit.status === 'pending'}>${this.submit.status === 'pending' ? t('kyc.checking') : t('kyc.submit')}</button>
      </form>
    `;
  }
}
