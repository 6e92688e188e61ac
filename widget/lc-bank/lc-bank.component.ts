import { html, LitElement, nothing, unsafeCSS } from 'lit';
import { isValidNuban } from '../../server/shared/nuban';
import { AsyncAction } from '../async-action';
import { emit } from '../step-events';
import type { Bank, BankAccount, CheckoutApi } from '../checkout-api';
import { stepBaseStyles } from '../step-styles';
import { errorText, LocaleController, t } from '../i18n/i18n';
import { cleanInput, digits } from '../inputs';
import { bankStyles } from './lc-bank.styles';

/** Lower case, letters and digits only: "G.T. Bank" and "gtbank" search alike. */
const plain = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Bank capture: the bank from a searchable list (an ARIA 1.2 combobox: type "opay" or "moni", arrow
 * keys, Enter, Escape), the 10-digit account number (pasted with spaces or dashes is fine) checked
 * with the NUBAN check digit as it is typed (the same pure function the platform uses), the account
 * name looked up and compared with the borrower's name, then kept for the mandate. An account in
 * another name gets a clear warning: use another account, or confirm it is the borrower's own.
 *
 * A step of `<lc-checkout>` (it renders and wires it); not meant to be used on its own. Its events stop
 * at `<lc-checkout>`.
 *
 * @summary Bank capture: the bank from a searchable list, the account number checked as typed, the name looked up.
 * @fires lc-bank-captured - the account was kept for the mandate step (the public `lc-bank-captured` on `<lc-checkout>`).
 * @csspart button - every button (with `primary` or `secondary`)
 * @csspart primary - the step's main action (a button, full width)
 * @csspart error - error messages
 * @csspart input - text inputs and selects
 * @csspart label - field labels
 * @csspart warning - the box that says the account is in another name.
 * @cssprop --lc-primary - the brand colour of the main action (`theme.brandColor`)
 * @cssprop --lc-on-primary - text on the brand colour (white, ink or black: whichever reaches 4.5:1)
 * @cssprop --lc-link - links and secondary actions (the brand colour darkened to 4.5:1 on white)
 * @cssprop --lc-radius - corner radius of controls (`theme.radius`)
 * @cssprop --lc-danger - errors
 * @cssprop --lc-focus - the focus ring
 */
export class LcBank extends LitElement {
  static override styles = [unsafeCSS(stepBaseStyles), unsafeCSS(bankStyles)];

  static override properties = {
    api: { attribute: false },
    bank: { state: true },
    query: { state: true },
    open: { state: true },
    active: { state: true },
    accountNumber: { state: true },
  };

  declare api: CheckoutApi;
  /** The bank chosen from the list (typing again un-chooses it). */
  declare private bank: Bank | undefined;
  declare private query: string;
  declare private open: boolean;
  /** Index of the highlighted option in the filtered list. */
  declare private active: number;
  declare private accountNumber: string;
  private readonly list = new AsyncAction<Bank[]>(this);
  private readonly lookup = new AsyncAction<BankAccount>(this);
  private readonly save = new AsyncAction<BankAccount>(this);
  private readonly locale = new LocaleController(this);

  constructor() {
    super();
    this.query = '';
    this.open = false;
    this.active = 0;
    this.accountNumber = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.list.run((signal) => this.api.banks(signal));
  }

  /** Banks whose name or other names contain what was typed; those that start with it first. */
  private get filtered(): Bank[] {
    const q = plain(this.query);
    const banks = this.list.value ?? [];
    if (!q || this.bank) return banks;
    const names = (b: Bank) => [b.name, ...b.aliases].map(plain);
    const hits = banks.filter((b) => names(b).some((n) => n.includes(q)));
    return [...hits.filter((b) => names(b).some((n) => n.startsWith(q))), ...hits.filter((b) => !names(b).some((n) => n.startsWith(q)))];
  }

  private get nubanProblem(): string {
    const code = this.bank?.nubanCode;
    if (this.accountNumber.length < 10 || !code) return '';
    return isValidNuban(code, this.accountNumber) ? '' : t('bank.mismatch');
  }

  private changed() {
    this.lookup.reset();
    this.save.reset();
    if (this.bank && this.accountNumber.length === 10 && !this.nubanProblem) {
      const account = { bankCode: this.bank.code, accountNumber: this.accountNumber };
      void this.lookup.run((signal) => this.api.resolveBankAccount(account, signal));
    }
  }

  private choose(bank: Bank) {
    this.bank = bank;
    this.query = bank.name;
    this.open = false;
    this.changed();
  }

  private search(query: string, open: boolean) {
    this.query = query;
    this.bank = undefined;
    this.open = open;
    this.active = 0;
    this.changed();
  }

