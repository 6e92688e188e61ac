import type { Db, Executor } from '../../db/database';
import { NAME_MISMATCH_POLICIES, type NameMismatchPolicy } from '../../../shared/name-mismatch-policy';
import { invalidState } from '../loans/loan';
import type { LoanContext } from '../loans/loan-context';
import { NAME_REVIEW_FROM, parkForNameReview } from '../reviews/open-name-mismatch-review';
import type { Bank, BankLookup } from '../ports';
import type { Mode } from '../scope';
import { AppError } from '../errors';
import { isValidNuban, NUBAN_PATTERN } from '../payouts/nuban';
import { requireOtpVerified, getSessionRow, type CheckoutScope } from './checkout-session';
import { borrowerNameOnRecord, checkName, scorePercent, type NameCheck } from './ownership';

export interface BankAccount {
  bankCode: string;
  bankName: string;
  accountNumber: string;
  accountName: string;
}

/** A looked-up account and how its name compares with the borrower's name on record. */
export interface CheckedBankAccount extends BankAccount {
  nameMatch: NameCheck;
}

/** A captured account: `nameConfirmed` when the borrower confirmed a mismatching name as their own account. */
export interface CapturedBankAccount extends CheckedBankAccount {
  nameConfirmed: boolean;
}

/** Ten digits, and the NUBAN check digit where the institution's account numbers are NUBANs (`Bank.nubanCode`). */
export function isValidAccountNumber(bank: Pick<Bank, 'nubanCode'>, accountNumber: string): boolean {
  return bank.nubanCode ? isValidNuban(bank.nubanCode, accountNumber) : NUBAN_PATTERN.test(accountNumber);
}

/**
 * Checks the bank code against the list and the account number against the NUBAN check digit,
 * then asks the lookup provider for the account name. Nothing is stored. `sandboxHolderName` is the
 * sandbox's hint (who is asking); real providers ignore it.
 */
export async function resolveBankAccount(
  bankLookup: BankLookup,
  request: { bankCode: string; accountNumber: string; mode: Mode; sandboxHolderName?: string },
): Promise<BankAccount> {
  const bank = bankLookup.listBanks().find((b) => b.code === request.bankCode);
  if (!bank) throw new AppError('bank_not_found', `No bank with code ${request.bankCode}; pick one from the bank list.`);
  if (!isValidAccountNumber(bank, request.accountNumber)) {
    throw new AppError('account_number_invalid', 'That is not a valid account number for this bank (NUBAN check digit); check the 10 digits.');
  }
  let found;
  try {
    found = await bankLookup.resolveAccount(request);
  } catch (error) {
    throw new AppError('bank_lookup_unavailable', 'The bank could not be asked for the account name right now; try again shortly.', { reason: (error as Error).message });
  }
  if (!found.found) throw new AppError('account_not_found', `${bank.name} has no account with this number; check it and try again.`);
  return { bankCode: bank.code, bankName: bank.name, accountNumber: request.accountNumber, accountName: found.accountName };
}

/** Resolves the account and compares its name with the borrower's name on record (the checkout's and the loan page's ownership check). */
export async function checkAccountOwnership(
  db: Executor,
  bankLookup: BankLookup,
  borrower: { borrowerId: string; mode: Mode },
  request: { bankCode: string; accountNumber: string },
): Promise<CheckedBankAccount> {
  const nameOnRecord = await borrowerNameOnRecord(db, borrower);
  const account = await resolveBankAccount(bankLookup, { ...request, mode: borrower.mode, sandboxHolderName: nameOnRecord });
  return { ...account, nameMatch: checkName(account.accountName, nameOnRecord) };
}

async function checkedAccount(db: Executor, bankLookup: BankLookup, scope: CheckoutScope, request: { bankCode: string; accountNumber: string }): Promise<CheckedBankAccount> {
  requireOtpVerified(await getSessionRow(db, scope));
  return checkAccountOwnership(db, bankLookup, scope, request);
}

/**
 * The lookup for a session: only once the phone is verified (the name of someone's account is not
 * for anyone with the link), with the name compared with the borrower's.
 */
export async function resolveBankAccountForSession(
  db: Executor,
  bankLookup: BankLookup,
  scope: CheckoutScope,
  request: { bankCode: string; accountNumber: string },
): Promise<CheckedBankAccount> {
  return checkedAccount(db, bankLookup, scope, request);
}

