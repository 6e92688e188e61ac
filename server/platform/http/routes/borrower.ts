import { z } from 'zod';
import type { BorrowerScope } from '../../domain/borrower-loans/borrower-session';
import { revokeBorrowerSession } from '../../domain/borrower-loans/borrower-session';
import { getBorrowerLoan, listBorrowerLoans } from '../../domain/borrower-loans/borrower-loans';
import { payNow } from '../../domain/borrower-loans/pay-now';
import { createSettlementQuote, getSettlementQuote, paySettlementQuote } from '../../domain/borrower-loans/settlement-quotes';
import { AppError } from '../../domain/errors';
import { defineRoute, type HandlerContext } from '../route';
import { IdParams, KoboAmount, Uuid } from '../schemas';
import { BorrowerLoanSchema, BorrowerLoanSummarySchema, BorrowerPaymentSchema, BorrowerSessionSchema, MandateReplacementSchema, SettlementPaymentSchema, SettlementQuoteSchema } from '../borrower-schemas';
import { BankAccountInput, BankAccountSchema, BankSchema } from '../checkout-schemas';
import { activateMandateReplacement, resolveReplacementAccount, startMandateReplacement } from '../../domain/borrower-loans/mandate-replacements';

type Ctx = HandlerContext<unknown, unknown, unknown>;

const borrowerOf = (ctx: Pick<Ctx, 'auth'>): BorrowerScope => ctx.auth.borrowerSession!;

/** Money moves once per Idempotency-Key: a borrower's payment routes refuse a request without one. */
function requireIdempotencyKey(ctx: Pick<Ctx, 'req'>): void {
  if (!ctx.req.get('idempotency-key')) {
    throw new AppError('invalid_request', 'header.Idempotency-Key: required on payments (one per payment the borrower means to make; a retry sends the same key).');
  }
}

const SESSION_ERRORS = ['borrower_session_ended', 'credential_not_allowed'] as const;
const PAYMENT_ERRORS = ['payment_in_progress', 'payment_refused', 'repayment_method_unavailable', 'invalid_loan_state', 'provider_not_configured'] as const;
const QuoteParams = IdParams.extend({ quoteId: Uuid.meta({ description: 'Settlement quote id.' }) });
const ReplacementParams = IdParams.extend({ replacementId: Uuid.meta({ description: 'Change of bank account id.' }) });
const LOOKUP_ERRORS = ['bank_not_found', 'account_number_invalid', 'account_not_found', 'bank_lookup_unavailable'] as const;

