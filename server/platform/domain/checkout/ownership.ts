import type { Executor } from '../../db/database';
import { matchNames, type NameMatch } from '../../../shared/name-match';
import { AppError } from '../errors';
import type { CheckoutScope } from './checkout-session';

/**
 * Ownership checks: is the account the borrower gives theirs, and is the name they sign with
 * theirs? Both compare with the borrower's name on record (what the lender sent with the
 * decision) using `matchNames` (order, middle names, initials, titles and accents tolerated).
 */
export interface NameCheck extends NameMatch {
  /** The borrower's name on record it was compared with. */
  nameOnRecord: string;
}

/** The session borrower's name on record, "First Last". */
export async function borrowerNameOnRecord(db: Executor, scope: Pick<CheckoutScope, 'borrowerId'>): Promise<string> {
  const row = await db.selectFrom('borrowers').select(['firstName', 'lastName']).where('id', '=', scope.borrowerId).executeTakeFirstOrThrow();
  return `${row.firstName} ${row.lastName}`.trim();
}

export const checkName = (given: string, nameOnRecord: string): NameCheck => ({ ...matchNames(given, nameOnRecord), nameOnRecord });

/** Scores are kept as whole percentages. */
export const scorePercent = (check: NameMatch) => Math.round(check.score * 100);

/**
 * The signature rule: the typed name must be the borrower's. A `match` signs; a `partial` (an
 * initial, or one name: "A. Okafor", "Amaka") signs only when the borrower confirms it
 * (`confirmed`), since a partial name is still plausibly theirs; a `mismatch` never signs.
 */
export function requireSignatureName(check: NameCheck, confirmed: boolean): void {
  const data = { nameMatch: check };
  if (check.status === 'mismatch') {
    throw new AppError(
      'signature_name_mismatch',
      `The name typed as the signature is not the borrower's name on record (${check.nameOnRecord}); the borrower signs with their own full name.`,
      undefined,
      data,
    );
  }
  if (check.status === 'partial' && !confirmed) {
    throw new AppError(
      'signature_name_unconfirmed',
      `The name typed as the signature matches the borrower's name on record (${check.nameOnRecord}) only in part; type it in full, or send confirmSignatureName: true once the borrower confirms it is theirs.`,
      undefined,
      data,
    );
  }
}