/**
 * Resolves the account and keeps it on the session for the mandate step, with how its name
 * compared. Loans are paid into and collected from the borrower's own account: an account in
 * another name (`mismatch`) is kept only when the borrower confirms it is theirs
 * (`confirmNameMismatch`, e.g. a business or a name changed at marriage); otherwise 409
 * `account_name_mismatch` and nothing is stored. What a confirmed one does is the product's
 * `nameMismatchPolicy`: `allow` keeps it; `review` keeps it and parks the loan `under_review` with a
 * `name_mismatch` review (a person decides; meanwhile no other account is taken: 409
 * `invalid_loan_state`); `refuse` answers 409 `account_name_mismatch` even so. A `partial` match
 * (initials, one name) is kept. Another account may replace it until the direct debit is active
 * (after a refused mandate, "Use another bank account"); then 409 `bank_account_locked`.
 */
export async function captureBankAccount(
  db: Db,
  bankLookup: BankLookup,
  scope: CheckoutScope,
  request: { bankCode: string; accountNumber: string; confirmNameMismatch?: boolean },
  now: Date,
  /** What a name review needs to open (its loan event): the platform's services and who is acting. */
  services: Pick<LoanContext, 'platform' | 'actor'>,
): Promise<CapturedBankAccount> {
  const { confirmNameMismatch, ...lookup } = request;
  const loan = await db.selectFrom('loans').selectAll().where('id', '=', scope.loanId).executeTakeFirstOrThrow();
  if (loan.hasActiveMandate) throw new AppError('bank_account_locked', 'The direct debit is already active on the account given; ask the lender to change it.');
  if (loan.status === 'under_review') throw invalidState(loan.status, 'terms_accepted');
  const account = await checkedAccount(db, bankLookup, scope, lookup);
  const mismatch = account.nameMatch.status === 'mismatch';
  const policy = mismatch ? await nameMismatchPolicyOf(db, loan.loanProductId) : 'allow';
  // A review can only return the loan to where it was given an account; anywhere else, the account is refused instead.
  const parkable = (NAME_REVIEW_FROM as readonly string[]).includes(loan.status);
  if (mismatch && confirmNameMismatch === true && (policy === 'refuse' || (policy === 'review' && !parkable))) {
    throw new AppError(
      'account_name_mismatch',
      `This account is in the name ${account.accountName}, not ${account.nameMatch.nameOnRecord}, and this lender only pays into and collects from an account in the borrower's own name: give an account in that name.`,
      undefined,
      { accountName: account.accountName, bankName: account.bankName, nameMatch: account.nameMatch, policy: 'refuse' },
    );
  }
  if (mismatch && confirmNameMismatch !== true) {
    throw new AppError(
      'account_name_mismatch',
      `This account is in the name ${account.accountName}, not ${account.nameMatch.nameOnRecord}. Loans are paid into and collected from the borrower's own account: confirm it is theirs (confirmNameMismatch: true) or give another account.`,
      undefined,
      { accountName: account.accountName, bankName: account.bankName, nameMatch: account.nameMatch },
    );
  }
  const at = now.toISOString();
  const { nameMatch, ...kept } = account;
  const keep = async (executor: Executor) => {
    await executor
      .updateTable('checkoutSessions')
      .set({
        ...kept,
        bankCapturedAt: at,
        accountNameMatch: nameMatch.status,
        accountNameMatchScore: scorePercent(nameMatch),
        accountNameOnRecord: nameMatch.nameOnRecord,
        accountNameConfirmedAt: mismatch ? at : null,
        updatedAt: at,
      })
      .where('id', '=', scope.sessionId)
      .execute();
  };
  if (mismatch && policy === 'review') {
    await parkForNameReview(db, { ...services, now, scope: { organisationId: scope.organisationId, mode: scope.mode } }, loan, account, { confirmedAt: at, keep });
  } else {
    await keep(db);
  }
  return { ...account, nameConfirmed: mismatch };
}

async function nameMismatchPolicyOf(db: Executor, productId: string): Promise<NameMismatchPolicy> {
  const product = await db.selectFrom('loanProducts').select('nameMismatchPolicy').where('id', '=', productId).executeTakeFirst();
  return (NAME_MISMATCH_POLICIES as readonly string[]).includes(product?.nameMismatchPolicy ?? '') ? (product!.nameMismatchPolicy as NameMismatchPolicy) : 'allow';
}

/** The bank account captured for this loan by its latest checkout session that captured one. */
export async function capturedBankAccount(db: Executor, loanId: string): Promise<BankAccount | undefined> {
  const row = await db
    .selectFrom('checkoutSessions')
    .select(['bankCode', 'bankName', 'accountNumber', 'accountName'])
    .where('loanId', '=', loanId)
    .where('bankCapturedAt', 'is not', null)
    .orderBy('bankCapturedAt', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { bankCode: row.bankCode!, bankName: row.bankName!, accountNumber: row.accountNumber!, accountName: row.accountName! } : undefined;
}