/** The borrower's own loans: `Authorization: BorrowerSession <token>`, the session's phone's loans at its lender only. */
export const borrowerRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/borrower/loans',
    operationId: 'listBorrowerLoans',
    tag: 'Borrower',
    summary: 'My loans',
    description: 'The loans of the session\'s phone at the session\'s lender (and mode), once lent, newest first: status, outstanding, and the next debit.',
    access: 'borrowerSession',
    response: { status: 200, description: 'The loans.', data: z.array(BorrowerLoanSummarySchema) },
    errors: [...SESSION_ERRORS],
    async handle(ctx) {
      return { message: 'Your loans', data: await listBorrowerLoans(ctx.db, borrowerOf(ctx), ctx.now) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/borrower/loans/{id}',
    operationId: 'getBorrowerLoan',
    tag: 'Borrower',
    summary: 'What I owe on one loan',
    description:
      'Status, outstanding, the next debit (date and amount), the schedule with each instalment `paid`, `due` or `late`, the repayments, the lender\'s contact, a fresh signed link to the offer letter, ' +
      'what pay now accepts and the product\'s early-settlement rule. Another lender\'s loan, or one that is not the phone\'s: 404.',
    access: 'borrowerSession',
    params: IdParams,
    response: { status: 200, description: 'The loan.', data: BorrowerLoanSchema },
    errors: [...SESSION_ERRORS, 'NOT_FOUND', 'INVALID_ID'],
    async handle(ctx) {
      return { message: 'Your loan', data: await getBorrowerLoan(ctx.db, ctx.platform, borrowerOf(ctx), ctx.params.id, ctx.now) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/borrower/loans/{id}/payments',
    operationId: 'payBorrowerLoan',
    tag: 'Borrower',
    summary: 'Pay now',
    description:
      'Charges `amountKobo` once on the loan\'s direct debit and applies it by the repayment rules (oldest instalment first, fee → interest → principal); a receipt is texted. ' +
      '`amountKobo`: at least ₦100 (10,000 kobo, or the whole outstanding when less), at most the outstanding (422 `payment_amount_out_of_range` with `data.minKobo`/`maxKobo`). ' +
      '**Idempotency-Key is required**: the same key replays the first answer. While another payment on the loan is being collected (another tab, a scheduled debit): 409 `payment_in_progress`, nothing charged. ' +
      'The bank refuses: 422 `payment_refused` (`data.reason`, `data.lender`), nothing taken, nothing changed. 201 when the payment is applied; 202 (`status: pending`) when the bank has not answered yet (the receipt is texted once the payment is applied). ' +
      'The partner\'s API lists it among the loan\'s repayments with `initiatedBy: borrower`.',
    access: 'borrowerSession',
    transactional: false,
    params: IdParams,
    body: z.object({ amountKobo: KoboAmount.min(1) }).strict(),
    response: { status: 201, description: 'The payment.', data: BorrowerPaymentSchema },
    errors: [...SESSION_ERRORS, 'NOT_FOUND', 'INVALID_ID', 'payment_amount_out_of_range', ...PAYMENT_ERRORS],
    async handle(ctx) {
      requireIdempotencyKey(ctx);
      const data = await payNow(ctx.platform, borrowerOf(ctx), { loanId: ctx.params.id, amountKobo: ctx.body.amountKobo, now: ctx.now });
      return data.status === 'completed' ? { status: 201, message: 'Payment received', data } : { status: 202, message: 'Payment sent to your bank', data };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/borrower/loans/{id}/settlement-quotes',
    operationId: 'createSettlementQuote',
    tag: 'Borrower',
    summary: 'What paying off today costs',
    description:
      'A quote under the loan\'s product rule (`earlySettlement`): the unpaid principal, the fees of instalments already due, interest to date (or as scheduled) and any settlement fee; ' +
      'valid to the end of the Lagos day and stored, so paying it charges exactly its `totalKobo`. Writes `loan.settlement_quote.created`. A loan that owes nothing or is not lent: 409 `invalid_loan_state`.',
    access: 'borrowerSession',
    params: IdParams,
    body: z.object({}).strict().meta({ description: 'Empty.' }),
    response: { status: 201, description: 'The quote.', data: SettlementQuoteSchema },
    errors: [...SESSION_ERRORS, 'NOT_FOUND', 'INVALID_ID', 'invalid_loan_state'],
    async handle(ctx) {
      const data = await createSettlementQuote({ db: ctx.db, platform: ctx.platform, now: ctx.now, scope: ctx.auth, actor: 'borrower' }, borrowerOf(ctx), ctx.params.id);
      return { status: 201, message: 'Settlement quote', data };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/borrower/loans/{id}/settlement-quotes/{quoteId}',
    operationId: 'getSettlementQuote',
    tag: 'Borrower',
    summary: 'A settlement quote',
    access: 'borrowerSession',
    params: QuoteParams,
    response: { status: 200, description: 'The quote, with its status now.', data: SettlementQuoteSchema },
    errors: [...SESSION_ERRORS, 'NOT_FOUND', 'INVALID_ID'],
    async handle(ctx) {
      return { message: 'Settlement quote', data: await getSettlementQuote(ctx.db, borrowerOf(ctx), ctx.params.id, ctx.params.quoteId, ctx.now) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/borrower/loans/{id}/settlement-quotes/{quoteId}/pay',
    operationId: 'paySettlementQuote',
    tag: 'Borrower',
    summary: 'Pay off early',
    description:
      'Charges the quote\'s `totalKobo` once on the direct debit. Taken: the waived interest and fees come off the schedule, the payment settles every instalment, the loan is `completed` ' +
      '(`loan.settlement_quote.paid`, `loan.repayment.completed`, `loan.completed`), the mandate is cancelled and a receipt is texted (201). The bank has not answered yet: 202, quote `paying` (the receipt is texted once the payment is applied). ' +
      '**Idempotency-Key is required.** Its Lagos day is over: 409 `settlement_quote_expired`; the loan changed since: 409 `settlement_quote_stale`; the bank refuses: 422 `payment_refused`, nothing changed (the quote can be paid again the same day).',
    access: 'borrowerSession',
    transactional: false,
    params: QuoteParams,
    body: z.object({}).strict().meta({ description: 'Empty.' }),
    response: { status: 201, description: 'The quote and the loan after it.', data: SettlementPaymentSchema },
    errors: [...SESSION_ERRORS, 'NOT_FOUND', 'INVALID_ID', 'settlement_quote_expired', 'settlement_quote_stale', ...PAYMENT_ERRORS],
    async handle(ctx) {
      requireIdempotencyKey(ctx);
      const data = await paySettlementQuote(ctx.platform, borrowerOf(ctx), { loanId: ctx.params.id, quoteId: ctx.params.quoteId, now: ctx.now });
      return data.quote.status === 'paid' ? { status: 201, message: 'Loan paid off', data } : { status: 202, message: 'Payment sent to your bank', data };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/borrower/banks',
    operationId: 'listBorrowerBanks',
    tag: 'Borrower',
    summary: 'Bank list',
    description: 'The institutions a borrower can name for their debit account: the checkout\'s list (`GET /v1/checkout/banks`, source in `docs/banks.md`).',
    access: 'borrowerSession',
    response: { status: 200, description: 'Banks.', data: z.array(BankSchema) },
    errors: [...SESSION_ERRORS],
    async handle({ platform }) {
      return { message: 'Banks', data: platform.banks };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/borrower/loans/{id}/bank-account/resolve',
    operationId: 'resolveBorrowerBankAccount',
    tag: 'Borrower',
    summary: 'Look up an account name',
    description:
      'As the checkout\'s `POST /v1/checkout/bank-account/resolve`: the bank code (422 `bank_not_found`), the NUBAN check digit (422 `account_number_invalid`), the bank\'s name for the account ' +
      '(422 `account_not_found`, 502 `bank_lookup_unavailable`), compared with the borrower\'s name on record (`nameMatch`: `match`, `partial` or `mismatch`; a `mismatch` cannot become the debit account). ' +
      'Stores nothing. The sandbox\'s magic account numbers are the checkout\'s.',
    access: 'borrowerSession',
    transactional: false,
    params: IdParams,
    body: BankAccountInput,
    response: { status: 200, description: 'The account with its name.', data: BankAccountSchema },
    errors: [...SESSION_ERRORS, 'NOT_FOUND', 'INVALID_ID', ...LOOKUP_ERRORS],
    async handle(ctx) {
      return { message: 'Account found', data: await resolveReplacementAccount(ctx.platform, borrowerOf(ctx), ctx.params.id, ctx.body) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/borrower/loans/{id}/mandate-replacements',
    operationId: 'createMandateReplacement',
    tag: 'Borrower',
    summary: 'Change my bank account',
    description:
      'Moves the loan\'s direct debit to another account of the borrower\'s: the account is checked as at checkout (a name `mismatch` is 409 `account_name_mismatch`; the account debited now is 409 `bank_account_unchanged`), ' +
      'then a new mandate is set up on the loan\'s rail: send the borrower to `authorizationUrl`; the rail sends them back to `returnUrl` with `loan` and `replacement` added, then call `…/activate`. ' +
      'Only a lent loan that still owes and has an active direct debit (409 `invalid_loan_state`, 422 `repayment_method_unavailable`). The old mandate keeps collecting until the new one is active. ' +
      '**One pending change per loan**: the same account again answers the pending one (200); another account withdraws the pending one and sets up a fresh one (201); two at the same moment: 409 `mandate_replacement_pending`. ' +
      '`email` for the rail defaults to the current mandate\'s. Live: 503 `provider_not_configured` without a live rail.',
    access: 'borrowerSession',
    transactional: false,
    params: IdParams,
    body: BankAccountInput.extend({
      email: z.email().max(150).optional(),
      returnUrl: z.url({ protocol: /^https?$/ }).max(2000).optional().meta({ description: 'Where the rail sends the borrower back (the loan page, e.g. `/my-loan` of the checkout server).' }),
    }).strict(),
    response: { status: 201, description: 'The change, pending (200 when it was pending already).', data: MandateReplacementSchema },
    errors: [
      ...SESSION_ERRORS,
      'NOT_FOUND',
      'INVALID_ID',
      ...LOOKUP_ERRORS,
      'account_name_mismatch',
      'bank_account_unchanged',
      'mandate_replacement_pending',
      'invalid_loan_state',
      'repayment_method_unavailable',
      'rail_unavailable',
      'provider_not_configured',
    ],
    async handle(ctx) {
      const { replacement, created } = await startMandateReplacement(ctx.platform, borrowerOf(ctx), { loanId: ctx.params.id, ...ctx.body, now: ctx.now });
      return { status: created ? 201 : 200, message: created ? 'Approve the new direct debit at your bank: send the borrower to authorizationUrl' : 'This change is already waiting for your bank', data: replacement };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/borrower/loans/{id}/mandate-replacements/{replacementId}/activate',
    operationId: 'activateMandateReplacement',
    tag: 'Borrower',
    summary: 'Confirm the new bank account',
    description:
      'Reads the new mandate back from the rail (after the borrower returns from its page), as the checkout\'s activation does. Active: it takes over in one transaction (the loan is collected from it, the old mandate is cancelled, ' +
      '`mandate.active` and `loan.mandate.replaced`), and the rail is told to cancel the old one (retried by the mandate sweep). While a debit is in flight on the old mandate the takeover waits (`stage: awaiting_charge`) so no instalment is charged twice. ' +
      'Not approved yet: `pending`, try again shortly. Refused, failed or expired at the bank: 409 `mandate_declined`, `mandate_failed` or `mandate_expired` with `data` `{replacementId, status, reason}`; the old mandate stays and a new change can be started.',
    access: 'borrowerSession',
    transactional: false,
    params: ReplacementParams,
    body: z.object({}).strict().meta({ description: 'Empty.' }),
    response: { status: 200, description: 'The change, as the rail has it now.', data: MandateReplacementSchema },
    errors: [...SESSION_ERRORS, 'NOT_FOUND', 'INVALID_ID', 'mandate_declined', 'mandate_failed', 'mandate_expired', 'rail_unavailable', 'provider_not_configured'],
    async handle(ctx) {
      const data = await activateMandateReplacement(ctx.platform, borrowerOf(ctx), { loanId: ctx.params.id, replacementId: ctx.params.replacementId, now: ctx.now });
      return { message: data.status === 'active' ? 'Your loan is now debited from the new account' : 'Waiting for your bank', data };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/borrower/sign-out',
    operationId: 'borrowerSignOut',
    tag: 'Borrower',
    summary: 'Sign out',
    description: 'Revokes the session whose token made the call.',
    access: 'borrowerSession',
    body: z.object({}).strict().meta({ description: 'Empty.' }),
    response: { status: 200, description: 'The revoked session.', data: BorrowerSessionSchema },
    errors: [...SESSION_ERRORS],
    async handle(ctx) {
      const scope = borrowerOf(ctx);
      return { message: 'Signed out', data: await revokeBorrowerSession(ctx.db, scope, scope.sessionId, ctx.now) };
    },
  }),
];
