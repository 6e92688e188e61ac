import type { Executor } from '../../db/database';
import { applicationSessionExpiry } from '../checkout/checkout-session';
import type { Secrets } from '../secrets';
import { getLoanRow, toLoan, type Loan, type Scope } from './loan';

/** The Loan as `GET /v1/loans/{id}` shows it: the resource plus when the link behind `applicationUrl` stops working. */
export interface LoanDetail extends Loan {
  checkoutSession: { expiresAt: string; maxExpiresAt: string; revokedAt: string | null } | null;
}

export async function getLoanDetail(db: Executor, secrets: Pick<Secrets, 'hmac' | 'decrypt'>, scope: Scope, id: string): Promise<LoanDetail> {
  const row = await getLoanRow(db, scope, id);
  return { ...toLoan(row, secrets), checkoutSession: await applicationSessionExpiry(db, secrets, row) };
}
