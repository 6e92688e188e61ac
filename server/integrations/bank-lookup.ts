import crypto from 'node:crypto';
import type { Mode } from '../platform/db/schema';

export interface Bank {
  /** CBN 3-digit bank code (the NUBAN check digit is computed with it). */
  code: string;
  name: string;
}

export type AccountLookup = { found: true; accountName: string } | { found: false };

/** Bank list and account-name enquiry (NIP name enquiry in production). */
export interface BankLookup {
  listBanks(): readonly Bank[];
  /** Throws when the provider cannot answer (mapped to `bank_lookup_unavailable`). */
  resolveAccount(request: { bankCode: string; accountNumber: string; mode: Mode }): Promise<AccountLookup>;
}

/** Deposit money banks with their CBN codes. */
export const CBN_BANKS: readonly Bank[] = [
  { code: '044', name: 'Access Bank' },
  { code: '023', name: 'Citibank Nigeria' },
  { code: '050', name: 'Ecobank Nigeria' },
  { code: '070', name: 'Fidelity Bank' },
  { code: '011', name: 'First Bank of Nigeria' },
  { code: '214', name: 'First City Monument Bank' },
  { code: '103', name: 'Globus Bank' },
  { code: '058', name: 'Guaranty Trust Bank' },
  { code: '030', name: 'Heritage Bank' },
  { code: '301', name: 'Jaiz Bank' },
  { code: '082', name: 'Keystone Bank' },
  { code: '076', name: 'Polaris Bank' },
  { code: '101', name: 'Providus Bank' },
  { code: '221', name: 'Stanbic IBTC Bank' },
  { code: '068', name: 'Standard Chartered Bank' },
  { code: '232', name: 'Sterling Bank' },
  { code: '100', name: 'SunTrust Bank' },
  { code: '102', name: 'Titan Trust Bank' },
  { code: '032', name: 'Union Bank of Nigeria' },
  { code: '033', name: 'United Bank for Africa' },
  { code: '215', name: 'Unity Bank' },
  { code: '035', name: 'Wema Bank' },
  { code: '057', name: 'Zenith Bank' },
].slice().sort((a, b) => a.name.localeCompare(b.name));

const FIRST_NAMES = ['Adaeze', 'Babajide', 'Chiamaka', 'Dapo', 'Emeka', 'Funke', 'Garba', 'Halima', 'Ifeanyi', 'Jumoke', 'Kelechi', 'Lola', 'Musa', 'Ngozi', 'Olumide', 'Sade'];
const LAST_NAMES = ['Adeyemi', 'Bello', 'Chukwu', 'Danjuma', 'Eze', 'Fashola', 'Ibrahim', 'Nwosu', 'Okafor', 'Olawale', 'Onyeka', 'Usman'];

/** Serials (the first nine digits) with fixed sandbox behaviour, whatever the bank. */
export const SANDBOX_ACCOUNT_SERIALS = {
  /** The bank answers that no such account exists. */
  notFound: '999999999',
  /** The lookup provider is unreachable. */
  unavailable: '888888888',
} as const;

/**
 * The sandbox lookup: the CBN bank list, and a deterministic account name derived from a hash of
 * bank code and account number (the same pair always gives the same name). Magic serials: see
 * `SANDBOX_ACCOUNT_SERIALS`. Live mode has no provider configured yet, so live lookups are refused
 * as unavailable rather than answered with invented names.
 */
export class SandboxBankLookup implements BankLookup {
  listBanks(): readonly Bank[] {
    return CBN_BANKS;
  }

  async resolveAccount(request: { bankCode: string; accountNumber: string; mode: Mode }): Promise<AccountLookup> {
    if (request.mode !== 'test') throw new Error('no live bank-lookup provider is configured');
    const serial = request.accountNumber.slice(0, 9);
    if (serial === SANDBOX_ACCOUNT_SERIALS.unavailable) throw new Error('sandbox: lookup provider unavailable');
    if (serial === SANDBOX_ACCOUNT_SERIALS.notFound) return { found: false };
    const digest = crypto.createHash('sha256').update(`${request.bankCode}:${request.accountNumber}`).digest();
    const first = FIRST_NAMES[digest[0]! % FIRST_NAMES.length]!;
    const last = LAST_NAMES[digest[1]! % LAST_NAMES.length]!;
    return { found: true, accountName: `${last.toUpperCase()} ${first.toUpperCase()}` };
  }
}
