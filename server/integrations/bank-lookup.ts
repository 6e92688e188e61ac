import crypto from 'node:crypto';
import type { Mode } from '../platform/domain/scope';
import { matchNames } from '../shared/name-match';
import { NIGERIAN_BANKS, type Bank } from './banks';
import type { AccountLookup, AccountLookupRequest, BankLookup } from '../platform/domain/ports';

export type { AccountLookup, AccountLookupRequest, BankLookup };

export type { Bank, InstitutionType } from './banks';

const FIRST_NAMES = ['Adaeze', 'Babajide', 'Chiamaka', 'Dapo', 'Emeka', 'Funke', 'Garba', 'Halima', 'Ifeanyi', 'Jumoke', 'Kelechi', 'Lola', 'Musa', 'Ngozi', 'Olumide', 'Sade'];
const LAST_NAMES = ['Adeyemi', 'Bello', 'Chukwu', 'Danjuma', 'Eze', 'Fashola', 'Ibrahim', 'Nwosu', 'Okafor', 'Olawale', 'Onyeka', 'Usman'];

/** Serials (the first nine digits) with fixed sandbox behaviour, whatever the bank. */
export const SANDBOX_ACCOUNT_SERIALS = {
  /** The bank answers that no such account exists. */
  notFound: '999999999',
  /** The lookup provider is unreachable. */
  unavailable: '888888888',
  /** The account belongs to someone else: "ADEYEMI NGOZI" (or "OKAFOR AMAKA" when the borrower is Ngozi Adeyemi). */
  someoneElse: '777777777',
  /** The bank holds only the surname and the first initial of the borrower ("OKAFOR A."): a partial match. */
  initialOnly: '666666666',
} as const;

/** What a bank's name enquiry typically answers: SURNAME FIRSTNAME, upper case. */
const bankStyle = (fullName: string) => {
  const parts = fullName.trim().split(/\s+/);
  return [parts.at(-1), ...parts.slice(0, -1)].join(' ').toUpperCase();
};

/**
 * The sandbox lookup: the bank list, and the borrower's own name (bank style, SURNAME FIRSTNAME)
 * for any ordinary number, so that a demo shows the happy path; without `sandboxHolderName`, a
 * deterministic name derived from a hash of bank code and account number. Magic serials (the first
 * nine digits, whatever the bank): see `SANDBOX_ACCOUNT_SERIALS`. Live mode has no provider configured yet, so live lookups are refused
 * as unavailable rather than answered with invented names.
 */
export class SandboxBankLookup implements BankLookup {
  listBanks(): readonly Bank[] {
    return NIGERIAN_BANKS;
  }

  async resolveAccount(request: AccountLookupRequest): Promise<AccountLookup> {
    if (request.mode !== 'test') throw new Error('no live bank-lookup provider is configured');
    const serial = request.accountNumber.slice(0, 9);
    if (serial === SANDBOX_ACCOUNT_SERIALS.unavailable) throw new Error('sandbox: lookup provider unavailable');
    if (serial === SANDBOX_ACCOUNT_SERIALS.notFound) return { found: false };
    const holder = request.sandboxHolderName?.trim();
    if (serial === SANDBOX_ACCOUNT_SERIALS.someoneElse) {
      return { found: true, accountName: holder && matchNames('ADEYEMI NGOZI', holder).status !== 'mismatch' ? 'OKAFOR AMAKA' : 'ADEYEMI NGOZI' };
    }
    if (holder) {
      const parts = holder.split(/\s+/);
      if (serial === SANDBOX_ACCOUNT_SERIALS.initialOnly && parts.length > 1) return { found: true, accountName: `${parts.at(-1)!.toUpperCase()} ${parts[0]![0]!.toUpperCase()}.` };
      return { found: true, accountName: bankStyle(holder) };
    }
    const digest = crypto.createHash('sha256').update(`${request.bankCode}:${request.accountNumber}`).digest();
    const first = FIRST_NAMES[digest[0]! % FIRST_NAMES.length]!;
    const last = LAST_NAMES[digest[1]! % LAST_NAMES.length]!;
    return { found: true, accountName: `${last.toUpperCase()} ${first.toUpperCase()}` };
  }
}
