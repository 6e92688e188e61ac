/**
 * The closed value sets of a loan product's fields (the spec's LoanProduct). The domain's `ProductInputSchema`
 * (`domain/products/product.ts`) validates with them; the dashboard's product form offers them. One list each.
 */
export const APPROVAL_MODES = ['tenant', 'auto_credit_score', 'myitura_analyst', 'partner_pushed'] as const;
export const KYC_TIERS = ['delegated', 'managed'] as const;
export const INTEREST_MODELS = ['flat', 'reducing_balance'] as const;
export const INSURANCE_MODES = ['automatic', 'manual', 'off'] as const;
export const PREMIUM_BEARERS = ['borrower', 'tenant'] as const;
export const SETTLEMENT_DESTINATIONS = ['borrower_wallet', 'borrower_bank_account', 'merchant_wallet', 'tenant_wallet'] as const;
export const REPAYMENT_FREQUENCIES = ['daily', 'weekly', 'biweekly', 'monthly'] as const;

/** A product's code: the partner's short identifier, unique in its organisation (the API's `code`, at most 50). */
export const PRODUCT_CODE = /^[A-Za-z0-9_-]{1,50}$/;
export const PRODUCT_CODE_RULE = 'use letters, digits, _ and - only (no spaces), at most 50, e.g. SALARY_30';
