import crypto from 'node:crypto';
import type { ProductInput } from '../../server/platform/domain/products/product';

/** A valid product definition with a unique code; override any field. */
export function productInput(overrides: Partial<ProductInput> = {}): ProductInput {
  return {
    code: `P_${crypto.randomBytes(4).toString('hex').toUpperCase()}`,
    name: 'Test product',
    kycTier: 'delegated',
    approvalMode: 'partner_pushed',
    interestModel: 'flat',
    interestRateBps: 3600,
    minAmountKobo: 100_000,
    maxAmountKobo: 100_000_000,
    minTenorDays: 7,
    maxTenorDays: 365,
    settlementDestination: 'borrower_bank_account',
    capitalPoolCode: 'MAIN',
    ...overrides,
  };
}
