import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { AsyncAction } from '../async-action';
import { errorText, LocaleController, t, type MessageKey } from '../i18n/i18n';
import { formatDate, formatKobo, parseNairaToKobo } from '../format';
import { loanReference } from '../../server/shared/loan-reference';
import { SIGNED_OUT_CODES, type Loan, type MyLoanApi, type Payment, type SettlementQuote } from './my-loan-api';
import { statusText } from './my-loan-text';

/**
 * One loan of the signed-in borrower: status, what is left to pay, the next debit, the schedule (paid / due / late),
 * the payments with their receipts, the offer letter (its signed link read fresh on each tap, so it is never a dead
 * link), the lender's contact; **Pay now** (₦100 up to the outstanding, from the direct debit) and **Pay off early**
 * (a quote valid to the end of the Lagos day, paid once). Rendered inside `<lc-my-loan>`, in its light DOM.
 *
 * Money moves once per attempt: each press of "Pay" takes a new Idempotency-Key; a retry after the network failed
 * sends the same key again (the platform answers the first result, never charges twice); a refusal ends the attempt.
 *
 * @fires lc-my-loan-changed - a payment changed the loan (the list re-reads it).
 * @fires lc-my-loan-signed-out - the session ended (expired, revoked): the page asks the borrower to sign in again.
 */
export class LcMyLoanLoan extends LitElement {
  static override properties = {
    api: { attribute: false },
    loanId: { attribute: false },
    payOpen: { state: true },
    amountText: { state: true },
    amountError: { state: true },
    paid: { state: true },
    quote: { state: true },
    settled: { state: true },
  };

  declare api: MyLoanApi;
  declare loanId: string;
  declare private payOpen: boolean;
  declare private amountText: string;
  declare private amountError: string;
  declare private paid: Payment | undefined;
  declare private quote: SettlementQuote | undefined;
  declare private settled: SettlementQuote | undefined;
  private readonly load = new AsyncAction<Loan>(this);
  private readonly pay = new AsyncAction<Payment>(this);
  private readonly quoting = new AsyncAction<SettlementQuote>(this);
  private readonly payoff = new AsyncAction<{ quote: SettlementQuote; loanStatus: string; outstandingKobo: number }>(this);
  private readonly letter = new AsyncAction<Loan>(this);
  private readonly locale = new LocaleController(this);
  /** The Idempotency-Key of the payment attempt in play (kept only while its outcome is unknown: a network failure). */
  private payKey: string | undefined;
  private payoffKey: string | undefined;

  constructor() {
    super();
    this.payOpen = false;
    this.amountText = '';
    this.amountError = '';
  }

  protected override createRenderRoot() {
    return this;
  }

  protected override willUpdate(changed: PropertyValues): void {
    if ((changed.has('loanId') || changed.has('api')) && this.api && this.loanId) void this.reload();
  }

  private async reload() {
    await this.load.run((signal) => this.api.call<Loan>('GET', `/loans/${this.loanId}`, undefined, undefined, signal));
  }

  private changed() {
    this.dispatchEvent(new CustomEvent('lc-my-loan-changed', { bubbles: true, composed: true }));
  }

  private focusOn(selector: string) {
    void this.updateComplete.then(() => this.querySelector<HTMLElement>(selector)?.focus());
  }

  // ── Pay now ──

  private openPay() {
    this.payOpen = true;
    this.paid = undefined;
    this.pay.reset();
    this.focusOn('#lc-pay-amount');
  }

  private async submitPay(event?: Event) {
    event?.preventDefault();
    const loan = this.load.value!;
    const { minKobo, maxKobo } = loan.payments;
    const amountKobo = parseNairaToKobo(this.amountText);
    if (amountKobo === null || amountKobo < minKobo || amountKobo > maxKobo) {
      this.amountError = t('myLoan.pay.amountInvalid', { min: formatKobo(minKobo), max: formatKobo(maxKobo) });
      this.focusOn('#lc-pay-amount');
      return;
    }
    this.amountError = '';
    this.payKey ??= crypto.randomUUID();
    const key = this.payKey;
    const payment = await this.pay.run(() => this.api.call<Payment>('POST', `/loans/${this.loanId}/payments`, { amountKobo }, key));
    // Only a network failure leaves the outcome unknown: its retry sends the same key. Any answer ends the attempt.
    if (payment || this.pay.error?.status !== 0) this.payKey = undefined;
    if (!payment) return this.focusOn('#lc-pay-result');
    this.paid = payment;
    this.payOpen = false;
    this.amountText = '';
    await this.reload();
    this.changed();
    this.focusOn('#lc-pay-result');
  }

