import { css, html, LitElement, nothing } from 'lit';
import { api, type Mode } from '../api';
import { allowed } from '../session';
import { confirmAction } from '../ui/confirm-dialog';
import { naira, when, typedNumber } from '../ui/format';
import { dashStyles } from '../ui/styles';
import { describedBy, fieldError, fieldErrorLine, type FieldError } from '../ui/field-errors';
import { scaleDecimal, unscaleDecimal } from '../../server/shared/decimal';
import {
  APPROVAL_MODES,
  INSURANCE_MODES,
  INTEREST_MODELS,
  KYC_TIERS,
  PREMIUM_BEARERS,
  PRODUCT_CODE,
  PRODUCT_CODE_RULE,
  REPAYMENT_FREQUENCIES,
  SETTLEMENT_DESTINATIONS,
} from '../../server/shared/loan-product-fields';
import { RATE_DISPLAYS } from '../../server/shared/checkout-contract';
import { NAME_MISMATCH_POLICIES } from '../../server/shared/name-mismatch-policy';

/** A product as the dashboard API answers it (the partner API's LoanProduct). */
interface Product {
  id: string;
  code: string;
  name: string;
  description: string | null;
  currency: string;
  isActive: boolean;
  kycTier: string;
  approvalMode: string;
  interestModel: string;
  interestRateBps: number;
  lateFeeBps: number;
  processingFeeBps: number;
  processingFeeFlatKobo: number;
  minAmountKobo: number;
  maxAmountKobo: number;
  minTenorDays: number;
  maxTenorDays: number;
  repaymentFrequency: string | null;
  insuranceMode: string;
  insurancePremiumBearer: string;
  insurancePremiumBps: number;
  settlementDestination: string;
  settlementCatalogEnabled: boolean;
  capitalPoolCode: string | null;
  recoveryEnabled: boolean;
  recoveryPolicyId: string | null;
  recoveryDefaultAfterDaysOverdue: number | null;
  guarantorsRequired: number;
  rateDisplay: string;
  nameMismatchPolicy: string;
  reminders?: { enabled: boolean; leadDays: number };
  createdAt: string;
  updatedAt: string;
}

/** The form's fields as typed (strings and checkboxes): converted exactly on submit, never through floats. */
type Form = Record<string, string | boolean>;

type Kind = 'text' | 'naira' | 'percent' | 'int' | 'select' | 'check' | 'textarea';
interface Field {
  key: string;
  label: string;
  kind: Kind;
  /** The API field the value is sent as (naira → `…Kobo`, percent → `…Bps`). */
  api: string;
  options?: readonly string[];
  /** select: what each option means, in plain words (the API value is what is sent). */
  optionLabels?: Record<string, string>;
  /** select: an empty option sending null. */
  none?: string;
  hint?: string;
  optional?: boolean;
}

