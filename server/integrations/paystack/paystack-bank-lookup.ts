import { z } from 'zod';
import type { AccountLookup, AccountLookupRequest, Bank, BankLookup } from '../bank-lookup';
import { NIGERIAN_BANKS } from '../banks';
import { ProviderError } from '../provider-http';
import { maskAccountNumber, PAYSTACK_PROVIDER, type PaystackHttp } from './paystack-http';

/**
 * Account-name enquiry through Paystack: `GET /bank/resolve?account_number=&bank_code=`
 * (https://paystack.com/docs/api/verification/#resolve-account) → `data.account_name`.
 *
 * Paystack answers an account it cannot resolve with a refusal ("Could not resolve account name.
 * Check parameters or try again.", HTTP 422): that is the bank's "no such account", so `{found:false}`.
 * Everything else that is not an answer (5xx, timeout, bad key, circuit open) throws `ProviderError`:
 * the platform maps it to `bank_lookup_unavailable` and must not tell the borrower the account does
 * not exist. A read: retried with backoff.
 *
 * The bank list stays the platform's static `NIGERIAN_BANKS` (reviewed data, see banks.ts), not
 * Paystack's `GET /bank`, so that the checkout offers the same list whichever provider answers.
 * `mode` is ignored: the secret key decides test or live at Paystack.
 */
export interface PaystackBankLookupOptions {
  /** Our `Bank.code` → Paystack's bank code; identity by default (the 3-digit CBN codes are Paystack's; check the 6-digit NIP codes against Paystack's list before going live). */
  bankCodeFor?: (bankCode: string) => string;
}

const Resolved = z.object({ account_name: z.string().min(1) }).passthrough();

export class PaystackBankLookup implements BankLookup {
  constructor(
    private readonly http: PaystackHttp,
    private readonly options: PaystackBankLookupOptions = {},
  ) {}

  listBanks(): readonly Bank[] {
    return NIGERIAN_BANKS;
  }

  async resolveAccount(request: AccountLookupRequest): Promise<AccountLookup> {
    const bankCode = this.options.bankCodeFor?.(request.bankCode) ?? request.bankCode;
    try {
      const data = await this.http.request({
        action: `resolve the account ${maskAccountNumber(request.accountNumber)} at bank ${bankCode}`,
        method: 'GET',
        path: '/bank/resolve',
        query: { account_number: request.accountNumber, bank_code: bankCode },
        data: Resolved,
        idempotent: true,
      });
      return { found: true, accountName: data.account_name.trim() };
    } catch (error) {
      if (isUnresolved(error)) return { found: false };
      throw error;
    }
  }
}

/**
 * Paystack's "could not resolve" answer: a 422, or a refusal carrying Paystack's own words (matched
 * in full: the client's message also says "could not resolve the account" for every failure). A bad
 * key (401), an unknown bank code (400, a mapping problem) or Paystack's own failure never is.
 */
const isUnresolved = (error: unknown) =>
  error instanceof ProviderError &&
  error.provider === PAYSTACK_PROVIDER &&
  error.httpStatus !== null &&
  error.httpStatus < 500 &&
  error.httpStatus !== 401 &&
  error.httpStatus !== 429 &&
  error.code !== 'provider_bad_response' &&
  (error.httpStatus === 422 || /could not resolve account name/i.test(error.message));
