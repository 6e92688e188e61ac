import { html, LitElement, nothing, unsafeCSS } from 'lit';
import { AsyncAction } from '../async-action';
import { emit } from '../step-events';
import type { CheckoutApi } from '../checkout-api';
import { stepBaseStyles } from '../step-styles';
import { errorText, LocaleController, t } from '../i18n/i18n';
import { passkeyCeremonies } from '../passkeys';
import { passkeyStyles } from './lc-passkey.styles';

/**
 * The optional post-OTP offer: "Use a passkey to sign faster". Creates a passkey on this device
 * (the checkout server builds the options, the platform keeps the credential) or skips. Never a
 * dead end: every state has "Not now"/"Continue", and a failed or cancelled prompt explains and
 * offers both again. Fires `lc-passkey-done` with `detail.registered` when the borrower moves on.
 * Only shown where the browser supports passkeys (the parent feature-detects first).
 *
 * A step of `<lc-checkout>` (it renders and wires it); not meant to be used on its own. Its events stop
 * at `<lc-checkout>`.
 *
 * @summary The optional offer after the phone code: create a passkey to sign faster, or not now.
 * @fires {CustomEvent<{registered: boolean}>} lc-passkey-done - the borrower moves on; `detail.registered`.
 * @csspart button - every button (with `primary` or `secondary`)
 * @csspart primary - the step's main action (a button, full width)
 * @csspart secondary - the step's other actions
 * @csspart error - error messages
 * @cssprop --lc-primary - the brand colour of the main action (`theme.brandColor`)
 * @cssprop --lc-on-primary - text on the brand colour (white, ink or black: whichever reaches 4.5:1)
 * @cssprop --lc-link - links and secondary actions (the brand colour darkened to 4.5:1 on white)
 * @cssprop --lc-radius - corner radius of controls (`theme.radius`)
 * @cssprop --lc-danger - errors
 * @cssprop --lc-focus - the focus ring
 */
export class LcPasskey extends LitElement {
  static override styles = [unsafeCSS(stepBaseStyles), unsafeCSS(passkeyStyles)];

  static override properties = { api: { attribute: false } };

  declare api: CheckoutApi;
  private readonly register = new AsyncAction<unknown>(this);
  private readonly locale = new LocaleController(this);


  private async create() {
    await this.register.run(async (signal) => {
      const options = await this.api.passkeyRegistrationOptions(signal);
      const response = await (await passkeyCeremonies(this.api.base)).createPasskey(options);
      return this.api.registerPasskey(response, signal);
    });
    if (this.register.status === 'done') {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#lc-passkey-continue')?.focus();
    }
  }

  private done(registered: boolean) {
    emit(this, 'lc-passkey-done', { registered });
  }

  override render() {
    const status = this.register.status;
    if (status === 'done') {
      return html`
        <p role="status">${t('passkey.saved')}</p>
        <div class="lc-actions">
          <button part="button primary" id="lc-passkey-continue" type="button" @click=${() => this.done(true)}>${t('passkey.continue')}</button>
        </div>
      `;
    }
    const pending = status === 'pending';
    return html`
      <p id="lc-passkey-about">${t('passkey.offer.body')}</p>
      ${status === 'error' ? html`<p class="lc-error" part="error" role="alert">${errorText(this.register.error!)}</p>` : nothing}
      ${pending ? html`<p role="status">${t('passkey.prompt')}</p>` : nothing}
      <div class="lc-actions">
        <button part="button primary" type="button" aria-describedby="lc-passkey-about" ?disabled=${pending} @click=${this.create}>
          ${pending ? t('passkey.creating') : status === 'error' ? t('passkey.retry') : t('passkey.create')}
        </button>
        <button part="button secondary" type="button" class="lc-secondary" @click=${() => this.done(false)}>${t('passkey.skip')}</button>
      </div>
    `;
  }
}
