import { html, LitElement, nothing, unsafeCSS } from 'lit';
import { AsyncAction } from '../async-action';
import { emit } from '../step-events';
import type { CheckoutApi, FinancingView } from '../checkout-api';
import { stepBaseStyles } from '../step-styles';
import { formatBps, formatKobo } from '../format';
import { errorText, LocaleController, t, tp } from '../i18n/i18n';
import { decisionStyles } from './lc-decision.styles';

/**
 * Patient financing, decision step: the service approved the application; the patient picks one of the repayment
 * plans (tenors) the credit policy found affordable. Choosing issues the offer, which the next step shows in full.
 *
 * A step of `<lc-checkout>` (it renders and wires it); not meant to be used on its own. Its events stop
 * at `<lc-checkout>`.
 *
 * @summary Patient financing: the patient picks one of the affordable repayment plans.
 * @fires {CustomEvent<{tenorMonths: number}>} lc-tenor-chosen - the offer was issued for the chosen tenor; `detail.tenorMonths`.
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
export class LcDecision extends LitElement {
  static override styles = [unsafeCSS(stepBaseStyles), unsafeCSS(decisionStyles)];

  static override properties = {
    api: { attribute: false },
    financing: { attribute: false },
    missing: { state: true },
  };

  declare api: CheckoutApi;
  declare financing: FinancingView;
  declare private missing: boolean;
  private readonly choose = new AsyncAction<unknown>(this);
  private readonly locale = new LocaleController(this);

  constructor() {
    super();
    this.missing = false;
  }


  private async send(event: Event) {
    event.preventDefault();
    const picked = this.renderRoot.querySelector<HTMLInputElement>('input[name="lc-tenor"]:checked');
    this.missing = !picked;
    if (!picked) return;
    const tenorMonths = Number(picked.value);
    const done = await this.choose.run((signal) => this.api.chooseTenor(tenorMonths, signal));
    if (done) emit(this, 'lc-tenor-chosen', { tenorMonths });
  }

  override render() {
    const options = this.financing?.options ?? [];
    const error = this.choose.status === 'error' ? errorText(this.choose.error!) : '';
    return html`
      <p role="status">${t('decision.approved', { amount: formatKobo(this.financing.amountKobo), treatment: this.financing.treatment })}</p>
      <form @submit=${this.send} novalidate>
        <fieldset aria-describedby=${this.missing ? 'lc-decision-error' : nothing}>
          <legend>${t('decision.legend')}</legend>
          ${options.map(
            (o, i) => html`<label part="label" class="lc-option">
              <input part="input" type="radio" name="lc-tenor" value=${o.tenorMonths} ?checked=${i === 0} />
              <strong>${tp('decision.option', o.tenorMonths, { instalment: formatKobo(o.instalmentKobo) })}</strong>
              <span class="lc-option-facts">${t('decision.facts', {
                instalments: o.instalmentCount,
                total: formatKobo(o.totalRepayableKobo),
                cost: formatKobo(o.costOfCreditKobo),
                apr: formatBps(o.aprBps),
              })}</span>
            </label>`,
          )}
        </fieldset>
        ${this.missing ? html`<p id="lc-decision-error" class="lc-error" part="error">${t('decision.missing')}</p>` : nothing}
        ${error ? html`<p class="lc-error" part="error" role="alert">${error}</p>` : nothing}
        <button part="button primary" type="submit" ?disabled=${this.choose.status === 'pending'}>${this.choose.status === 'pending' ? t('decision.preparing') : t('decision.submit')}</button>
      </form>
    `;
  }
}