const FIELDS: Field[] = [
  { key: 'code', label: 'Code', kind: 'text', api: 'code', hint: 'Your short identifier, unique in your organisation: letters, digits, _ and - (no spaces), e.g. SALARY_30.' },
  { key: 'name', label: 'Name', kind: 'text', api: 'name', hint: 'What borrowers see, e.g. Salary advance.' },
  { key: 'description', label: 'Description', kind: 'textarea', api: 'description', optional: true },
  { key: 'currency', label: 'Currency', kind: 'text', api: 'currency', hint: '3-letter ISO 4217 code.' },
  {
    key: 'kycTier', label: 'Who verifies the borrower', kind: 'select', api: 'kycTier', options: KYC_TIERS,
    optionLabels: { delegated: 'You (you attest your own KYC)', managed: 'The platform, in the checkout' },
  },
  {
    key: 'approvalMode', label: 'Who approves each loan', kind: 'select', api: 'approvalMode', options: APPROVAL_MODES,
    optionLabels: { tenant: 'You, one loan at a time', auto_credit_score: 'Automatic, by credit score', myitura_analyst: "The platform's credit analyst", partner_pushed: 'Your pushed credit decision' },
    hint: 'Pre-approvals you push over the API (the quick start) need "Your pushed credit decision": each loan takes the amount, rate and tenor of your decision.',
  },
  {
    key: 'interestModel', label: 'Interest model', kind: 'select', api: 'interestModel', options: INTEREST_MODELS,
    optionLabels: { flat: 'Flat (on the amount borrowed)', reducing_balance: 'Reducing balance (on what is owed)' },
  },
  { key: 'interestRate', label: 'Interest rate (% a year)', kind: 'percent', api: 'interestRateBps', hint: 'Up to 2 decimals: 36.5 is 3650 basis points.' },
  { key: 'rateDisplay', label: 'Rate shown to borrowers', kind: 'select', api: 'rateDisplay', options: RATE_DISPLAYS, optionLabels: { annual: 'A year', monthly: 'A month (the yearly rate ÷ 12)' }, hint: 'The checkout always shows the APR beside it.' },
  {
    key: 'nameMismatchPolicy',
    label: 'Bank account in another name',
    kind: 'select',
    api: 'nameMismatchPolicy',
    options: NAME_MISMATCH_POLICIES,
    optionLabels: { allow: 'Accept it once the borrower confirms it is theirs', review: 'Accept it, but hold the loan for a review', refuse: 'Refuse it: only the borrower’s own name' },
    hint: 'When the bank’s name for the account is not the borrower’s (a business account, a name changed at marriage).',
  },
  { key: 'lateFee', label: 'Late fee (%)', kind: 'percent', api: 'lateFeeBps' },
  { key: 'processingFee', label: 'Processing fee (%)', kind: 'percent', api: 'processingFeeBps', hint: 'Of the amount borrowed.' },
  { key: 'processingFeeFlat', label: 'Flat processing fee (₦)', kind: 'naira', api: 'processingFeeFlatKobo' },
  { key: 'minAmount', label: 'Smallest loan (₦)', kind: 'naira', api: 'minAmountKobo' },
  { key: 'maxAmount', label: 'Largest loan (₦)', kind: 'naira', api: 'maxAmountKobo' },
  { key: 'minTenorDays', label: 'Shortest tenor (days)', kind: 'int', api: 'minTenorDays' },
  { key: 'maxTenorDays', label: 'Longest tenor (days)', kind: 'int', api: 'maxTenorDays' },
  { key: 'repaymentFrequency', label: 'Repayment frequency', kind: 'select', api: 'repaymentFrequency', options: REPAYMENT_FREQUENCIES, none: 'Chosen per loan' },
  {
    key: 'insuranceMode', label: 'Insurance', kind: 'select', api: 'insuranceMode', options: INSURANCE_MODES,
    optionLabels: { automatic: 'Automatic, at payout', manual: 'When you ask for it', off: 'No insurance' },
  },
  {
    key: 'insurancePremiumBearer', label: 'Who pays the insurance premium', kind: 'select', api: 'insurancePremiumBearer', options: PREMIUM_BEARERS,
    optionLabels: { borrower: 'The borrower (added to repayments)', tenant: 'Your organisation' },
  },
  { key: 'insurancePremium', label: 'Insurance premium (%)', kind: 'percent', api: 'insurancePremiumBps', hint: 'Of the amount borrowed; 0 with no insurance.' },
  {
    key: 'settlementDestination', label: 'Pay the loan out to', kind: 'select', api: 'settlementDestination', options: SETTLEMENT_DESTINATIONS,
    optionLabels: { borrower_wallet: "The borrower's wallet", borrower_bank_account: "The borrower's bank account", merchant_wallet: "A merchant's wallet (e.g. the clinic's)", tenant_wallet: "Your organisation's wallet" },
  },
  { key: 'settlementCatalogEnabled', label: 'Borrower picks the merchant in checkout (merchant wallet only)', kind: 'check', api: 'settlementCatalogEnabled' },
  { key: 'capitalPoolCode', label: 'Capital pool code', kind: 'text', api: 'capitalPoolCode', optional: true, hint: 'The pool loans of this product are paid out from (letters, digits, _ and -), e.g. MAIN.' },
  { key: 'guarantorsRequired', label: 'Guarantors required', kind: 'int', api: 'guarantorsRequired', hint: '0 to 5. Each guarantor confirms their phone in the checkout before the borrower signs.' },
  { key: 'recoveryEnabled', label: 'Default a loan after a set time overdue', kind: 'check', api: 'recoveryEnabled', hint: 'Off: your organisation\'s default threshold applies.' },
  { key: 'recoveryDefaultAfterDaysOverdue', label: 'Default after (days overdue)', kind: 'int', api: 'recoveryDefaultAfterDaysOverdue', optional: true, hint: 'Required when the box above is ticked.' },
  { key: 'recoveryPolicyId', label: 'Collections policy reference (optional)', kind: 'text', api: 'recoveryPolicyId', optional: true, hint: 'Only if the platform gave you a policy id for this product (a long id like 0191e7a2-…); otherwise leave it empty.' },
  {
    key: 'remindersEnabled', label: 'Text reminders to borrowers', kind: 'check', api: 'reminders.enabled',
    hint: 'Before each direct debit, and after one that fails (with the link to pay now); in the borrower’s language, never in your quiet hours.',
  },
  { key: 'reminderLeadDays', label: 'Reminder before a debit (days)', kind: 'int', api: 'reminders.leadDays', hint: '0 to 14; 0 is the morning of the debit.' },
  { key: 'isActive', label: 'Active (partners can create loans with it)', kind: 'check', api: 'isActive' },
];

