import { html, LitElement, nothing, unsafeCSS } from 'lit';
import { isValidNuban } from '../../server/platform/domain/payouts/nuban';
import { AsyncAction } from '../async-action';
import type { Bank, BankAccount, CheckoutApi } from '../checkout-api';
import { stepBaseStyles } from '../step-styles';
import { errorText, LocaleController, t } from '../i18n/i18n';
import { bankStyles } from './lc-bank.styles';

/**
 * Bank capture: the bank from the CBN list, the 10-digit account number checked with the NUBAN
 * check digit as it is typed (the same pure function the platform uses), the account name looked
 * up and shown for confirmation, then kept for the mandate. Fires `lc-bank-captured`.
 */
export class LcBank extends LitElement {
  static override styles = [unsafeCSS(stepBaseStyles), unsafeCSS(bankStyles)];

  static override properties = {
    api: { attribute: false },
    bankCode: { state: true },
    accountNumber: { state: true },
  };

  declare api: CheckoutApi;
  declare private bankCode: string;
  declare private accountNumber: string;
  private readonly list = new AsyncAction<Bank[]>(this);
  private readonly lookup = new AsyncAction<BankAccount>(this);
  private readonly save = new AsyncAction<BankAccount>(this);
  private readonly locale = new LocaleController(this);

  constructor() {
    super();
    this.bankCode = '';
    this.accountNumber = '';
  }


  override connectedCallback(): void {
    super.connectedCallback();
    void this.list.run((signal) => this.api.banks(signal));
  }

  private get nubanProblem(): string {
    if (this.accountNumber.length < 10 || !this.bankCode) return '';
    return isValidNuban(this.bankCode, this.accountNumber) ? '' : t('bank.mismatch');
  }

  private changed() {
    this.lookup.reset();
    if (this.bankCode && this.accountNumber.length === 10 && !this.nubanProblem) {
      const account = { bankCode: this.bankCode, accountNumber: this.accountNumber };
      void this.lookup.run((signal) => this.api.resolveBankAccount(account, signal));
    }
  }

  private onBank(event: Event) {
    this.bankCode = (event.target as HTMLSelectElement).value;
    this.changed();
  }

  private onNumber(event: Event) {
    this.accountNumber = (event.target as HTMLInputElement).value.replace(/\D/g, '').slice(0, 10);
    this.changed();
  }

  private async confirm() {
    const account = { bankCode: this.bankCode, accountNumber: this.accountNumber };
    const saved = await this.save.run((signal) => this.api.saveBankAccount(account, signal));
    if (saved) this.dispatchEvent(new CustomEvent('lc-bank-captured', { bubbles: true, composed: true }));
  }

  override render() {
    if (this.list.status === 'error') {
      return html`<p class="lc-error" part="error" role="alert">${errorText(this.list.error!)}</p>
        <button part="button primary" type="button" @click=${() => this.list.run((signal) => this.api.banks(signal))}>${t('checkout.retry')}</button>`;
    }
    const problem = this.nubanProblem || (this.lookup.status === 'error' ? errorText(this.lookup.error!) : '');
    const found = this.lookup.status === 'done' ? this.lookup.value : undefined;
    return html`
      <p>${t('bank.intro')}</p>
      <div class="lc-field">
        <label part="label" for="lc-bank-code">${t('bank.bank')}</label>
        <select part="input" id="lc-bank-code" @change=${this.onBank} ?disabled=${!this.list.value}>
          <option value="" ?selected=${!this.bankCode}>${this.list.value ? t('bank.choose') : t('bank.loading')}</option>
          ${(this.list.value ?? []).map((bank) => html`<option value=${bank.code} ?selected=${bank.code === this.bankCode}>${bank.name}</option>`)}
        </select>
      </div>
      <div class="lc-field">
        <label part="label" for="lc-bank-number">${t('bank.number')}</label>
        <input part="input" id="lc-bank-number" inputmode="numeric" autocomplete="off" maxlength="10" .value=${this.accountNumber} @input=${this.onNumber}
          aria-invalid=${problem ? 'true' : 'false'} aria-describedby="lc-bank-help${problem ? ' lc-bank-error' : ''}" />
        <span id="lc-bank-help">${t('bank.numberHelp')}</span>
        ${problem ? html`<span id="lc-bank-error" class="lc-error" part="error" role="alert">${problem}</span>` : nothing}
      </div>
      ${this.lookup.status === 'pending' ? html`<p role="status">${t('bank.lookingUp')}</p>` : nothing}
      ${found
        ? html`<div class="lc-confirm" role="status">
              <p>${t('bank.accountName')} <strong>${found.accountName}</strong></p>
              <p>${found.bankName}, ${found.accountNumber}</p>
            </div>
            ${this.save.status === 'error' ? html`<p class="lc-error" part="error" role="alert">${errorText(this.save.error!)}</p>` : nothing}
            <button part="button primary" type="button" @click=${this.confirm} ?disabled=${this.save.status === 'pending'}>
              ${this.save.status === 'pending' ? t('bank.saving') : t('bank.confirm')}
            </button>`
        : nothing}
    `;
  }
}
