import { html, LitElement, nothing, unsafeCSS, type PropertyValues } from 'lit';
import { AsyncAction } from '../async-action';
import { CheckoutApiError, type Bank, type BankAccount, type CheckoutApi } from '../checkout-api';
import { stepBaseStyles } from '../step-styles';
import { addEnglish, errorText, LocaleController, t, type MessageKey } from '../i18n/i18n';
import { enChangeBank } from '../i18n/change-bank';
import '../lc-bank/lc-bank';

addEnglish(enChangeBank);

/** What this element needs of the loan page's API client (`my-loan-api.ts`): a call to `/v1/borrower{path}`. */
export interface BorrowerApi {
  call<T>(method: 'GET' | 'POST', path: string, body?: object, idempotencyKey?: string, signal?: AbortSignal): Promise<T>;
}

/** `GET /v1/borrower/loans/{id}`'s `mandate` and `mandateReplacement` (the `BorrowerMandate` and `MandateReplacement` schemas). */
export interface DebitMandate {
  id: string;
  status: string;
  bankName: string | null;
  accountNumberLast4: string | null;
}
export interface MandateReplacement {
  id: string;
  status: 'pending' | 'active' | 'failed' | 'cancelled';
  stage: 'awaiting_authorisation' | 'awaiting_charge' | null;
  authorizationUrl: string | null;
  bankName: string;
  accountNumberLast4: string;
  failureReason: string | null;
  createdAt: string;
}
export interface LoanWithDebit {
  id: string;
  mandate?: DebitMandate | null;
  mandateReplacement?: MandateReplacement | null;
}

/** The query the rail's return carries (`bindReturnToLoan` and the replacement's id; the rail adds `reference` and `status`). */
const RETURN_PARAMS = ['loan', 'replacement', 'reference', 'status', 'trxref'];
/** After the bank's page: read back at once, then a few times more while the rail confirms (a few seconds). */
const CONFIRM_DELAYS_MS = [0, 1500, 2500, 4000];
const ENDED: Record<string, MessageKey> = { mandate_declined: 'changeBank.declined', mandate_failed: 'changeBank.failed', mandate_expired: 'changeBank.expired' };
const FAILED: Record<string, MessageKey> = { declined: 'changeBank.declined', expired: 'changeBank.expired' };

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/**
 * "Change my bank account" on the borrower's loan page: shows the account the loan is debited from (bank and the last
 * four digits) and lets the borrower move the direct debit to another account of theirs. The account is taken with the
 * checkout's own bank step (`<lc-bank>`: the bank list, the number checked as typed, the name looked up and compared
 * with theirs; an account in another name is refused here), then the borrower approves the new direct debit on their
 * bank's page and comes back to the loan page, where this element reads it back (`…/activate`). Until the new one is
 * active the old one keeps collecting; a refusal at the bank changes nothing and "Try again" starts over.
 *
 * @summary The debit account of one loan, and the way to change it.
 * @fires lc-my-loan-changed - the loan's debit account changed (the page re-reads the loan).
 * @csspart button - every button
 * @csspart primary - the main action
 * @csspart error - error messages
 * @cssprop --lc-primary - the brand colour of the main action
 * @cssprop --lc-link - links and secondary actions
 */
export class LcChangeBank extends LitElement {
  static override styles = [
    unsafeCSS(stepBaseStyles),
    unsafeCSS(`
      :host { margin-block: var(--lc-s5, 1.5rem); padding: var(--lc-s4, 1rem); border: 1px solid var(--lc-subtle, #e5e7eb); border-radius: var(--lc-radius, 0.5rem); overflow-wrap: anywhere; }
      h3 { font-size: var(--lc-t-lg, 1.125rem); font-weight: 600; line-height: 1.25; margin: 0 0 var(--lc-s3, 0.75rem); }
      h3:focus { outline: none; }
      .lc-note { padding: var(--lc-s3, 0.75rem); border-radius: var(--lc-radius, 0.5rem); background: var(--lc-notice-bg, #eff6ff); }
      .lc-done { padding: var(--lc-s3, 0.75rem); border-radius: var(--lc-radius, 0.5rem); background: #ecfdf5; color: #065f46; }
      .lc-failed { padding: var(--lc-s3, 0.75rem); border-radius: var(--lc-radius, 0.5rem); background: #fef2f2; color: #991b1b; }
      a.lc-go { display: flex; align-items: center; justify-content: center; box-sizing: border-box; min-height: var(--lc-control, 3rem); padding: var(--lc-s2, 0.5rem) var(--lc-s5, 1.5rem);
        border-radius: var(--lc-radius, 0.5rem); background: var(--lc-primary, #1d4ed8); color: var(--lc-on-primary, #fff); font-weight: 600; text-decoration: none; text-align: center; }
    `),
  ];

