import type { Executor } from '../../db/database';
import type { BankLookup } from '../../../integrations/bank-lookup';
import type { Mode } from '../../db/schema';
import { AppError } from '../errors';
import { isValidNuban } from '../payouts/nuban';
import { requireOtpVerified, getSessionRow, type CheckoutScope } from './checkout-session';

export interface BankAccount {
  bankCode: string;
  bankName: string;
  accountNumber: string;
  accountName: string;
}

/**
 * Checks the bank code against the list and the account number against the NUBAN check digit,
 * then asks the lookup provider for the account name. Nothing is stored.
 */
export async function resolveBankAccount(
  bankLookup: BankLookup,
  request: { bankCode: string; accountNumber: string; mode: Mode },
): Promise<BankAccount> {
  const bank = bankLookup.listBanks().find((b) => b.code === request.bankCode);
  if (!bank) throw new AppError('bank_not_found', `No bank with code ${request.bankCode}; pick one from the bank list.`);
  if (!isValidNuban(request.bankCode, request.accountNumber)) {
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

/** The lookup for a session: only once the phone is verified (the name of someone's account is not for anyone with the link). */
export async function resolveBankAccountForSession(
  db: Executor,
  bankLookup: BankLookup,
  scope: CheckoutScope,
  request: { bankCode: string; accountNumber: string },
): Promise<BankAccount> {
  requireOtpVerified(await getSessionRow(db, scope));
  return resolveBankAccount(bankLookup, { ...request, mode: scope.mode });
}

/**
 * Resolves the account and keeps it on the session for the mandate step (the borrower has confirmed
 * the name). Another account may replace it until the direct debit is active (after a refused
 * mandate, "Use another bank account"); then 409 `bank_account_locked`.
 */
export async function captureBankAccount(
  db: Executor,
  bankLookup: BankLookup,
  scope: CheckoutScope,
  request: { bankCode: string; accountNumber: string },
  now: Date,
): Promise<BankAccount> {
  requireOtpVerified(await getSessionRow(db, scope));
  const loan = await db.selectFrom('loans').select('hasActiveMandate').where('id', '=', scope.loanId).executeTakeFirstOrThrow();
  if (loan.hasActiveMandate) throw new AppError('bank_account_locked', 'The direct debit is already active on the account given; ask the lender to change it.');
  const account = await resolveBankAccount(bankLookup, { ...request, mode: scope.mode });
  const at = now.toISOString();
  await db
    .updateTable('checkoutSessions')
    .set({ ...account, bankCapturedAt: at, updatedAt: at })
    .where('id', '=', scope.sessionId)
    .execute();
  return account;
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
