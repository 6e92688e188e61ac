import { html, LitElement, nothing } from 'lit';
import { adoptDocumentStyles } from '../document-styles';
import { LocaleController, t } from '../i18n/i18n';
import { TEST_ACCOUNTS } from './test-accounts';
import { testHintsStyles } from './lc-test-hints.styles';

/**
 * Test mode only (a sandbox session; the checkout never renders it in live mode): where the phone
 * code is, and the bank step's magic account numbers, like a payment provider's test-mode hints.
 * On the phone-code step, a link to the platform's sandbox inbox when `inbox` is set (the checkout
 * server sets it only when the platform serves the inbox to this browser). On the bank step, a
 * collapsed list of the sandbox's account numbers and what each does.
 *
 * A step of `<lc-checkout>` (it renders it under the step); not meant to be used on its own.
 *
 * @summary Test-mode hints under the phone-code and bank steps.
 */
export class LcTestHints extends LitElement {
  static override properties = { step: {}, inbox: {} };

  declare step: 'otp' | 'bank';
  /** The sandbox inbox's address, or empty when the platform does not serve it to this browser. */
  declare inbox: string;
  private readonly locale = new LocaleController(this);

  protected override createRenderRoot() {
    adoptDocumentStyles('lc-test-hints', testHintsStyles);
    return this;
  }

  override render() {
    if (this.step === 'otp') {
      return html`<p>${t('testHints.otp')}
        ${this.inbox ? html`<a href=${this.inbox} target="_blank" rel="noopener">${t('testHints.inbox')}</a>` : nothing}</p>`;
    }
    return html`<details>
      <summary>${t('testHints.bank')}</summary>
      <ul>
        ${TEST_ACCOUNTS.map(([number, key]) => html`<li><code>${number}</code> ${t(key)}</li>`)}
        <li>${t('testHints.refuse')}</li>
      </ul>
    </details>`;
  }
}
