import { html, LitElement, nothing, unsafeCSS } from 'lit';
import { AsyncAction } from '../async-action';
import { emit } from '../step-events';
import type { CheckoutApi, OfferFacts } from '../checkout-api';
import { stepBaseStyles } from '../step-styles';
import { formatBps, formatDate, formatKobo, formatKoboShort } from '../format';
import { errorText, LocaleController, refusedField, t } from '../i18n/i18n';
import { browserSupportsWebAuthn, passkeyCeremonies } from '../passkeys';
import { offerStyles } from './lc-offer.styles';

const MODELS = ['flat', 'reducing_balance'] as const;
const FREQUENCIES = ['daily', 'weekly', 'biweekly', 'monthly'] as const;
const modelText = (model: string) =>
  (MODELS as readonly string[]).includes(model) ? t(`offer.model.${model as (typeof MODELS)[number]}`) : model.replace('_', ' ');

/**
 * The headline: the repayment per instalment ("₦43,750 a month for 3 months"), with the amount set
 * large. Equal instalments (the last may differ by the rounding remainder, at most 1%) read as a
 * rate; a single one as one payment (on its date, below); anything else as "n payments, the first ₦…".
 */
function headline(o: OfferFacts) {
  const rows = o.schedule;
  const first = rows[0]?.totalKobo ?? 0;
  const last = rows.at(-1)?.totalKobo ?? 0;
  const even = rows.slice(0, -1).every((r) => r.totalKobo === first) && Math.abs(last - first) * 100 <= first;
  const key =
    rows.length === 1 ? 'once' : even && (FREQUENCIES as readonly string[]).includes(o.repaymentFrequency) ? o.repaymentFrequency : 'varies';
  const [before, after] = t(`offer.headline.${key as 'once'}`, { count: rows.length }).split('{amount}');
  return html`${before}<strong>${formatKoboShort(first)}</strong>${after}`;
}

/**
 * The offer: its headline is the repayment per instalment ("₦43,750 a month for 3 months"), then
 * the key facts in plain words (one line each at 360 px; the rate a year or a month as the product's
 * `rateDisplay` says, the APR always beside it as the comparison figure) and the full schedule from the platform's frozen pricing, a link to the
 * offer-letter PDF, the typed full name as the signature and an explicit agreement; sign or decline
 * (with an optional reason). Fires `lc-offer-signed`, `lc-offer-declined`, or `lc-offer-changed`
 * when the offer was re-issued meanwhile (the parent shows the current one).
 *
 * When the borrower has a passkey for this checkout and the browser supports WebAuthn, "Sign with
 * passkey" sits next to "Sign and accept": the typed name and the agreement are required on both
 * paths (the name is the signature; the passkey adds verified evidence bound to this offer). A
 * cancelled or failed passkey prompt leaves the typed-name button as the way on.
 *
 * The typed name must be the borrower's own (`borrower-name`, shown as a hint): the platform decides
 * with its name matcher, and a refusal is shown on the name field, with a box to confirm a name that
 * matches only in part ("A. Okafor").
 *
 * A step of `<lc-checkout>` (it renders and wires it); not meant to be used on its own. Its events stop
 * at `<lc-checkout>`.
 *
 * @summary The offer: the repayment per instalment, the key facts, the schedule, and the signature.
 * @fires lc-offer-signed - the borrower signed the offer (the public `lc-offer-signed`).
 * @fires lc-offer-declined - the borrower declined the offer (the public `lc-offer-declined`).
 * @fires lc-offer-changed - the offer was re-issued meanwhile: the checkout shows the current one.
 * @csspart button - every button (with `primary` or `secondary`)
 * @csspart primary - the step's main action (a button, full width)
 * @csspart secondary - the step's other actions
 * @csspart error - error messages
 * @csspart input - text inputs and selects
 * @csspart label - field labels
 * @csspart headline - the repayment per instalment
 * @csspart link - the offer letter (PDF)
 * @cssprop --lc-primary - the brand colour of the main action (`theme.brandColor`)
 * @cssprop --lc-on-primary - text on the brand colour (white, ink or black: whichever reaches 4.5:1)
 * @cssprop --lc-link - links and secondary actions (the brand colour darkened to 4.5:1 on white)
 * @cssprop --lc-radius - corner radius of controls (`theme.radius`)
 * @cssprop --lc-danger - errors
 * @cssprop --lc-focus - the focus ring
 * @cssprop --lc-t-2xl - the size of the headline amount
 */