/** Each API field's label on the form: the words a refusal is shown in. */
const LABELS: Record<string, string> = Object.fromEntries(FIELDS.map((f) => [f.api, f.label]));

const pct = (bps: number) => unscaleDecimal(bps, 2).replace(/\.00$/, '');
const nairaField = (kobo: number) => unscaleDecimal(kobo, 2);

function blankForm(): Form {
  return {
    code: '', name: '', description: '', currency: 'NGN', kycTier: 'delegated', approvalMode: 'tenant', interestModel: 'flat', interestRate: '',
    rateDisplay: 'annual', nameMismatchPolicy: 'allow', lateFee: '0', processingFee: '0', processingFeeFlat: '0', minAmount: '', maxAmount: '', minTenorDays: '', maxTenorDays: '',
    repaymentFrequency: 'monthly', insuranceMode: 'off', insurancePremiumBearer: 'borrower', insurancePremium: '0', settlementDestination: 'borrower_bank_account',
    settlementCatalogEnabled: false, capitalPoolCode: 'MAIN', guarantorsRequired: '0', recoveryEnabled: false, recoveryDefaultAfterDaysOverdue: '', recoveryPolicyId: '',
    remindersEnabled: true, reminderLeadDays: '3', isActive: true,
  };
}

function formOf(p: Product): Form {
  return {
    code: p.code, name: p.name, description: p.description ?? '', currency: p.currency, kycTier: p.kycTier, approvalMode: p.approvalMode, interestModel: p.interestModel,
    interestRate: pct(p.interestRateBps), rateDisplay: p.rateDisplay, nameMismatchPolicy: p.nameMismatchPolicy ?? 'allow', lateFee: pct(p.lateFeeBps), processingFee: pct(p.processingFeeBps),
    processingFeeFlat: nairaField(p.processingFeeFlatKobo), minAmount: nairaField(p.minAmountKobo), maxAmount: nairaField(p.maxAmountKobo),
    minTenorDays: String(p.minTenorDays), maxTenorDays: String(p.maxTenorDays), repaymentFrequency: p.repaymentFrequency ?? '', insuranceMode: p.insuranceMode,
    insurancePremiumBearer: p.insurancePremiumBearer, insurancePremium: pct(p.insurancePremiumBps), settlementDestination: p.settlementDestination,
    settlementCatalogEnabled: p.settlementCatalogEnabled, capitalPoolCode: p.capitalPoolCode ?? '', guarantorsRequired: String(p.guarantorsRequired),
    recoveryEnabled: p.recoveryEnabled, recoveryDefaultAfterDaysOverdue: p.recoveryDefaultAfterDaysOverdue === null ? '' : String(p.recoveryDefaultAfterDaysOverdue),
    recoveryPolicyId: p.recoveryPolicyId ?? '', remindersEnabled: p.reminders?.enabled ?? true, reminderLeadDays: String(p.reminders?.leadDays ?? 3), isActive: p.isActive,
  };
}

/**
 * The body the API takes, converted exactly: naira and percent are parsed as decimal strings (`scaleDecimal`), never
 * as floats. Only the conversion is checked here; every rule of a product is the server's (the CLI's schema).
 */
