import { html, LitElement, nothing, unsafeCSS } from 'lit';
import { AsyncAction } from '../async-action';
import { emit } from '../step-events';
import type { CheckoutApi } from '../checkout-api';
import { stepBaseStyles } from '../step-styles';
import { errorText, LocaleController, refusedField, t } from '../i18n/i18n';
import { cleanInput, digits } from '../inputs';
import { kycStyles } from './lc-kyc.styles';

type KycResult = { outcome: 'verified' | 'failed' | 'pending'; loanStatus: string };


/** The platform's names of the fields this form sends → the form's own (`lc-kyc-<name>`). */
const FIELDS: Record<string, string> = { bvn: 'bvn', nin: 'nin', dateOfBirth: 'dob', address: 'address' };

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
    const failed = this.submit.status === 'error' ? this.submit.error! : undefined;
    const error = failed ? errorText(failed) : '';
    // A refusal of one field shows under that field (its own words); any other refusal under the form.
    const at = failed ? FIELDS[refusedField(failed)] : undefined;
    const problem = (name: string) => (name === 'bvn' && this.invalidBvn ? t('kyc.bvnInvalid') : at === name ? error : '');
    const field = (name: string, label: string, input: (invalid: string, describedBy: string) => unknown, help = '') => {
      const text = problem(name);
      const ids = [help && `lc-kyc-${name}-help`, text && `lc-kyc-${name}-error`].filter(Boolean).join(' ');
      return html`<div class="lc-field">
        <label part="label" for="lc-kyc-${name}">${label}</label>
        ${input(text ? 'true' : 'false', ids)}
        ${help ? html`<span id="lc-kyc-${name}-help">${help}</span>` : nothing}
        ${text ? html`<span id="lc-kyc-${name}-error" class="lc-error" part="error" role="alert">${text}</span>` : nothing}
      </div>`;
    };
    return html`
      <form @submit=${this.send} novalidate>
        ${field('bvn', t('kyc.bvn'), (invalid, ids) => html`<input part="input" id="lc-kyc-bvn" inputmode="numeric" autocomplete="off" @input=${cleanInput((v) => digits(v, 11))} aria-invalid=${invalid} aria-describedby=${ids} />`, t('kyc.bvnHelp'))}
        ${field('nin', t('kyc.nin'), (invalid, ids) => html`<input part="input" id="lc-kyc-nin" inputmode="numeric" autocomplete="off" @input=${cleanInput((v) => digits(v, 11))} aria-invalid=${invalid} aria-describedby=${ids || nothing} />`)}
        ${field('dob', t('kyc.dob'), (invalid, ids) => html`<input part="input" id="lc-kyc-dob" type="date" autocomplete="bday" aria-invalid=${invalid} aria-describedby=${ids || nothing} />`)}
        ${field('address', t('kyc.address'), (invalid, ids) => html`<input part="input" id="lc-kyc-address" type="text" autocomplete="street-address" maxlength="300" aria-invalid=${invalid} aria-describedby=${ids || nothing} />`)}
        ${note ? html`<p role="status">${note}</p>` : nothing}
        ${error && !at ? html`<p class="lc-error" part="error" role="alert">${error}</p>` : nothing}
        <button part="button primary" type="submit" ?disabled=${this.submit.status === 'pending'}>${this.submit.status === 'pending' ? t('kyc.checking') : t('kyc.submit')}</button>
      </form>
    `;
  }
}
