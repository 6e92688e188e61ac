import { html, LitElement, nothing } from 'lit';
import { AsyncAction } from '../async-action';
import { adoptDocumentStyles } from '../document-styles';
import { addEnglish, currentLocale, errorText, LOCALE_NAMES, LOCALES, LocaleController, setLocale, t } from '../i18n/i18n';
import { enMyLoan } from '../i18n/en-my-loan';
import { applyTheme, type CheckoutTheme } from '../theme';
import { formatDate, formatKobo } from '../format';
import { cleanInput, phoneNumber } from '../inputs';
import type { OtpChallenge } from '../checkout-api';
import '../lc-otp/lc-otp';
import { MyLoanApi, SIGNED_OUT_CODES, type LoanSummary, type SignedInLender } from './my-loan-api';
import { myLoanStyles } from './my-loan.styles';
import { statusText } from './my-loan-text';

addEnglish(enMyLoan as never);

const svg = (d: string) => html`<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d=${d} /></svg>`;
const GLOBE = svg('M2 12a10 10 0 1 0 20 0a10 10 0 1 0-20 0h20M12 2c-5 6-5 14 0 20c5-6 5-14 0-20');

/** The checkout's remembered language pick: one choice for the borrower across the checkout and this page. */
const LOCALE_KEY = 'lc-checkout.locale';
const storedLocale = (pick?: string) => {
  try {
    if (pick) localStorage.setItem(LOCALE_KEY, pick);
    return localStorage.getItem(LOCALE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
};

/** What the server saw (`state` attribute, server/checkout/my-loan/my-loan-page.ts). */
type PageState = 'ready' | 'signed-out' | 'unknown' | 'not-found';

/** The loan open in the address (`#loan-<id>`), so Back returns to the list and a reload keeps the loan. */
const loanInHash = () => /^#loan-([0-9a-f-]{36})$/.exec(location.hash)?.[1];


/**
 * The code in play for this tab (the phone and its challenge), so a reload shows the box for the code the borrower has
 * just been sent instead of asking for another (which the cool-down would refuse). sessionStorage: this tab only, gone
 * when it closes; storage that is blocked (a sandboxed frame) just means no memory.
 */
const CODE_KEY = 'lc-my-loan.code';
function rememberCode(entry: { phone: string; mode: string; challenge: OtpChallenge } | null): void {
  try {
    if (entry) sessionStorage.setItem(CODE_KEY, JSON.stringify(entry));
    else sessionStorage.removeItem(CODE_KEY);
  } catch {
    // No storage: nothing to remember.
  }
}
function rememberedCode(mode: string): { phone: string; challenge: OtpChallenge } | null {
  try {
    const entry = JSON.parse(sessionStorage.getItem(CODE_KEY) ?? 'null') as { phone?: string; mode?: string; challenge?: OtpChallenge } | null;
    if (!entry?.phone || entry.mode !== mode || !entry.challenge || Date.parse(entry.challenge.expiresAt) <= Date.now()) return null;
    return { phone: entry.phone, challenge: entry.challenge };
  } catch {
    return null;
  }
}

/**
 * The borrower's own loan page (`/my-loan`): sign in with the phone and a texted code (the checkout's `<lc-otp>`),
 * the loans per lender, one loan (`<lc-my-loan-loan>`: what is owed, pay now, pay off early), sign out. The session
 * tokens stay in the checkout server's HttpOnly cookie; this element only ever sees session handles.
 *
 * @summary The borrower's loans after checkout.
 */
export class LcMyLoan extends LitElement {
  static override properties = {
    apiBase: { attribute: 'api' },
    localesBase: { attribute: 'locales' },
    home: { attribute: 'home' },
    mode: { attribute: 'mode' },
    pageState: { attribute: 'state' },
    theme: { type: Object },
    phone: { state: true },
    phoneError: { state: true },
    challenge: { state: true },
    notice: { state: true },
    loanId: { state: true },
  };

  declare apiBase: string;
  declare localesBase: string;
  declare home: string;
  declare mode: 'test' | 'live';
  declare pageState: PageState;
  declare theme: CheckoutTheme | undefined;
  declare private phone: string;
  declare private phoneError: string;
  declare private challenge: OtpChallenge | null;
  declare private notice: string;
  declare private loanId: string | undefined;
  private api!: MyLoanApi;
  private readonly load = new AsyncAction<{ sessions: SignedInLender[] }>(this);
  private readonly send = new AsyncAction<unknown>(this);
  private readonly leave = new AsyncAction<unknown>(this);
  private readonly locale = new LocaleController(this);
  private signedIn = false;

  constructor() {
    super();
    this.apiBase = '/my-loan/api';
    this.localesBase = '/api';
    this.home = '/my-loan/';
    this.mode = 'live';
    this.pageState = 'signed-out';
    this.phone = '';
    this.phoneError = '';
    this.challenge = null;
    this.notice = '';
    this.loanId = loanInHash();
  }

  protected override createRenderRoot() {
    adoptDocumentStyles('lc-my-loan', myLoanStyles);
    // Light DOM (the one-time-code input must not sit behind a shadow root, for autofill); the server's fallback text goes.
    this.replaceChildren();
    return this;
  }

  private readonly onHash = () => {
    this.loanId = loanInHash();
    void this.updateComplete.then(() => this.querySelector<HTMLElement>('h2')?.focus());
  };

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('hashchange', this.onHash);
    void this.updateComplete.then(async () => {
      this.api = new MyLoanApi(this.apiBase);
      applyTheme(this, this.theme);
      void this.applyLocale(storedLocale() ?? navigator.languages);
      if (this.pageState === 'ready') await this.refresh();
      else {
        const remembered = rememberedCode(this.mode);
        if (remembered) {
          this.phone = remembered.phone;
          this.challenge = remembered.challenge;
        }
        this.requestUpdate();
      }
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('hashchange', this.onHash);
  }

  private async applyLocale(requested: string | readonly string[]) {
    const lang = await setLocale(requested, this.localesBase);
    document.documentElement.lang = lang;
    this.updateTitle();
  }

  private updateTitle() {
    const heading = document.querySelector('h1.lc-page-title');
    if (heading) heading.textContent = t('myLoan.title');
    document.title = t('myLoan.title');
  }

  private onLanguage(event: Event) {
    const locale = (event.target as HTMLSelectElement).value;
    storedLocale(locale);
    void this.applyLocale(locale);
  }

  /** Reads every signed-in lender and its loans; "not signed in" shows the sign-in. */
  private async refresh() {
    await this.load.run((signal) => this.api.sessions(signal));
    const error = this.load.error;
    this.signedIn = this.load.status === 'done';
    if (error && SIGNED_OUT_CODES.includes(error.code)) {
      this.pageState = 'signed-out';
      if (error.code === 'borrower_session_ended') this.notice = t('myLoan.signedOut');
      this.load.reset();
    } else if (this.signedIn) this.pageState = 'ready';
  }

  // ── Sign in: the phone, then the checkout's code box (paste with spaces, resend countdown, attempts left) ──

  private async sendFirstCode(event: Event) {
    event.preventDefault();
    if (phoneNumber(this.phone).replace('+', '').length < 10) {
      this.phoneError = t('myLoan.signIn.phoneInvalid');
      this.querySelector<HTMLInputElement>('#lc-phone')?.focus();
      return;
    }
    this.phoneError = '';
    this.notice = '';
    const sent = await this.send.run((signal) => this.otpApi.sendOtp(signal));
    if (sent) this.challenge = sent as OtpChallenge;
    else if (this.send.error?.code === 'otp_resend_too_soon' && this.send.error.data) {
      // A code was sent moments ago (a reload, another tab): the box for it, with its countdown.
      this.challenge = this.asChallenge(this.send.error.data as Parameters<typeof this.asChallenge>[0]);
      this.send.reset();
    }
    if (this.challenge) rememberCode({ phone: this.phone, mode: this.mode, challenge: this.challenge });
  }

  private asChallenge(sent: { sentTo: string; expiresAt: string; resendInSeconds: number; attemptsAllowed?: number; attemptsLeft?: number; resendAvailableAt?: string }): OtpChallenge {
    return {
      sentTo: sent.sentTo,
      expiresAt: sent.expiresAt,
      resendInSeconds: sent.resendInSeconds,
      resendAvailableAt: sent.resendAvailableAt ?? new Date(Date.now() + sent.resendInSeconds * 1000).toISOString(),
      attemptsAllowed: sent.attemptsAllowed ?? sent.attemptsLeft ?? 5,
      attemptsLeft: sent.attemptsLeft ?? sent.attemptsAllowed ?? 5,
    };
  }

  /** What `<lc-otp>` calls: the sign-in's send and verify for the phone typed here. */
  private readonly otpApi = {
    sendOtp: async (signal?: AbortSignal) => {
      const picked = storedLocale();
      const challenge = this.asChallenge(await this.api.sendCode(this.phone, this.mode, picked && (LOCALES as readonly string[]).includes(picked) ? picked : undefined, signal));
      rememberCode({ phone: this.phone, mode: this.mode, challenge });
      return challenge;
    },
    verifyOtp: async (code: string, signal?: AbortSignal) => {
      const verified = await this.api.verifyCode(this.phone, code, this.mode, signal);
      this.foundNone = verified.sessions.length === 0;
      return { verified: true };
    },
  };
  private foundNone = false;

  private async codeVerified() {
    this.challenge = null;
    rememberCode(null);
    if (this.foundNone) {
      this.notice = t('myLoan.signIn.none');
      return;
    }
    this.notice = '';
    await this.refresh();
    await this.updateComplete;
    this.querySelector<HTMLElement>('h2')?.focus();
  }

  /** The loan view found the session over: the sign-in, saying why (the page's next read forgets the ended session). */
  private sessionEnded() {
    this.signedIn = false;
    this.load.reset();
    this.pageState = 'signed-out';
    this.notice = t('myLoan.signedOut');
    this.loanId = undefined;
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  }

  private otherPhone() {
    this.challenge = null;
    rememberCode(null);
    this.send.reset();
    void this.updateComplete.then(() => this.querySelector<HTMLInputElement>('#lc-phone')?.focus());
  }

  private async signOut() {
    await this.leave.run(() => this.api.signOut());
    if (this.leave.status !== 'done') return;
    this.signedIn = false;
    this.load.reset();
    this.pageState = 'signed-out';
    this.notice = t('myLoan.signedOut');
    this.phone = '';
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    this.loanId = undefined;
    await this.updateComplete;
    this.querySelector<HTMLElement>('h2')?.focus();
  }

  // ── Rendering ──

  override render() {
    return html`
      <header>
        ${this.mode === 'test' ? html`<p class="lc-badge">${t('checkout.testMode')}</p>` : nothing}
        <div class="lc-bar">
          <span class="lc-name">${t('myLoan.title')}</span>
          <label class="lc-language">${GLOBE}<span class="lc-visually-hidden">${t('checkout.language')}</span>
            <select @change=${this.onLanguage}>
              ${LOCALES.map((l) => html`<option value=${l} lang=${l} ?selected=${l === currentLocale()}>${LOCALE_NAMES[l]}</option>`)}
            </select>
          </label>
        </div>
      </header>
      ${this.renderBody()}
      ${this.signedIn && this.pageState === 'ready'
        ? html`<footer class="lc-foot">
            ${this.leave.status === 'error' ? html`<p class="lc-error" role="alert">${errorText(this.leave.error!)}</p>` : nothing}
            <button type="button" class="lc-secondary" @click=${this.signOut} ?disabled=${this.leave.status === 'pending'}>${t('myLoan.signOut')}</button>
          </footer>`
        : nothing}
    `;
  }

  private renderBody() {
    if (this.pageState === 'unknown' || this.pageState === 'not-found') {
      return html`<h2 tabindex="-1">${t('checkout.error.title')}</h2>
        <p role="status">${t(this.pageState === 'unknown' ? 'myLoan.ended.unknown' : 'myLoan.ended.notFound')}</p>
        <p><a href=${this.home}>${t('myLoan.openLoans')}</a></p>`;
    }
    if (this.pageState === 'signed-out') return this.renderSignIn();
    if (this.load.status === 'error') {
      return html`<h2 tabindex="-1">${t('checkout.error.title')}</h2><p class="lc-error" role="alert">${errorText(this.load.error!)}</p>
        <div class="lc-actions"><button type="button" @click=${this.refresh}>${t('checkout.retry')}</button></div>`;
    }
    const sessions = this.load.value?.sessions;
    if (!sessions) return html`<p role="status">${t('myLoan.loading')}</p>`;
    const open = this.loanId ? sessions.find((s) => s.loans.some((l) => l.id === this.loanId)) : undefined;
    if (open) {
      return html`<p class="lc-back"><a href="#">${t('myLoan.back')}</a></p>
        <lc-my-loan-loan .api=${this.api.forSession(open.handle)} .loanId=${this.loanId!} @lc-my-loan-changed=${this.refresh}
          @lc-my-loan-signed-out=${this.sessionEnded}></lc-my-loan-loan>`;
    }
    return this.renderList(sessions);
  }

  private renderSignIn() {
    return html`<h2 tabindex="-1">${t('myLoan.signIn.title')}</h2>
      ${this.notice ? html`<p class="lc-notice" role="status">${this.notice}</p>` : nothing}
      ${this.challenge
        ? html`<lc-otp .api=${this.otpApi} .challenge=${this.challenge} @lc-otp-verified=${this.codeVerified}></lc-otp>
            <p><button type="button" class="lc-link" @click=${this.otherPhone}>${t('myLoan.signIn.otherPhone')}</button></p>`
        : html`<p>${t('myLoan.signIn.intro')}</p>
            <form @submit=${this.sendFirstCode} novalidate>
              <div class="lc-field">
                <label for="lc-phone">${t('myLoan.signIn.phone')}</label>
                <input id="lc-phone" type="tel" autocomplete="tel" inputmode="tel" .value=${this.phone}
                  @input=${cleanInput(phoneNumber, (v) => ((this.phone = v), (this.phoneError = '')))}
                  aria-invalid=${this.phoneError ? 'true' : 'false'} aria-describedby=${this.phoneError ? 'lc-phone-help lc-phone-error' : 'lc-phone-help'} />
                <span id="lc-phone-help">${t('myLoan.signIn.phoneHelp')}</span>
                ${this.phoneError ? html`<span id="lc-phone-error" class="lc-error">${this.phoneError}</span>` : nothing}
              </div>
              ${this.send.status === 'error' ? html`<p class="lc-error" role="alert">${errorText(this.send.error!)}</p>` : nothing}
              <div class="lc-actions">
                <button type="submit" ?disabled=${this.send.status === 'pending'}>${this.send.status === 'pending' ? t('otp.sending') : t('otp.send')}</button>
              </div>
            </form>`}`;
  }

  private renderList(sessions: SignedInLender[]) {
    return html`<h2 tabindex="-1">${t('myLoan.title')}</h2>
      ${sessions.map(
        (s) => html`<section aria-label=${s.lender ? t('myLoan.list.lender', { lender: s.lender.name }) : t('myLoan.title')}>
          ${s.lender ? html`<h3>${t('myLoan.list.lender', { lender: s.lender.name })}</h3>` : nothing}
          ${s.loans.length ? html`<ul class="lc-loans">${s.loans.map((loan) => html`<li>${this.renderLoanLink(loan)}</li>`)}</ul>` : html`<p>${t('myLoan.list.empty')}</p>`}
        </section>`,
      )}`;
  }

  private renderLoanLink(loan: LoanSummary) {
    const next = loan.nextDebit;
    return html`<button type="button" class="lc-loan-link" @click=${() => (location.hash = `loan-${loan.id}`)}>
      <strong>${t('myLoan.loanOf', { amount: formatKobo(loan.principalKobo) })}</strong>
      <span><span class="lc-pill ${loan.inArrears ? 'lc-late' : loan.status === 'completed' ? 'lc-paid' : ''}">${loan.inArrears ? t('myLoan.state.late') : statusText(loan.status)}</span></span>
      ${loan.status !== 'completed' ? html`<span>${t('myLoan.outstanding')}: ${formatKobo(loan.outstandingKobo)}</span>` : nothing}
      ${next ? html`<span class="lc-muted">${t('myLoan.nextDebit')}: ${t('myLoan.nextDebitValue', { amount: formatKobo(next.amountKobo), date: formatDate(next.dueDate) })}</span>` : nothing}
    </button>`;
  }
}