export class LcOffer extends LitElement {
  static override styles = [unsafeCSS(stepBaseStyles), unsafeCSS(offerStyles)];

  static override properties = {
    api: { attribute: false },
    offer: { attribute: false },
    borrowerName: { attribute: 'borrower-name' },
    nameCheck: { state: true },
    declining: { state: true },
    missing: { state: true },
    passkeyReady: { state: true },
    signingWith: { state: true },
  };

  declare api: CheckoutApi;
  declare offer: OfferFacts;
  /** The borrower's name on record, "First Last". */
  declare borrowerName: string;
  /** The platform refused the typed name: someone else's, or only part of the borrower's (to confirm). */
  declare private nameCheck: '' | 'mismatch' | 'partial';
  declare private declining: boolean;
  /** Which required inputs were left empty at the last attempt. */
  declare private missing: { name: boolean; agreed: boolean };
  /** The borrower has a passkey here and the browser can use it (feature-detected; false in most webviews). */
  declare private passkeyReady: boolean;
  declare private signingWith: 'name' | 'passkey';
  private readonly submit = new AsyncAction<unknown>(this);
  private readonly locale = new LocaleController(this);

  constructor() {
    super();
    this.declining = false;
    this.nameCheck = '';
    this.borrowerName = '';
    this.missing = { name: false, agreed: false };
    this.passkeyReady = false;
    this.signingWith = 'name';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (browserSupportsWebAuthn()) {
      this.api
        ?.passkeys()
        .then((status) => {
          this.passkeyReady = status.available && status.registered > 0;
          // Fetch the ceremonies now (the script-tag bundle loads them on demand) so the tap on the passkey button does not wait for them.
          if (this.passkeyReady) void passkeyCeremonies(this.api.base).catch(() => undefined);
        })
        .catch(() => undefined);
    }
  }


  /**
   * The letter's signed link lives minutes while the page may stay open far longer: a tap opens the tab at once (no popup
   * blocker), then points it at a link read fresh from the server. Where no tab can open (some webviews), this page goes there.
   */
  private async openLetter(event: Event) {
    event.preventDefault();
    const tab = window.open('', '_blank');
    const url = (await this.api.state().catch(() => undefined))?.offer?.offerLetter.url;
    if (!url) return tab?.close();
    if (tab) {
      tab.opener = null;
      tab.location.href = url;
    } else window.location.assign(url);
  }

  private value(id: string): string {
    return (this.renderRoot.querySelector<HTMLInputElement | HTMLTextAreaElement>(`#${id}`)?.value ?? '').trim();
  }