  private otherAmount() {
    this.pay.reset();
    this.amountText = '';
    this.focusOn('#lc-pay-amount');
  }

  // ── Pay off early ──

  private async getQuote() {
    this.settled = undefined;
    this.paid = undefined;
    this.payoff.reset();
    this.payoffKey = undefined;
    this.quote = await this.quoting.run(() => this.api.call<SettlementQuote>('POST', `/loans/${this.loanId}/settlement-quotes`, {}));
    this.focusOn('#lc-quote');
  }

  private async payQuote() {
    const quote = this.quote!;
    this.payoffKey ??= crypto.randomUUID();
    const key = this.payoffKey;
    const result = await this.payoff.run(() => this.api.call<{ quote: SettlementQuote; loanStatus: string; outstandingKobo: number }>('POST', `/loans/${this.loanId}/settlement-quotes/${quote.id}/pay`, {}, key));
    if (result || this.payoff.error?.status !== 0) this.payoffKey = undefined;
    if (!result) return this.focusOn('#lc-payoff-result');
    this.settled = result.quote;
    this.quote = undefined;
    await this.reload();
    this.changed();
    this.focusOn('#lc-payoff-result');
  }

  /** The offer letter's signed link expires: read a fresh one on each tap, then open it. */
  private async openLetter() {
    const loan = await this.letter.run((signal) => this.api.call<Loan>('GET', `/loans/${this.loanId}`, undefined, undefined, signal));
    if (loan?.offerLetter) location.assign(loan.offerLetter.url);
  }

  // ── Rendering ──

  /** Any call that finds the session over sends the borrower to sign in again, once. */
  protected override updated(): void {
    const ended = [this.load, this.pay, this.quoting, this.payoff, this.letter].some((action) => action.error && SIGNED_OUT_CODES.includes(action.error.code));
    if (ended) {
      for (const action of [this.load, this.pay, this.quoting, this.payoff, this.letter]) action.reset();
      this.dispatchEvent(new CustomEvent('lc-my-loan-signed-out', { bubbles: true, composed: true }));
    }
  }

  override render() {
    if (this.load.status === 'error' && !this.load.value) {
      return html`<h2 tabindex="-1">${t('checkout.error.title')}</h2><p class="lc-error" role="alert">${errorText(this.load.error!)}</p>
        <div class="lc-actions"><button type="button" @click=${this.reload}>${t('checkout.retry')}</button></div>`;
    }
    const loan = this.load.value;
    if (!loan) return html`<p role="status">${t('myLoan.loading')}</p>`;
    const open = loan.status !== 'completed' && loan.outstandingKobo > 0;
    return html`
      <h2 tabindex="-1">${t('myLoan.loanOf', { amount: formatKobo(loan.principalKobo) })}</h2>
      <p><span class="lc-pill ${loan.status === 'completed' ? 'lc-paid' : loan.inArrears ? 'lc-late' : ''}">${statusText(loan.status)}</span>
        · <span class="lc-ref">${loanReference(loan.id)}</span></p>
      ${this.renderResults()}
      <div class="lc-card">
        ${open
          ? html`<span class="lc-muted">${t('myLoan.outstanding')}</span><span class="lc-amount" id="lc-outstanding">${formatKobo(loan.outstandingKobo)}</span>
              <dl class="lc-facts">
                ${loan.nextDebit
                  ? html`<div><dt>${t('myLoan.nextDebit')}</dt><dd id="lc-next-debit">${t('myLoan.nextDebitValue', { amount: formatKobo(loan.nextDebit.amountKobo), date: formatDate(loan.nextDebit.dueDate) })}</dd></div>`
                  : nothing}
                <div><dt>${t('myLoan.paid')}</dt><dd>${formatKobo(loan.amountPaidKobo)}</dd></div>
              </dl>
              ${loan.nextDebit?.byDirectDebit ? html`<p class="lc-muted lc-gap">${t('myLoan.byDirectDebit')}</p>` : nothing}`
          : html`<p class="lc-success" role="status">${t('myLoan.completed')}</p>
              <dl class="lc-facts"><div><dt>${t('myLoan.paid')}</dt><dd>${formatKobo(loan.amountPaidKobo)}</dd></div></dl>`}
      </div>
      ${open && loan.inArrears ? html`<p class="lc-warning">${t('myLoan.inArrears')}</p>` : nothing}
      ${open ? this.renderPay(loan) : nothing}
      ${open ? this.renderPayoff(loan) : nothing}
      ${this.renderSchedule(loan)}
      ${this.renderRepayments(loan)}
      ${this.renderLender(loan)}
      ${open && customElements.get('lc-change-bank') ? html`<lc-change-bank .api=${this.api} .loan=${loan}></lc-change-bank>` : nothing}
    `;
  }