function bodyOf(form: Form): { body: Record<string, unknown> } | { error: FieldError } {
  const flat: Record<string, unknown> = {};
  const result = flatBodyOf(form, flat);
  if (result) return result;
  // `reminders.enabled` and `reminders.leadDays` are one object in the API.
  const body: Record<string, unknown> = {};
  for (const [api, value] of Object.entries(flat)) {
    const [outer, inner] = api.split('.');
    if (inner) body[outer!] = { ...(body[outer!] as Record<string, unknown> | undefined), [inner]: value };
    else body[api] = value;
  }
  return { body };
}

function flatBodyOf(form: Form, body: Record<string, unknown>): { error: FieldError } | undefined {
  for (const field of FIELDS) {
    const value = form[field.key];
    if (field.kind === 'check') {
      body[field.api] = Boolean(value);
      continue;
    }
    const text = String(value ?? '').trim();
    if (text === '' && (field.optional || field.none)) {
      body[field.api] = null;
      continue;
    }
    if (field.kind === 'naira' || field.kind === 'percent') {
      const scaled = scaleDecimal(typedNumber(text), 2);
      if (scaled === undefined) return { error: { field: field.api, message: 'Enter a number with at most 2 decimals (no minus sign).' } };
      body[field.api] = scaled;
    } else if (field.kind === 'int') {
      if (!/^\d+$/.test(text)) return { error: { field: field.api, message: 'Enter a whole number.' } };
      body[field.api] = Number(text);
    } else if (field.key === 'code' && text !== '' && !PRODUCT_CODE.test(text)) {
      return { error: { field: field.api, message: PRODUCT_CODE_RULE.charAt(0).toUpperCase() + PRODUCT_CODE_RULE.slice(1) + '.' } };
    } else body[field.api] = field.key === 'description' ? String(value ?? '') : text;
  }
  return undefined;
}

/** Products: list (active and deactivated), define, edit, deactivate. */
export class DashProductsPage extends LitElement {
  static override styles = [
    dashStyles,
    css`
      .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: 0 1rem; }
      .check { display: flex; gap: 0.5rem; align-items: flex-start; font-weight: 600; margin: 0.75rem 0 0.25rem; }
      .check input { width: auto; min-height: 0; margin-top: 0.3rem; }
      .toolbar { margin-bottom: 1rem; }
      .toolbar label { margin: 0; }
      .toolbar select { width: auto; }
      /* Contains the visually hidden header text, which would otherwise widen the page on a phone. */
      .table-wrap { position: relative; }
      td.actions { white-space: nowrap; }
      textarea { min-height: 4rem; }
      .form-actions { margin-top: 1rem; }
      form.card h2 { margin-top: 0; }
    `,
  ];
  static override properties = {
    mode: {},
    products: { state: true },
    nextCursor: { state: true },
    status: { state: true },
    loading: { state: true },
    error: { state: true },
    editing: { state: true },
    form: { state: true },
    formError: { state: true },
    saving: { state: true },
    done: { state: true },
  };
  mode: Mode = 'test';
  products: Product[] = [];
  nextCursor: string | null = null;
  status: 'all' | 'active' | 'inactive' = 'all';
  loading = false;
  error = '';
  /** null: no form; 'new': defining; a product: editing it. */
  editing: Product | 'new' | null = null;
  form: Form = blankForm();
  formError: FieldError | undefined;
  saving = false;
  done = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(more = false) {
    this.loading = true;
    this.error = '';
    try {
      const page = await api.page<Product>('/products', { status: this.status, cursor: more ? this.nextCursor : undefined });
      this.products = more ? [...this.products, ...page.data] : page.data;
      this.nextCursor = page.nextCursor;
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.loading = false;
    }
  }

  private open(product: Product | 'new') {
    this.editing = product;
    this.form = product === 'new' ? blankForm() : formOf(product);
    this.formError = undefined;
    this.done = '';
    void this.updateComplete.then(() => (this.renderRoot.querySelector('#product-form h2') as HTMLElement | null)?.focus());
  }

  private set(key: string, value: string | boolean) {
    this.form = { ...this.form, [key]: value };
  }

