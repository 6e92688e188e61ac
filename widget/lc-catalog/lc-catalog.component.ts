import { html, LitElement, nothing, unsafeCSS } from 'lit';
import { AsyncAction } from '../async-action';
import { emit } from '../step-events';
import type { CheckoutApi, SettlementMerchant, SettlementMerchantChoice, SettlementMerchantPage } from '../checkout-api';
import { stepBaseStyles } from '../step-styles';
import { errorText, LocaleController, t, tp, type MessageKey } from '../i18n/i18n';
import { catalogStyles } from './lc-catalog.styles';

/** Typing pauses this long before the list is searched again (Enter searches at once). */
const SEARCH_DELAY_MS = 300;

const KINDS = ['laboratory', 'pharmacy', 'laboratory_pharmacy'];
const kindText = (kind: string) => (KINDS.includes(kind) ? t(`catalog.kind.${kind}` as MessageKey) : kind);

/**
 * The settlement catalog: the borrower searches the merchant directory (name or area), picks the
 * merchant that receives the loan's money with a native radio group (arrow keys move the choice)
 * and confirms. Results come a page at a time ("Show more"). Fires `lc-catalog-chosen` with the
 * recorded choice.
 *
 * @property api the checkout's JSON client
 * @property chosen the merchant already recorded on the loan, if any (pre-selected)
 *
 * A step of `<lc-checkout>` (it renders and wires it); not meant to be used on its own. Its events stop
 * at `<lc-checkout>`.
 *
 * @summary The settlement catalog: the borrower picks the merchant that receives the loan's money.
 * @fires {CustomEvent<SettlementMerchantChoice>} lc-catalog-chosen - the choice was recorded; `detail` is the `SettlementMerchantChoice`.
 * @csspart button - every button (with `primary` or `secondary`)
 * @csspart primary - the step's main action (a button, full width)
 * @csspart secondary - the step's other actions
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
export class LcCatalog extends LitElement {
  static override styles = [unsafeCSS(stepBaseStyles), unsafeCSS(catalogStyles)];

  static override properties = {
    api: { attribute: false },
    chosen: { attribute: false },
    merchants: { state: true },
    selectedId: { state: true },
  };

  declare api: CheckoutApi;
  declare chosen: SettlementMerchantChoice | null;
  declare private merchants: SettlementMerchant[];
  declare private selectedId: string;
  private readonly list = new AsyncAction<SettlementMerchantPage>(this);
  private readonly more = new AsyncAction<SettlementMerchantPage>(this);
  private readonly choose = new AsyncAction<SettlementMerchantChoice>(this);
  /** The search the list shows, and its last page. */
  private query = '';
  private page: SettlementMerchantPage['pagination'] | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly locale = new LocaleController(this);

  constructor() {
    super();
    this.chosen = null;
    this.merchants = [];
    this.selectedId = '';
  }


  override connectedCallback(): void {
    super.connectedCallback();
    this.selectedId ||= this.chosen?.merchant.id ?? '';
    void this.search();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  private async search() {
    clearTimeout(this.timer);
    this.more.reset();
    const q = this.query;
    const found = await this.list.run((signal) => this.api.merchants({ q }, signal));
    if (!found) return;
    this.merchants = found.merchants;
    this.page = found.pagination;
    // A selection the new results no longer show is dropped: the borrower confirms only what they see.
    if (!found.merchants.some((m) => m.id === this.selectedId)) this.selectedId = '';
  }

  private async showMore() {
    const next = (this.page?.page ?? 1) + 1;
    const q = this.query;
    const found = await this.more.run((signal) => this.api.merchants({ q, page: next }, signal));
    if (!found) return;
    const first = found.merchants[0];
    this.merchants = [...this.merchants, ...found.merchants];
    this.page = found.pagination;
    // Keyboard users continue where the new results start.
    await this.updateComplete;
    if (first) this.renderRoot.querySelector<HTMLInputElement>(`#lc-m-${first.id}`)?.focus();
  }

  private onQuery(event: Event) {
    this.query = (event.target as HTMLInputElement).value.trim();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.search(), SEARCH_DELAY_MS);
  }

  private onSubmitSearch(event: Event) {
    event.preventDefault();
    void this.search();
  }

  private async confirm() {
    const id = this.selectedId;
    if (!id) return;
    const choice = await this.choose.run((signal) => this.api.chooseMerchant(id, signal));
    if (choice) emit(this, 'lc-catalog-chosen', choice);
  }

  override render() {
    return html`
      <p>${t('catalog.intro')}</p>
      <form role="search" @submit=${this.onSubmitSearch}>
        <div class="lc-field">
          <label part="label" for="lc-catalog-q">${t('catalog.search')}</label>
          <input part="input" id="lc-catalog-q" type="search" autocomplete="off" maxlength="100" @input=${this.onQuery} aria-describedby="lc-catalog-count" />
        </div>
      </form>
      ${this.renderResults()}
    `;
  }

  private renderResults() {
    if (this.list.status === 'error') {
      return html`<p class="lc-error" part="error" role="alert">${errorText(this.list.error!)}</p>
        <button part="button primary" type="button" @click=${this.search}>${t('checkout.retry')}</button>`;
    }
    const count = this.page?.total ?? 0;
    const summary =
      this.list.status === 'pending' || !this.page
        ? t('catalog.looking')
        : count === 0
          ? this.query
            ? t('catalog.noMatch', { query: this.query })
            : t('catalog.none')
          : this.query
            ? tp('catalog.countMatching', count, { query: this.query })
            : tp('catalog.count', count);
    const chooseError = this.choose.status === 'error' ? errorText(this.choose.error!) : '';
    return html`
      <p id="lc-catalog-count" role="status">${summary}</p>
      ${this.merchants.length
        ? html`<fieldset aria-describedby=${chooseError ? 'lc-catalog-error' : nothing}>
            <legend>${t('catalog.legend')}</legend>
            ${this.merchants.map((m) => this.renderOption(m))}
          </fieldset>`
        : nothing}
      ${this.more.status === 'error' ? html`<p class="lc-error" part="error" role="alert">${errorText(this.more.error!)}</p>` : nothing}
      ${chooseError ? html`<p id="lc-catalog-error" class="lc-error" part="error" role="alert">${chooseError}</p>` : nothing}
      <div class="lc-actions">
        ${this.page?.hasNext
          ? html`<button part="button secondary" type="button" class="lc-secondary" @click=${this.showMore} ?disabled=${this.more.status === 'pending'}>
              ${this.more.status === 'pending' ? t('catalog.loadingMore') : t('catalog.more')}
            </button>`
          : nothing}
        <button part="button primary" type="button" @click=${this.confirm} ?disabled=${!this.selectedId || this.choose.status === 'pending'}>
          ${this.choose.status === 'pending' ? t('catalog.saving') : t('catalog.choose')}
        </button>
      </div>
    `;
  }

  private renderOption(merchant: SettlementMerchant) {
    const where = [merchant.address, merchant.city, merchant.state].filter(Boolean).join(', ');
    return html`<div class="lc-option">
      <input part="input" type="radio" name="lc-merchant" id="lc-m-${merchant.id}" value=${merchant.id} .checked=${merchant.id === this.selectedId}
        @change=${() => {
          this.selectedId = merchant.id;
          this.choose.reset();
        }} />
      <label part="label" for="lc-m-${merchant.id}">
        <strong>${merchant.name}</strong>
        <span class="lc-where">${kindText(merchant.providerType)}${where ? ` · ${where}` : ''}</span>
      </label>
    </div>`;
  }
}