  private renderResults() {
    const paid = this.paid;
    return html`<div id="lc-pay-result" tabindex="-1">
      ${paid
        ? html`<p class=${paid.status === 'completed' ? 'lc-success' : 'lc-notice'} role="status">
            ${paid.status === 'completed' ? t('myLoan.pay.done', { amount: formatKobo(paid.amountKobo) }) : t('myLoan.pay.pending', { amount: formatKobo(paid.amountKobo) })}
            ${paid.status === 'completed' ? html`<br /><span>${t('myLoan.receipt', { reference: paid.reference })}</span>` : nothing}
          </p>`
        : nothing}
    </div>
    <div id="lc-payoff-result" tabindex="-1">
      ${this.settled
        ? html`<p class=${this.settled.status === 'paid' ? 'lc-success' : 'lc-notice'} role="status">${t(this.settled.status === 'paid' ? 'myLoan.payoff.done' : 'myLoan.payoff.pending')}</p>`
        : nothing}
    </div>`;
  }

  private renderPay(loan: Loan) {
    const { minKobo, maxKobo, directDebitActive } = loan.payments;
    const error = this.pay.status === 'error' ? this.pay.error! : undefined;
    const refused = error?.code === 'payment_refused';
    // Closed, the section is its one primary button; open, the form under its heading.
    return html`<section aria-label=${t('myLoan.pay.title')}>
      ${!directDebitActive || this.payOpen ? html`<h3>${t('myLoan.pay.title')}</h3>` : nothing}
      ${!directDebitActive
        ? html`<p>${t('myLoan.pay.noDebit')}</p>`
        : !this.payOpen
          ? html`<div class="lc-actions"><button type="button" @click=${this.openPay}>${t('myLoan.pay.title')}</button></div>`
          : html`<form @submit=${this.submitPay} novalidate>
              <div class="lc-field">
                <label for="lc-pay-amount">${t('myLoan.pay.amount')}</label>
                <input id="lc-pay-amount" inputmode="decimal" autocomplete="off" .value=${this.amountText}
                  @input=${(e: Event) => ((this.amountText = (e.target as HTMLInputElement).value), (this.amountError = ''))}
                  aria-invalid=${this.amountError ? 'true' : 'false'} aria-describedby=${this.amountError ? 'lc-pay-help lc-pay-error' : 'lc-pay-help'} />
                <span id="lc-pay-help">${t('myLoan.pay.amountHelp', { min: formatKobo(minKobo), max: formatKobo(maxKobo) })} ${t('myLoan.pay.from')}</span>
                ${this.amountError ? html`<span id="lc-pay-error" class="lc-error">${this.amountError}</span>` : nothing}
              </div>
              ${error ? html`<p class="lc-warning" role="alert">${errorText(error)}</p>` : nothing}
              <div class="lc-actions">
                <button type="submit" ?disabled=${this.pay.status === 'pending'}>
                  ${this.pay.status === 'pending' ? t('myLoan.pay.paying') : error ? t('myLoan.pay.tryAgain') : t('myLoan.pay.submit')}
                </button>
                ${refused || error?.code === 'payment_amount_out_of_range'
                  ? html`<button type="button" class="lc-secondary" @click=${this.otherAmount}>${t('myLoan.pay.otherAmount')}</button>`
                  : nothing}
              </div>
            </form>`}
    </section>`;
  }

