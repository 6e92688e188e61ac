import { html, LitElement, nothing, unsafeCSS } from 'lit';
import { AsyncAction } from '../async-action';
import { emit } from '../step-events';
import type { CheckoutApi, FinancingView } from '../checkout-api';
import { stepBaseStyles } from '../step-styles';
import { formatKobo, parseNairaToKobo } from '../format';
import { errorText, LocaleController, t, type MessageKey } from '../i18n/i18n';
import { cleanInput, digits } from '../inputs';
import { identityStyles } from './lc-identity.styles';

type Field = 'fullName' | 'bvn' | 'dateOfBirth' | 'income';

const fieldError = (field: Field) => t(`identity.error.${field}` as MessageKey);

/**
 * Patient financing, identity step: full name (as on the BVN), BVN, date of birth, declared monthly income (typed in
 * naira, sent as integer kobo) and an optional e-mail for the direct-debit provider. The service matches the BVN
 * record, runs the bureau check and decides in the same call.
 *
 * A step of `<lc-checkout>` (it renders and wires it); not meant to be used on its own. Its events stop
 * at `<lc-checkout>`.
 *
 * @summary Patient financing: identity, BVN and income, decided in one call.
 * @fires {CustomEvent<FinancingView>} lc-identity-submitted - the application was decided (approved or rejected); `detail` is the `FinancingView`.
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
export class LcIdentity extends LitElement {
  static override styles = [unsafeCSS(stepBaseStyles), unsafeCSS(identityStyles)];

  static override properties = {
    api: { attribute: false },
    amountKobo: { type: Number, attribute: 'amount-kobo' },
    invalid: { state: true },
  };

  declare api: CheckoutApi;
  declare amountKobo: number;
  declare private invalid: Field[];
  private readonly submit = new AsyncAction<FinancingView>(this);
  private readonly locale = new LocaleController(this);

  constructor() {
    super();
    this.invalid = [];
    this.amountKobo = 0;
  }


  private value(id: string): string {
    return this.renderRoot.querySelector<HTMLInputElement>(`#${id}`)?.value.trim() ?? '';
  }

  private async send(event: Event) {
    event.preventDefault();
    const fullName = this.value('lc-identity-name');
    const bvn = this.value('lc-identity-bvn');
    const dateOfBirth = this.value('lc-identity-dob');
    const income = parseNairaToKobo(this.value('lc-identity-income'));
    const email = this.value('lc-identity-email') || undefined;
    this.invalid = [
      ...(fullName.split(/\s+/).filter(Boolean).length < 2 ? (['fullName'] as const) : []),
      ...(!/^\d{11}$/.test(bvn) ? (['bvn'] as const) : []),
      ...(!/^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth) ? (['dateOfBirth'] as const) : []),
      ...(income === null ? (['income'] as const) : []),
    ];
    if (this.invalid.length > 0) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const result = await this.submit.run((signal) =>
      this.api.submitFinancingIdentity({ fullName, bvn, dateOfBirth, declaredMonthlyIncomeKobo: income!, email }, signal),
    );
    if (result) {
      this.renderRoot.querySelector<HTMLInputElement>('#lc-identity-bvn')!.value = '';
      emit(this, 'lc-identity-submitted', result);
    }
  }

  private field(id: string, name: Field | null, label: string, input: unknown, help?: string) {
    const bad = name !== null && this.invalid.includes(name);
    return html`<div class="lc-field">
      <label part="label" for=${id}>${label}</label>
      ${input}
      ${help ? html`<span id="${id}-help">${help}</span>` : nothing}
      ${bad ? html`<span id="${id}-error" class="lc-error" part="error">${fieldError(name!)}</span>` : nothing}
    </div>`;
  }

  override render() {
    const bad = (name: Field) => (this.invalid.includes(name) ? 'true' : 'false');
    const error = this.submit.status === 'error' ? errorText(this.submit.error!) : '';
    return html`
      <p>${this.amountKobo ? `${t('identity.applying', { amount: formatKobo(this.amountKobo) })} ` : nothing}${t('identity.intro')}</p>
      <form @submit=${this.send} novalidate>
        ${this.field('lc-identity-name', 'fullName', t('identity.fullName'),
          html`<input part="input" id="lc-identity-name" autocomplete="name" maxlength="150" aria-invalid=${bad('fullName')} aria-describedby="lc-identity-name-error" />`)}
        ${this.field('lc-identity-bvn', 'bvn', t('kyc.bvn'),
          html`<input part="input" id="lc-identity-bvn" inputmode="numeric" autocomplete="off" @input=${cleanInput((v) => digits(v, 11))} aria-invalid=${bad('bvn')}
            aria-describedby="lc-identity-bvn-help lc-identity-bvn-error" />`,
          t('kyc.bvnHelp'))}
        ${this.field('lc-identity-dob', 'dateOfBirth', t('identity.dob'),
          html`<input part="input" id="lc-identity-dob" type="date" autocomplete="bday" aria-invalid=${bad('dateOfBirth')} aria-describedby="lc-identity-dob-error" />`)}
        ${this.field('lc-identity-income', 'income', t('identity.income'),
          html`<input part="input" id="lc-identity-income" inputmode="decimal" autocomplete="off" aria-invalid=${bad('income')}
            aria-describedby="lc-identity-income-help lc-identity-income-error" />`,
          t('identity.incomeHelp'))}
        ${this.field('lc-identity-email', null, t('identity.email'), html`<input part="input" id="lc-identity-email" type="email" autocomplete="email" maxlength="150" />`,
          t('identity.emailHelp'))}
        ${error ? html`<p class="lc-error" part="error" role="alert">${error}</p>` : nothing}
        <button part="button primary" type="submit" ?disabled=${this.submit.status === 'pending'}>${this.submit.status === 'pending' ? t('identity.checking') : t('identity.submit')}</button>
      </form>
    `;
  }
}