  private async save(event: Event) {
    event.preventDefault();
    const converted = bodyOf(this.form);
    if ('error' in converted) {
      this.showError(converted.error);
      return;
    }
    this.saving = true;
    this.formError = undefined;
    try {
      const editing = this.editing;
      const saved =
        editing === 'new' || editing === null
          ? await api.post<Product>('/products', converted.body)
          : await api.patch<Product>(`/products/${editing.id}`, converted.body);
      this.done = editing === 'new' ? `Product ${saved.code} defined. Partners see it in GET /v1/products.` : `Product ${saved.code} saved. Loans already offered keep the terms they were offered.`;
      this.editing = null;
      await this.load();
    } catch (error) {
      // What was typed stays: only the message changes.
      this.showError(fieldError(error, LABELS));
    } finally {
      this.saving = false;
    }
  }

  /** Shows a refusal beside its field (focused, so a screen reader reads it at once), or above the buttons. */
  private showError(error: FieldError) {
    this.formError = error;
    void this.updateComplete.then(() => {
      const key = FIELDS.find((f) => f.api === error.field)?.key;
      (this.renderRoot.querySelector(key ? `#f-${key}` : '#form-error') as HTMLElement | null)?.focus();
    });
  }

  private async deactivate(product: Product) {
    const ok = await confirmAction({
      title: `Deactivate ${product.code}?`,
      body: 'Partners can no longer create loans with this product. Loans made with it are not affected. You can activate it again by editing it.',
      confirm: 'Deactivate product',
      danger: true,
    });
    if (!ok) return;
    this.error = '';
    this.done = '';
    try {
      await api.post(`/products/${product.id}/deactivate`);
      this.done = `Product ${product.code} deactivated.`;
      await this.load();
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  private renderField(field: Field) {
    const id = `f-${field.key}`;
    const value = this.form[field.key];
    const error = this.formError?.field === field.api ? this.formError.message : undefined;
    const hint = html`${field.hint ? html`<div class="hint" id="${id}-hint">${field.hint}</div>` : nothing}${fieldErrorLine(id, error)}`;
    const described = describedBy(id, Boolean(field.hint), Boolean(error));
    const invalid = error ? 'true' : 'false';
    const onInput = (e: Event) => this.set(field.key, (e.target as HTMLInputElement).value);
    switch (field.kind) {
      case 'check':
        return html`<div><label class="check" for=${id}><input id=${id} type="checkbox" aria-invalid=${invalid} aria-describedby=${described} .checked=${Boolean(value)} @change=${(e: Event) => this.set(field.key, (e.target as HTMLInputElement).checked)} />${field.label}</label>${hint}</div>`;
      case 'select':
        return html`<div><label for=${id}>${field.label}</label><select id=${id} aria-invalid=${invalid} aria-describedby=${described} @change=${onInput}>
          ${field.none ? html`<option value="" ?selected=${value === ''}>${field.none}</option>` : nothing}
          ${field.options!.map((o) => html`<option value=${o} ?selected=${value === o}>${field.optionLabels?.[o] ?? o.replace(/_/g, ' ')}</option>`)}
        </select>${hint}</div>`;
      case 'textarea':
        return html`<div><label for=${id}>${field.label}</label><textarea id=${id} maxlength="2000" aria-invalid=${invalid} aria-describedby=${described} .value=${String(value)} @input=${onInput}></textarea>${hint}</div>`;
      default:
        return html`<div><label for=${id}>${field.label}</label><input id=${id} .value=${String(value)} @input=${onInput}
          inputmode=${field.kind === 'text' ? nothing : field.kind === 'int' ? 'numeric' : 'decimal'} autocomplete="off"
          ?required=${!field.optional} aria-invalid=${invalid} aria-describedby=${described} />${hint}</div>`;
    }
  }

  private renderForm() {
    if (this.editing === null) return nothing;
    const title = this.editing === 'new' ? 'Define a product' : `Edit ${this.editing.code}`;
    return html`<form id="product-form" class="card" @submit=${this.save} novalidate>
      <h2 tabindex="-1">${title}</h2>
      ${this.editing === 'new' ? nothing : html`<p class="notice">Loans already offered keep the terms they were offered: an edit applies to loans created and offers issued from now on.</p>`}
      <div class="grid">${FIELDS.map((f) => this.renderField(f))}</div>
      ${this.formError
        ? html`<p role="alert" class="error" id="form-error" tabindex="-1">${this.formError.field ? `Check “${LABELS[this.formError.field]}”: ${this.formError.message}` : this.formError.message}</p>`
        : nothing}
      <div class="row form-actions">
        <button type="submit" ?disabled=${this.saving}>${this.saving ? 'Saving…' : this.editing === 'new' ? 'Define product' : 'Save changes'}</button>
        <button type="button" class="secondary" @click=${() => (this.editing = null)}>Cancel</button>
      </div>
    </form>`;
  }

  private renderTable() {
    const manage = allowed('products.manage');
    if (!this.loading && this.products.length === 0 && !this.error) {
      return html`<div class="card"><p><strong>No ${this.status === 'all' ? '' : this.status === 'active' ? 'active ' : 'deactivated '}products yet.</strong></p>
        <p class="muted">${manage ? 'Define a product: its limits and pricing apply to every loan your integration creates with it.' : 'An owner or admin of your organisation defines products.'}</p></div>`;
    }
    return html`<div class="table-wrap has-cards" tabindex="0" role="region" aria-label="Loan products"><table class="cards">
      <thead><tr><th scope="col">Code</th><th scope="col">Name</th><th scope="col">Status</th><th scope="col" class="num">Rate a year</th><th scope="col">Amounts</th><th scope="col">Tenor</th><th scope="col">Pool</th><th scope="col">Updated</th>${manage ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : nothing}</tr></thead>
      <tbody>${this.products.map(
        (p) => html`<tr>
          <td data-label="Code"><code>${p.code}</code></td>
          <td data-label="Name"><span>${p.name}</span></td>
          <td data-label="Status">${p.isActive ? html`<span class="badge ok">Active</span>` : html`<span class="badge">Deactivated</span>`}</td>
          <td class="num" data-label="Rate a year">${pct(p.interestRateBps)}%</td>
          <td data-label="Amounts"><span>${naira(p.minAmountKobo)} – ${naira(p.maxAmountKobo)}</span></td>
          <td data-label="Tenor"><span>${p.minTenorDays}–${p.maxTenorDays} days</span></td>
          <td data-label="Pool">${p.capitalPoolCode ? html`<code>${p.capitalPoolCode}</code>` : '—'}</td>
          <td data-label="Updated"><span>${when(p.updatedAt)}</span></td>
          ${manage
            ? html`<td class="actions"><div class="row">
                <button type="button" class="secondary" aria-label="Edit ${p.code}" @click=${() => this.open(p)}>Edit</button>
                ${p.isActive ? html`<button type="button" class="secondary" aria-label="Deactivate ${p.code}" @click=${() => this.deactivate(p)}>Deactivate</button>` : nothing}
              </div></td>`
            : nothing}
        </tr>`,
      )}</tbody>
    </table></div>
    ${this.nextCursor ? html`<p><button type="button" class="secondary" ?disabled=${this.loading} @click=${() => this.load(true)}>${this.loading ? 'Loading…' : 'Load more'}</button></p>` : nothing}`;
  }

  override render() {
    return html`<h1 tabindex="-1">Products</h1>
      <p class="muted">The loan products your integration lends with. Partners read them over the API (<code>GET /v1/products</code>); they are the same in test and live mode.</p>
      <div class="spread toolbar">
        <div class="row">
          <label for="status">Show</label>
          <select id="status" @change=${(e: Event) => ((this.status = (e.target as HTMLSelectElement).value as typeof this.status), void this.load())}>
            <option value="all" ?selected=${this.status === 'all'}>All products</option>
            <option value="active" ?selected=${this.status === 'active'}>Active</option>
            <option value="inactive" ?selected=${this.status === 'inactive'}>Deactivated</option>
          </select>
        </div>
        ${allowed('products.manage') && this.editing === null ? html`<button type="button" @click=${() => this.open('new')}>Define a product</button>` : nothing}
      </div>
      ${this.done ? html`<p role="status" class="notice">${this.done}</p>` : nothing}
      ${this.error ? html`<p role="alert" class="error">${this.error}</p>` : nothing}
      ${this.renderForm()}
      ${this.loading && this.products.length === 0 ? html`<p class="muted" role="status">Loading products…</p>` : this.renderTable()}`;
  }
}
customElements.define('dash-products-page', DashProductsPage);