  /** The typed name, e-mail and agreement, required on both signing paths; undefined (and focus on the gap) when incomplete. */
  private async signature() {
    const name = this.value('lc-offer-name');
    const agreed = this.renderRoot.querySelector<HTMLInputElement>('#lc-offer-agree')?.checked ?? false;
    this.missing = { name: name.length < 2, agreed: !agreed };
    if (this.missing.name || this.missing.agreed) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>(this.missing.name ? '#lc-offer-name' : '#lc-offer-agree')?.focus();
      return undefined;
    }
    const confirmSignatureName = this.renderRoot.querySelector<HTMLInputElement>('#lc-offer-name-confirm')?.checked || undefined;
    return { signatureFullName: name, signatureEmail: this.value('lc-offer-email') || undefined, documentReference: this.offer.documentReference, confirmSignatureName };
  }

  private async sign(event: Event) {
    event.preventDefault();
    const signature = await this.signature();
    if (!signature) return;
    this.signingWith = 'name';
    const done = await this.submit.run((signal) => this.api.acceptOffer(signature, signal));
    this.finish(done, 'lc-offer-signed');
  }

  private async signWithPasskey() {
    const signature = await this.signature();
    if (!signature) return;
    this.signingWith = 'passkey';
    const done = await this.submit.run(async (signal) => {
      const { options, nonce } = await this.api.passkeySigningOptions(signal);
      const response = await (await passkeyCeremonies(this.api.base)).usePasskey(options);
      return this.api.acceptOffer({ ...signature, passkey: { nonce, response } }, signal);
    });
    this.finish(done, 'lc-offer-signed');
  }

  private async decline(event: Event) {
    event.preventDefault();
    const name = this.value('lc-offer-name');
    this.missing = { name: name.length < 2, agreed: false };
    if (this.missing.name) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#lc-offer-name')?.focus();
      return;
    }
    const reason = this.value('lc-offer-reason') || undefined;
    const documentReference = this.offer.documentReference;
    const done = await this.submit.run((signal) => this.api.declineOffer({ signatureFullName: name, documentReference, reason }, signal));
    this.finish(done, 'lc-offer-declined');
  }

  private finish(done: unknown, event: 'lc-offer-signed' | 'lc-offer-declined') {
    const code = this.submit.error?.code;
    this.nameCheck = code === 'signature_name_mismatch' ? 'mismatch' : code === 'signature_name_unconfirmed' ? 'partial' : '';
    if (this.nameCheck) this.renderRoot.querySelector<HTMLElement>('#lc-offer-name')?.focus();
    if (this.submit.status === 'done' && done !== undefined) {
      emit(this, event);
    } else if (this.submit.error?.code === 'stale_document_reference') {
      emit(this, 'lc-offer-changed');
    }
  }

  override render() {
    const o = this.offer;
    const pending = this.submit.status === 'pending';
    const refused = this.submit.status === 'error' && !this.nameCheck ? errorText(this.submit.error!) : '';
    // The server's refusal of the copy's e-mail sits under that field; any other in the form's alert.
    const emailError = refused && refusedField(this.submit.error!) === 'signatureEmail' ? refused : '';
    const error = emailError ? '' : refused;
    const nameError = this.missing.name ? t('offer.nameMissing') : this.nameCheck === 'mismatch' ? t('offer.nameMismatch', { name: this.borrowerName }) : this.nameCheck ? t('offer.namePartial', { name: this.borrowerName }) : '';
    const rate = formatBps(o.rateDisplay === 'monthly' ? o.interestRateBps / 12 : o.interestRateBps);
    return html`
      <section class="lc-hero" part="headline">
        <p class="lc-hero-label">${t('offer.youRepay')}</p>
        <p class="lc-hero-amount">${headline(o)}</p>
        ${o.schedule[0] ? html`<p class="lc-hero-sub">${t(o.schedule.length > 1 ? 'offer.firstDue' : 'offer.dueOn', { date: formatDate(o.schedule[0].dueDate) })}</p>` : nothing}
      </section>
      <dl>
        <dt>${t('offer.receive')}</dt><dd>${formatKobo(o.principalKobo)}</dd>
        <dt class="lc-total">${t('offer.totalRepayable')}</dt><dd class="lc-total">${formatKobo(o.totalRepayableKobo)}</dd>
        <dt>${t('offer.length')}</dt><dd>${t('offer.lengthValue', { days: o.tenorDays })}</dd>
        <dt>${t('offer.rate')}</dt><dd>${t(o.rateDisplay === 'monthly' ? 'offer.rateMonthly' : 'offer.rateValue', { rate })}</dd>
        <dt>${t('offer.modelLabel')}</dt><dd>${modelText(o.interestModel)}</dd>
        <dt>${t('offer.totalInterest')}</dt><dd>${formatKobo(o.totalInterestKobo)}</dd>
        <dt>${t('offer.processingFee')}</dt><dd>${formatKobo(o.fees.processingFeeKobo)}</dd>
        ${o.fees.insurancePremiumKobo > 0 ? html`<dt>${t('offer.insurance')}</dt><dd>${formatKobo(o.fees.insurancePremiumKobo)}</dd>` : nothing}
        <dt>${t('offer.costOfCredit')}</dt><dd>${formatKobo(o.costOfCreditKobo)}</dd>
        <dt>${t('offer.apr')}</dt><dd>${t('offer.aprValue', { rate: formatBps(o.aprBps) })}</dd>
        <dt>${t('offer.lateFee')}</dt><dd>${t('offer.lateFeeValue', { rate: formatBps(o.lateFeeBps) })}</dd>
      </dl>
      <p class="lc-note">${t('offer.aprNote')}</p>
      <h3>${t('offer.schedule')}</h3>
      <table>
        <thead><tr><th scope="col">${t('offer.due')}</th><th scope="col">${t('offer.amount')}</th></tr></thead>
        <tbody>
          ${o.schedule.map((row) => html`<tr><td>${formatDate(row.dueDate)}</td><td>${formatKobo(row.totalKobo)}</td></tr>`)}
        </tbody>
      </table>
      <p><a part="link" href=${o.offerLetter.url} target="_blank" rel="noopener" @click=${this.openLetter}>${t('offer.letter')}</a></p>
      <form @submit=${this.declining ? this.decline : this.sign} novalidate>
        <div class="lc-field">
          <label part="label" for="lc-offer-name">${t('offer.name')}</label>
          <input part="input" id="lc-offer-name" type="text" autocomplete="name" required aria-invalid=${nameError ? 'true' : 'false'}
            aria-describedby="lc-offer-name-help${nameError ? ' lc-offer-name-error' : ''}" @input=${() => (this.nameCheck = '')} />
          <span id="lc-offer-name-help">${this.borrowerName ? t('offer.nameHint', { name: this.borrowerName }) : nothing}</span>
          ${nameError ? html`<span id="lc-offer-name-error" class="lc-error" part="error" role="alert">${nameError}</span>` : nothing}
        </div>
        ${this.nameCheck === 'partial' && !this.declining
          ? html`<div class="lc-check">
              <input part="input" id="lc-offer-name-confirm" type="checkbox" />
              <label part="label" for="lc-offer-name-confirm">${t('offer.nameConfirm', { name: this.borrowerName })}</label>
            </div>`
          : nothing}
        ${this.declining
          ? html`<div class="lc-field">
              <label part="label" for="lc-offer-reason">${t('offer.reason')}</label>
              <textarea part="input" id="lc-offer-reason" maxlength="500" rows="3"></textarea>
            </div>`
          : html`<div class="lc-field">
                <label part="label" for="lc-offer-email">${t('offer.email')}</label>
                <input part="input" id="lc-offer-email" type="email" autocomplete="email" aria-invalid=${emailError ? 'true' : 'false'}
                  aria-describedby=${emailError ? 'lc-offer-email-error' : nothing} />
                ${emailError ? html`<span id="lc-offer-email-error" class="lc-error" part="error" role="alert">${emailError}</span>` : nothing}
              </div>
              <div class="lc-check">
                <input part="input" id="lc-offer-agree" type="checkbox" required aria-invalid=${this.missing.agreed ? 'true' : 'false'}
                  aria-describedby=${this.missing.agreed ? 'lc-offer-agree-error' : nothing} />
                <label part="label" for="lc-offer-agree">${t('offer.agree')}</label>
              </div>
              ${this.missing.agreed ? html`<p id="lc-offer-agree-error" class="lc-error" part="error">${t('offer.agreeMissing')}</p>` : nothing}`}
        ${error ? html`<p class="lc-error" part="error" role="alert">${error}</p>` : nothing}
        <div class="lc-actions">
          ${this.declining
            ? html`<button part="button primary" type="submit" ?disabled=${pending}>${pending ? t('offer.declining') : t('offer.declineConfirm')}</button>
                <button part="button secondary" type="button" class="lc-secondary" @click=${() => (this.declining = false)}>${t('offer.back')}</button>`
            : html`<button part="button primary" type="submit" ?disabled=${pending}>${pending && this.signingWith === 'name' ? t('offer.signing') : t('offer.sign')}</button>
                ${this.passkeyReady
                  ? html`<button part="button secondary" type="button" class="lc-secondary" ?disabled=${pending} @click=${this.signWithPasskey}>
                      ${pending && this.signingWith === 'passkey' ? t('passkey.sign.pending') : t('passkey.sign')}
                    </button>`
                  : nothing}
                <button part="button secondary" type="button" class="lc-secondary" @click=${() => (this.declining = true)}>${t('offer.decline')}</button>`}
        </div>
      </form>
    `;
  }
}