  private renderPayoff(loan: Loan) {
    const quote = this.quote;
    const quoteError = this.quoting.status === 'error' ? this.quoting.error! : undefined;
    const payError = this.payoff.status === 'error' ? this.payoff.error! : undefined;
    const needsNew = payError && ['settlement_quote_expired', 'settlement_quote_stale'].includes(payError.code);
    return html`<section aria-labelledby="lc-payoff-title">
      <h3 id="lc-payoff-title">${t('myLoan.payoff.title')}</h3>
      ${!quote
        ? html`<p>${t('myLoan.payoff.intro')}</p>
            ${quoteError ? html`<p class="lc-error" role="alert">${errorText(quoteError)}</p>` : nothing}
            <div class="lc-actions"><button type="button" class="lc-secondary" @click=${this.getQuote} ?disabled=${this.quoting.status === 'pending'}>
              ${this.quoting.status === 'pending' ? t('myLoan.payoff.quoting') : t('myLoan.payoff.quote')}</button></div>`
        : html`<div class="lc-card" id="lc-quote" tabindex="-1">
            <span class="lc-muted">${t('myLoan.payoff.total')}</span><span class="lc-amount">${formatKobo(quote.totalKobo)}</span>
            <p class="lc-muted lc-gap">${t('myLoan.payoff.validUntil', { date: formatDate(quote.validUntil) })}</p>
            ${quote.waivedKobo > 0 ? html`<p>${t('myLoan.payoff.saved', { amount: formatKobo(quote.waivedKobo) })}</p>` : nothing}
            ${quote.settlementFeeKobo > 0 ? html`<p>${t('myLoan.payoff.fee', { amount: formatKobo(quote.settlementFeeKobo) })}</p>` : nothing}
            <p class="lc-muted">${t('myLoan.pay.from')}</p>
            ${payError ? html`<p class="lc-warning" role="alert">${errorText(payError)}</p>` : nothing}
            <div class="lc-actions">
              ${needsNew
                ? html`<button type="button" @click=${this.getQuote}>${t('myLoan.payoff.newQuote')}</button>`
                : html`<button type="button" @click=${this.payQuote} ?disabled=${this.payoff.status === 'pending' || !loan.payments.directDebitActive}>
                    ${this.payoff.status === 'pending' ? t('myLoan.pay.paying') : payError ? t('myLoan.pay.tryAgain') : t('myLoan.payoff.pay')}</button>`}
            </div>
          </div>`}
    </section>`;
  }

  private renderSchedule(loan: Loan) {
    if (!loan.schedule.length) return nothing;
    return html`<section aria-labelledby="lc-schedule-title">
      <h3 id="lc-schedule-title">${t('myLoan.schedule')}</h3>
      <ol class="lc-list">
        ${loan.schedule.map(
          (item) => html`<li>
            <span><strong>${t('myLoan.instalment', { n: item.installmentNumber })}</strong><span class="lc-muted">${formatDate(item.dueDate)}</span>
              ${item.state !== 'paid' && item.amountPaidKobo > 0 ? html`<span class="lc-muted">${t('myLoan.outstanding')}: ${formatKobo(item.remainingKobo)}</span>` : nothing}</span>
            <span>${formatKobo(item.totalKobo)} <span class="lc-pill lc-${item.state}">${t(`myLoan.state.${item.state}` as MessageKey)}</span></span>
          </li>`,
        )}
      </ol>
    </section>`;
  }

  private renderRepayments(loan: Loan) {
    const status = (s: string) => (['completed', 'pending', 'failed'].includes(s) ? t(`myLoan.repayment.${s}` as MessageKey) : s);
    return html`<section aria-labelledby="lc-repayments-title">
      <h3 id="lc-repayments-title">${t('myLoan.repayments')}</h3>
      ${loan.repayments.length
        ? html`<ul class="lc-list" id="lc-repayments">
            ${loan.repayments.map(
              (r) => html`<li>
                <span><strong>${formatKobo(r.amountKobo)}</strong><span class="lc-muted">${formatDate(r.completedAt ?? r.createdAt)} · ${status(r.status)}</span></span>
                ${r.status === 'completed' ? html`<span class="lc-ref">${t('myLoan.receipt', { reference: r.reference })}</span>` : nothing}
              </li>`,
            )}
          </ul>`
        : html`<p>${t('myLoan.repayments.none')}</p>`}
    </section>`;
  }

  private renderLender(loan: Loan) {
    const lender = loan.lender;
    return html`<section aria-labelledby="lc-lender-title">
      <h3 id="lc-lender-title">${t('myLoan.lender')}</h3>
      <div class="lc-contact">
        <strong>${lender.name}</strong>
        ${lender.phone ? html`<a href="tel:${lender.phone.replace(/[^\d+]/g, '')}">${lender.phone}</a>` : nothing}
        ${lender.email ? html`<a href="mailto:${lender.email}">${lender.email}</a>` : nothing}
        ${lender.url ? html`<a href=${lender.url} target="_blank" rel="noopener">${lender.url}</a>` : nothing}
      </div>
      ${loan.offerLetter
        ? html`<p class="lc-gap"><button type="button" class="lc-link" @click=${this.openLetter} ?disabled=${this.letter.status === 'pending'}>
            ${this.letter.status === 'pending' ? t('myLoan.opening') : t('myLoan.offerLetter')}</button></p>
            ${this.letter.status === 'error' ? html`<p class="lc-error" role="alert">${errorText(this.letter.error!)}</p>` : nothing}`
        : nothing}
    </section>`;
  }
}
