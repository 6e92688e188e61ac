import { html, LitElement, nothing } from 'lit';
import { AsyncAction } from '../async-action';
import { adoptDocumentStyles } from '../document-styles';
import { errorText, LocaleController, t, type MessageKey } from '../i18n/i18n';
import type { CheckoutApi, ExpiredSession, LenderContact } from '../checkout-api';
import { endedStyles } from './lc-ended.styles';

/** Why the checkout cannot go on: the link expired, was withdrawn, is not a link we know, was never opened, or the service is down. */
export type EndedReason = 'expired' | 'revoked' | 'unknown' | 'missing' | 'unavailable';

/**
 * The page when the checkout cannot go on, always with a way forward. An expired link offers
 * "Text me a new link" (sent by the platform to the phone on record, rate-limited; the page then
 * says where it went) and the lender's contact; a withdrawn one names the lender and its contact too. A made-up or cut-short link says it is not
 * recognised, distinct from expired and withdrawn. Nothing of the loan is shown.
 *
 * A step of `<lc-checkout>` (it renders and wires it); not meant to be used on its own. Its events stop
 * at `<lc-checkout>`.
 *
 * @summary The page when the checkout cannot go on (expired, withdrawn or unknown link), with a way forward.
 * @cssprop --lc-primary - the brand colour of the main action (`theme.brandColor`)
 * @cssprop --lc-on-primary - text on the brand colour (white, ink or black: whichever reaches 4.5:1)
 * @cssprop --lc-link - links and secondary actions (the brand colour darkened to 4.5:1 on white)
 * @cssprop --lc-radius - corner radius of controls (`theme.radius`)
 * @cssprop --lc-danger - errors
 * @cssprop --lc-focus - the focus ring
 * @cssprop --lc-notice-bg - the background of the "new link sent" notice
 */
export class LcEnded extends LitElement {
  static override properties = {
    api: { attribute: false },
    reason: {},
  };

  declare api: CheckoutApi;
  declare reason: EndedReason;
  private readonly info = new AsyncAction<ExpiredSession>(this);
  private readonly renew = new AsyncAction<{ sentTo: string; lender: LenderContact }>(this);
  private readonly locale = new LocaleController(this);

  constructor() {
    super();
    this.reason = 'expired';
  }

  protected override createRenderRoot() {
    adoptDocumentStyles('lc-ended', endedStyles);
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // A withdrawn link's answer names the lender too (the refusal's data): both pages say whom to ask.
    if (this.reason === 'expired' || this.reason === 'revoked') void this.info.run((signal) => this.api.expiredSession(signal));
  }

  private async textNewLink() {
    await this.renew.run((signal) => this.api.renewSession(signal));
  }

  private renderContact(lender: LenderContact | undefined) {
    if (!lender) return nothing;
    const { name, phone, email, url } = lender;
    return html`<p>${t('renew.contact', { name })}</p>
      ${phone ? html`<p><a href="tel:${phone.replace(/[^\d+]/g, '')}">${phone}</a></p>` : nothing}
      ${email ? html`<p><a href="mailto:${email}">${email}</a></p>` : nothing}
      ${url ? html`<p><a href=${url} target="_blank" rel="noopener noreferrer">${url.replace(/^https:\/\//, '')}</a></p>` : nothing}`;
  }

  private renderRenewal() {
    const sent = this.renew.value;
    if (sent) return html`<p class="lc-sent" role="status">${t('renew.sent', { phone: sent.sentTo })}</p>${this.renderContact(sent.lender)}`;
    const info = this.info.value;
    if (!info) return this.info.status === 'error' ? html`<p class="lc-error" role="alert">${errorText(this.info.error!)}</p>` : nothing;
    return html`
      ${!info.renewable
        ? nothing
        : info.renewInSeconds > 0
        ? html`<p>${t('renew.later', { minutes: Math.ceil(info.renewInSeconds / 60) })}</p>`
        : html`<p><button type="button" @click=${this.textNewLink} ?disabled=${this.renew.status === 'pending'}>
            ${this.renew.status === 'pending' ? t('otp.sending') : t('renew.button')}
          </button></p>`}
      ${this.renew.status === 'error' ? html`<p class="lc-error" role="alert">${errorText(this.renew.error!)}</p>` : nothing}
      ${this.renderContact(info.lender)}
    `;
  }

  override render() {
    return html`<h2 tabindex="-1">${t('checkout.notAvailable.title')}</h2>
      <p role="status">${t(`checkout.ended.${this.reason}` as MessageKey)}</p>
      ${this.reason === 'expired' ? this.renderRenewal() : this.reason === 'revoked' ? this.renderContact((this.info.error?.data as { lender?: LenderContact } | undefined)?.lender) : nothing}`;
  }
}