  private onKey(event: KeyboardEvent) {
    const count = this.filtered.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!this.open) this.open = true;
      else if (count) this.active = (this.active + (event.key === 'ArrowDown' ? 1 : count - 1)) % count;
    } else if (event.key === 'Enter' && this.open && count) {
      event.preventDefault();
      this.choose(this.filtered[this.active]!);
    } else if (event.key === 'Escape') {
      if (this.open) this.open = false;
      else this.search('', false);
    }
  }

  /** Leaving the field closes the list; what was typed names the bank when only one matches ("opay", then Tab). */
  private blurred() {
    this.open = false;
    const only = this.query && !this.bank && this.filtered;
    if (only && only.length === 1) this.choose(only[0]!);
  }

  override updated(): void {
    this.renderRoot.querySelector('[aria-selected="true"]')?.scrollIntoView?.({ block: 'nearest' });
  }

  /** The account is someone else's: clear the number and let the borrower give another. */
  private async another() {
    this.accountNumber = '';
    this.changed();
    await this.updateComplete;
    const input = this.renderRoot.querySelector<HTMLInputElement>('#lc-bank-number')!;
    input.value = '';
    input.focus();
  }

  private async confirm(confirmNameMismatch?: boolean) {
    const account = { bankCode: this.bank!.code, accountNumber: this.accountNumber, confirmNameMismatch };
    const saved = await this.save.run((signal) => this.api.saveBankAccount(account, signal));
    if (saved) emit(this, 'lc-bank-captured');
  }

  override render() {
    if (this.list.status === 'error') {
      return html`<p class="lc-error" part="error" role="alert">${errorText(this.list.error!)}</p>
        <button part="button primary" type="button" @click=${() => this.list.run((signal) => this.api.banks(signal))}>${t('checkout.retry')}</button>`;
    }
    const problem = this.nubanProblem || (this.lookup.status === 'error' ? errorText(this.lookup.error!) : '');
    const found = this.lookup.status === 'done' ? this.lookup.value : undefined;
    const matches = this.open ? this.filtered : [];
    const expanded = matches.length > 0;
    const saving = this.save.status === 'pending';
    return html`
      <p>${t('bank.intro')}</p>
      <div class="lc-field lc-combo">
        <label part="label" for="lc-bank-code">${t('bank.bank')}</label>
        <input part="input" id="lc-bank-code" role="combobox" aria-autocomplete="list" aria-controls="lc-bank-list" aria-expanded=${expanded ? 'true' : 'false'}
          aria-activedescendant=${expanded ? `lc-bank-${matches[this.active]!.code}` : nothing} aria-describedby="lc-bank-code-help" autocomplete="off" spellcheck="false"
          .value=${this.query} ?disabled=${!this.list.value} placeholder=${this.list.value ? '' : t('bank.loading')}
          @input=${(e: Event) => this.search((e.target as HTMLInputElement).value, true)} @keydown=${this.onKey} @click=${() => (this.open = !this.open)} @blur=${this.blurred} />
        <span id="lc-bank-code-help">${t('bank.choose')}</span>
        <ul id="lc-bank-list" role="listbox" aria-label=${t('bank.bank')} ?hidden=${!expanded}>
          ${matches.map(
            (bank, i) => html`<li id="lc-bank-${bank.code}" role="option" aria-selected=${i === this.active ? 'true' : 'false'}
              @mousedown=${(e: Event) => e.preventDefault()} @click=${() => this.choose(bank)}>${bank.name}</li>`,
          )}
        </ul>
        ${this.open && !expanded && this.list.value ? html`<span role="status">${t('bank.noMatch')}</span>` : nothing}
      </div>
      <div class="lc-field">
        <label part="label" for="lc-bank-number">${t('bank.number')}</label>
        <input part="input" id="lc-bank-number" inputmode="numeric" autocomplete="off" @input=${cleanInput((v) => digits(v, 10), (v) => ((this.accountNumber = v), this.changed()))}
          aria-invalid=${problem ? 'true' : 'false'} aria-describedby="lc-bank-help${problem ? ' lc-bank-error' : ''}" />
        <span id="lc-bank-help">${t('bank.numberHelp')}</span>
        ${problem ? html`<span id="lc-bank-error" class="lc-error" part="error" role="alert">${problem}</span>` : nothing}
      </div>
      ${this.lookup.status === 'pending' ? html`<p role="status">${t('bank.lookingUp')}</p>` : nothing}
      ${found ? this.renderFound(found, saving) : nothing}
    `;
  }

  private renderFound(found: BankAccount, saving: boolean) {
    const error = this.save.status === 'error' ? html`<p class="lc-error" part="error" role="alert">${errorText(this.save.error!)}</p>` : nothing;
    const confirm = (label: string, mismatch?: boolean, secondary?: boolean) =>
      html`<button part=${secondary ? 'button secondary' : 'button primary'} class=${secondary ? 'lc-secondary' : ''} type="button" @click=${() => this.confirm(mismatch)} ?disabled=${saving}>
        ${saving ? t('bank.saving') : label}
      </button>`;
    if (found.nameMatch.status === 'mismatch') {
      return html`<div class="lc-confirm lc-warning" part="warning" role="alert">
          <p>${t('bank.nameMismatch', { accountName: found.accountName, name: found.nameMatch.nameOnRecord })}</p>
          <p>${found.bankName}, ${found.accountNumber}</p>
        </div>
        ${error}
        <div class="lc-actions">
          <button part="button primary" type="button" @click=${this.another}>${t('bank.useAnother')}</button>
          ${confirm(t('bank.confirmMismatch'), true, true)}
        </div>`;
    }
    return html`<div class="lc-confirm" role="status">
        <p>${t('bank.accountName')} <strong>${found.accountName}</strong></p>
        <p>${found.bankName}, ${found.accountNumber}</p>
      </div>
      ${error}
      ${confirm(t('bank.confirm'))}`;
  }
}