  static override properties = {
    api: { attribute: false },
    loan: { attribute: false },
    editing: { state: true },
    replacement: { state: true },
  };

  declare api: BorrowerApi;
  declare loan: LoanWithDebit;
  /** The bank step is open. */
  declare private editing: boolean;
  /** The change in play (or the last one), from the loan or from this element's own calls. */
  declare private replacement: MandateReplacement | undefined;
  private readonly confirm = new AsyncAction<MandateReplacement>(this);
  private readonly locale = new LocaleController(this);
  /** One Idempotency-Key per change the borrower starts (a retry of the same request replays it). */
  private startKey = '';
  private returned = false;

  constructor() {
    super();
    this.editing = false;
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('loan') && this.loan) {
      const fromLoan = this.loan.mandateReplacement ?? undefined;
      if (fromLoan && (!this.replacement || fromLoan.createdAt >= this.replacement.createdAt)) this.replacement = fromLoan;
    }
  }

  protected override updated(): void {
    if (this.returned || !this.loan || !this.api) return;
    this.returned = true;
    // Back from the bank's page for this loan's change: read it back now (the address says which one).
    const query = new URLSearchParams(location.search);
    const id = query.get('replacement');
    if (id && query.get('loan') === this.loan.id && this.replacement?.id === id) {
      const url = new URL(location.href);
      for (const name of RETURN_PARAMS) url.searchParams.delete(name);
      history.replaceState(history.state, '', url.pathname + url.search + url.hash);
      if (this.replacement.status === 'pending') void this.check(true);
    }
  }

  /** Reads the change back from the bank (several times at first, while the bank confirms). */
  private async check(patiently: boolean) {
    const id = this.replacement!.id;
    const read = await this.confirm.run(async (signal) => {
      let answer: MandateReplacement | undefined;
      for (const delay of patiently ? CONFIRM_DELAYS_MS : [0]) {
        if (delay) await wait(delay, signal);
        answer = await this.api.call<MandateReplacement>('POST', `/loans/${this.loan.id}/mandate-replacements/${id}/activate`, {}, undefined, signal);
        if (answer.status !== 'pending' || answer.stage === 'awaiting_charge') break;
      }
      return answer!;
    });
    if (read) {
      this.replacement = read;
      if (read.status === 'active') this.dispatchEvent(new CustomEvent('lc-my-loan-changed', { bubbles: true, composed: true }));
    }
    this.focusOn('#lc-change-bank-result');
  }

  private focusOn(selector: string) {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(selector)?.focus());
  }

  private open() {
    this.editing = true;
    this.startKey = crypto.randomUUID();
    this.confirm.reset();
    this.focusOn('#lc-change-bank-title');
  }

  private close() {
    this.editing = false;
    this.focusOn('#lc-change-bank-change');
  }

  /** The checkout's bank step, speaking to the borrower routes: the loan page's look-up, and "This is my account" starts the change. */
  private get bankApi(): CheckoutApi {
    const loanPath = `/loans/${this.loan.id}`;
    const api = {
      banks: (signal?: AbortSignal) => this.api.call<Bank[]>('GET', '/banks', undefined, undefined, signal),
      resolveBankAccount: async (account: { bankCode: string; accountNumber: string }, signal?: AbortSignal) => {
        const found = await this.api.call<BankAccount>('POST', `${loanPath}/bank-account/resolve`, account, undefined, signal);
        // No confirming an account in another name after lending: the server refuses it, so it is not offered.
        if (found.nameMatch.status === 'mismatch') throw new CheckoutApiError(409, 'account_not_yours', 'The account is in another name.');
        return found;
      },
      saveBankAccount: async (account: { bankCode: string; accountNumber: string }, signal?: AbortSignal) => {
        const returnUrl = `${location.origin}${location.pathname}#loan-${this.loan.id}`;
        const started = await this.api.call<MandateReplacement>('POST', `${loanPath}/mandate-replacements`, { bankCode: account.bankCode, accountNumber: account.accountNumber, returnUrl }, this.startKey, signal);
        this.replacement = started;
        return account;
      },
    };
    return api as unknown as CheckoutApi;
  }

  private captured(event: Event) {
    event.stopPropagation();
    this.editing = false;
    this.focusOn('#lc-change-bank-result');
  }

  override render() {
    if (!this.loan) return nothing;
    const mandate = this.loan.mandate;
    const current = mandate?.bankName && mandate.accountNumberLast4 ? t('changeBank.current', { bank: mandate.bankName, last4: mandate.accountNumberLast4 }) : t('changeBank.currentUnknown');
    return html`<h3 id="lc-change-bank-title" tabindex="-1">${t('changeBank.title')}</h3>
      <p id="lc-change-bank-current">${current}</p>
      ${this.editing
        ? html`<p>${t('changeBank.intro')}</p>
            <lc-bank .api=${this.bankApi} @lc-bank-captured=${this.captured}></lc-bank>
            <div class="lc-actions"><button part="button" class="lc-secondary" type="button" @click=${this.close}>${t('changeBank.keep')}</button></div>`
        : html`<div id="lc-change-bank-result" tabindex="-1">${this.renderReplacement()}</div>`}`;
  }

  private renderReplacement() {
    const change = this.replacement;
    const again = (label: MessageKey) =>
      html`<div class="lc-actions"><button id="lc-change-bank-change" part="button primary" type="button" @click=${this.open}>${t(label)}</button></div>`;
    if (this.confirm.status === 'pending') return html`<p class="lc-note" role="status">${t('changeBank.confirming')}</p>`;
    if (this.confirm.status === 'error') {
      const error = this.confirm.error!;
      const ended = ENDED[error.code];
      return ended
        ? html`<p class="lc-failed" role="alert">${t(ended)}</p>${again('changeBank.tryAgain')}`
        : html`<p class="lc-error" part="error" role="alert">${errorText(error)}</p>
            <div class="lc-actions"><button part="button primary" type="button" @click=${() => this.check(false)}>${t('changeBank.checkAgain')}</button></div>`;
    }
    if (!change || change.status === 'cancelled') return again('changeBank.change');
    const account = { bank: change.bankName, last4: change.accountNumberLast4 };
    if (change.status === 'active') {
      // Just done here: say so; an older change is simply the current account above.
      return this.confirm.status === 'done' ? html`<p class="lc-done" role="status">${t('changeBank.done', account)}</p>${again('changeBank.change')}` : again('changeBank.change');
    }
    if (change.status === 'failed') return html`<p class="lc-failed" role="alert">${t(FAILED[change.failureReason ?? ''] ?? 'changeBank.failed')}</p>${again('changeBank.tryAgain')}`;
    if (change.stage === 'awaiting_charge') return html`<p class="lc-note" role="status">${t('changeBank.awaitingCharge', account)}</p>`;
    const checkedNotYet = this.confirm.status === 'done';
    return html`<p class="lc-note" role="status">${t(checkedNotYet ? 'changeBank.notYet' : 'changeBank.waiting', account)}</p>
      ${checkedNotYet ? html`<p>${t('changeBank.waiting', account)}</p>` : nothing}
      <div class="lc-actions">
        ${change.authorizationUrl ? html`<a class="lc-go" part="button primary" href=${change.authorizationUrl}>${t('changeBank.continue')}</a>` : nothing}
        <button part="button" class="lc-secondary" type="button" @click=${() => this.check(false)}>${t('changeBank.checkAgain')}</button>
        <button id="lc-change-bank-change" part="button" class="lc-secondary" type="button" @click=${this.open}>${t('changeBank.change')}</button>
      </div>`;
  }
}
