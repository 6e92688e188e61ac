import type { Executor } from '../../db/database';
import { z } from 'zod';
import { approveLoan, attestLoan, rejectLoan } from '../../domain/loans/approve-loan';
import { disburseLoan } from '../../domain/loans/disburse-loan';
import { getInsurance, triggerInsurance } from '../../domain/loans/insurance';
import { getLoanRow, listLoans, toLoan } from '../../domain/loans/loan';
import { getLoanDetail } from '../../domain/loans/get-loan-detail';
import { signOfferLetterLink } from '../../domain/loans/offer-letter-link';
import { acceptTerms, cancelLoan, declineTerms } from '../../domain/loans/respond-to-offer';
import { submitKyc } from '../../domain/loans/submit-kyc';
import { AppError } from '../../domain/errors';
import { recordRepayment } from '../../domain/repayments/record-repayment';
import { REPAYMENT_METHODS, listRepayments, toScheduleItem } from '../../domain/repayments/repayment';
import { loanContext } from '../loan-context';
import { defineRoute } from '../route';
import { IdParams, limitParam } from '../schemas';
import { loanIdSuffix } from '../../../shared/loan-reference';
import {
  BorrowerConsentSchema,
  InsurancePolicySchema,
  KycAttestationSchema,
  KycInput,
  LoanKycResultSchema,
  LoanDetailSchema,
  LoanSchema,
  LoanStatusSchema,
  OfferLetterLinkSchema,
  RepaymentSchema,
  ScheduleItemSchema,
} from '../loan-schemas';

const Reason = z.string().trim().min(1).max(500);
const AttestationInput = z
  .object({
    attestedChecks: z.looseObject({}).meta({ additionalProperties: true, description: 'e.g. {bvnVerified: true, idType: "nin", idLast4: "1234", creditCheck: {...}}' }),
    schemaVersion: z.number().int().min(1).max(1000).default(1),
  })
  .strict();

const LoanReferenceParam = z
  .string()
  .max(40)
  .refine((text) => loanIdSuffix(text) !== null, 'a loan reference: eight letters and digits such as 1Q4Z-Z9YW')
  .meta({
    description: "The short loan reference shown to the borrower (`loanReference`): eight Crockford base32 characters; any case, the dash and spaces optional, O read as 0 and I or L as 1. It is the last 40 bits of the loan's id.",
    example: '1Q4Z-Z9YW',
  });

const LOAN_ERRORS = ['NOT_FOUND', 'INVALID_ID', 'invalid_loan_state'] as const;

export const loanRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/loans',
    operationId: 'listLoans',
    tag: 'Loans',
    summary: 'List loans',
    description: 'Newest first. `reference` finds a loan by the short reference its borrower reads from the checkout receipt and texts (e.g. `1Q4Z-Z9YW`).',
    access: 'tenant',
    query: z.object({ status: LoanStatusSchema.optional(), reference: LoanReferenceParam.optional(), limit: limitParam(100) }),
    response: { status: 200, description: 'Loans, newest first.', data: z.array(LoanSchema) },
    async handle({ db, auth, query, platform }) {
      return { message: 'Loans retrieved', data: await listLoans(db, platform.secrets, auth, { status: query.status, reference: query.reference, limit: query.limit }) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/loans/{id}',
    operationId: 'getLoan',
    tag: 'Loans',
    summary: 'Get a loan',
    access: 'tenant',
    params: IdParams,
    description:
      'The loan, plus `checkoutSession`: when the borrower\'s link behind `applicationUrl` stops working (`expiresAt`, which slides while the borrower has the page open, ' +
      'never past `maxExpiresAt`) and whether you revoked it; null when the loan has no application link yet. An expired link can be renewed by the borrower from the expired page (a new link by SMS); ' +
      'the new one then takes its place in `applicationUrl`.',
    response: { status: 200, description: 'The loan.', data: LoanDetailSchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params, platform }) {
      return { message: 'Loan retrieved', data: await getLoanDetail(db, platform.secrets, auth, params.id) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/loans/{id}/approve',
    operationId: 'approveLoan',
    tag: 'Loans',
    summary: 'Approve a loan (tenant approval mode)',
    description:
      'From `pending` or `attested` (delegated tier) or `kyc_completed` (managed tier): freezes the pricing snapshot, builds the schedule, ' +
      'issues the offer (`awaiting_acceptance`) and emits `loan.approved` then `loan.offer.issued` with a signed offer-letter link. ' +
      'The borrower is always screened (AML) first and the screen is recorded with the loan\'s KYC evidence (`loan.kyc.attested` carries its `amlScreenStatus`; ' +
      'without `attestation` the record\'s `attestedChecks.source` is `tenant_approval`). With `attestation` (delegated tier only) the answer is `{approved, loan, attestation}`, otherwise the loan. ' +
      'A screen hit — or, with a live key while no live AML provider is configured, no screen (`amlScreenStatus: pending`) — answers 200 with the loan `under_review` and no offer (`approved: false` with an attestation): a person decides; do not retry. ' +
      'In live mode no loan is offered without a clear screen. Other states: 409.',
    access: 'tenant',
    params: IdParams,
    body: z
      .object({ notes: z.string().max(1000).optional(), reason: z.string().max(500).optional(), attestation: AttestationInput.optional() })
      .strict(),
    response: {
      status: 200,
      description: 'The loan; with an attestation `{approved, loan, attestation}`.',
      data: z.union([LoanSchema, z.object({ approved: z.boolean(), loan: LoanSchema.optional(), attestation: KycAttestationSchema })]),
    },
    errors: [...LOAN_ERRORS, 'approval_mode_mismatch', 'wrong_kyc_tier'],
    async handle(ctx) {
      const result = await approveLoan(loanContext(ctx), { loanId: ctx.params.id, notes: ctx.body.notes ?? ctx.body.reason, attestation: ctx.body.attestation });
      const message = result.approved
        ? 'Loan approved; offer issued'
        : result.attestation?.amlScreenStatus === 'pending'
          ? 'Not screened (no live AML provider configured): the loan is under review and no offer was issued'
          : 'Screen hit: the loan is under review and no offer was issued';
      if (!ctx.body.attestation) return { message, data: toLoan(result.loan, ctx.platform.secrets) };
      return { message, data: { approved: result.approved, loan: toLoan(result.loan, ctx.platform.secrets), attestation: result.attestation } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/loans/{id}/reject',
    operationId: 'rejectLoan',
    tag: 'Loans',
    summary: 'Reject a loan',
    description: 'Terminal. Allowed until the borrower has accepted the offer; rejecting a rejected loan changes nothing. Other states: 409.',
    access: 'tenant',
    params: IdParams,
    body: z.object({ notes: z.string().max(1000).optional(), reason: z.string().max(500).optional() }).strict(),
    response: { status: 200, description: 'The rejected loan.', data: LoanSchema },
    errors: [...LOAN_ERRORS],
    async handle(ctx) {
      const loan = await rejectLoan(loanContext(ctx), { loanId: ctx.params.id, reason: ctx.body.reason, notes: ctx.body.notes });
      return { message: 'Loan rejected', data: toLoan(loan, ctx.platform.secrets) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/loans/{id}/attestation',
    operationId: 'attestLoan',
    tag: 'Loans',
    summary: 'Attest KYC (Tier A)',
    description:
      'Delegated-tier loans only (400 `wrong_kyc_tier` otherwise), from `pending` or `attested`. The service records the evidence, runs its AML screen and emits ' +
      '`loan.kyc.attested`: clear → `attested`, hit → `under_review`; live keys while no live AML provider is configured: not screened (`pending`) → `under_review`, never `clear`.',
    access: 'tenant',
    params: IdParams,
    body: AttestationInput,
    response: { status: 201, description: 'The attestation with its screen verdict.', data: KycAttestationSchema },
    errors: [...LOAN_ERRORS, 'wrong_kyc_tier'],
    async handle(ctx) {
      const attestation = await attestLoan(loanContext(ctx), { loanId: ctx.params.id, ...ctx.body });
      return { status: 201, message: 'Attestation recorded', data: attestation };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/loans/{id}/kyc',
    operationId: 'submitLoanKyc',
    tag: 'Loans',
    summary: 'Submit KYC (managed tier)',
    description:
      'Managed-tier loans only (400 `wrong_kyc_tier` for delegated). `verified` moves `kyc_required` → `kyc_completed`; `failed` (also 200) and ' +
      '`pending` leave the loan as it is: submit again or poll. When the identity provider answers but cannot decide, the answer is `pending` with the loan ' +
      '`under_review` and a `kyc_undecided` review (documents `undecided`): a person decides (`POST /v1/reviews/{id}/clear` completes KYC). ' +
      'Sandbox (test keys): BVN 22222222222 verifies, 00000000000 fails, ' +
      '11111111111 is pending on the first submission and verifies on the second, 33333333333 is undecided, any other BVN verifies. Live mode never honours these values. ' +
      'The BVN and the NIN are kept only as keyed hashes.',
    access: 'tenant',
    params: IdParams,
    body: KycInput,
    response: { status: 200, description: 'The outcome and the loan status after it.', data: LoanKycResultSchema },
    errors: [...LOAN_ERRORS, 'wrong_kyc_tier'],
    async handle(ctx) {
      return { message: 'KYC submitted', data: await submitKyc(loanContext(ctx), ctx.params.id, ctx.body) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/loans/{id}/accept-terms',
    operationId: 'acceptLoanTerms',
    tag: 'Loans',
    summary: 'Accept the offer (with the borrower\'s consent)',
    description:
      'From `awaiting_acceptance`; `consent.documentReference` must name the current offer (409 `stale_document_reference` otherwise). ' +
      'The consent is stored as evidence and the offer letter is re-rendered with the signature block. Emits `loan.offer.accepted`. ' +
      'Accepting again with the same reference returns the loan unchanged. When the loan\'s product asks for guarantors, that many must have ' +
      'confirmed their phone in the checkout first (409 `guarantors_required`, `data: {required, confirmed}`).',
    access: 'tenant',
    params: IdParams,
    body: z.object({ consent: BorrowerConsentSchema }).strict(),
    response: { status: 200, description: 'The loan, `terms_accepted`.', data: LoanSchema },
    errors: [...LOAN_ERRORS, 'stale_document_reference', 'guarantors_required'],
    async handle(ctx) {
      return { message: 'Offer accepted', data: toLoan(await acceptTerms(loanContext(ctx), ctx.params.id, ctx.body.consent), ctx.platform.secrets) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/loans/{id}/decline-terms',
    operationId: 'declineLoanTerms',
    tag: 'Loans',
    summary: 'Decline the offer (with the borrower\'s consent)',
    description: 'From `awaiting_acceptance` to `terms_declined` (terminal: push a new decision to try again). Emits `loan.offer.declined`. Idempotent.',
    access: 'tenant',
    params: IdParams,
    body: z.object({ consent: BorrowerConsentSchema, reason: z.string().max(500).optional() }).strict(),
    response: { status: 200, description: 'The loan, `terms_declined`.', data: LoanSchema },
    errors: [...LOAN_ERRORS, 'stale_document_reference'],
    async handle(ctx) {
      const loan = await declineTerms(loanContext(ctx), ctx.params.id, ctx.body.consent, ctx.body.reason ?? null);
      return { message: 'Offer declined', data: toLoan(loan, ctx.platform.secrets) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/loans/{id}/cancel',
    operationId: 'cancelLoan',
    tag: 'Loans',
    summary: 'Cancel a loan before disbursement',
    description:
      'From creation through `terms_accepted`, offer or no offer; `cancelledBy` is `tenant` for API calls. Idempotent. Once disbursed: 400 `loan_already_disbursed`. ' +
      'Rejected or declined loans: 409. Emits `loan.cancelled`.',
    access: 'tenant',
    params: IdParams,
    body: z.object({ reason: Reason.optional() }).strict(),
    response: { status: 200, description: 'The cancelled loan.', data: LoanSchema },
    errors: [...LOAN_ERRORS, 'loan_already_disbursed'],
    async handle(ctx) {
      const loan = await cancelLoan(loanContext(ctx), { loanId: ctx.params.id, reason: ctx.body.reason ?? null, cancelledBy: 'tenant' });
      return { message: 'Loan cancelled', data: toLoan(loan, ctx.platform.secrets) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/loans/{id}/disburse',
    operationId: 'disburseLoan',
    tag: 'Loans',
    summary: 'Disburse from the capital pool',
    description:
      'Only from `terms_accepted`. Debits the product\'s capital pool in the same transaction that marks the loan disbursed (double-entry: pool, loan receivable, ' +
      'settlement destination); an insufficient pool answers 409 `insufficient_pool_funds` and changes nothing. Rebuilds the schedule with due dates counted from ' +
      'today, insures automatic-insurance products, moves the loan to `active` and emits `loan.disbursed`. No body.',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'The loan, `active`.', data: LoanSchema },
    errors: [...LOAN_ERRORS, 'insufficient_pool_funds'],
    async handle(ctx) {
      return { message: 'Loan disbursed', data: toLoan(await disburseLoan(loanContext(ctx), ctx.params.id), ctx.platform.secrets) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/loans/{id}/offer-letter',
    operationId: 'getOfferLetterLink',
    tag: 'Loans',
    summary: 'Get a fresh offer-letter link',
    description:
      'A new signed link on every call (lifetime `OFFER_LETTER_LINK_TTL_SECONDS`, 15 minutes by default); request a new one rather than caching. ' +
      'Before acceptance the letter is the offer; after, it carries the signature block. 404 before an offer exists.',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'The link.', data: OfferLetterLinkSchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params, platform, now }) {
      const loan = await getLoanRow(db, auth, params.id);
      if (!loan.documentReference) throw new AppError('NOT_FOUND', 'This loan has no offer yet.');
      const link = signOfferLetterLink(platform.secrets, {
        baseUrl: platform.baseUrl,
        loanId: loan.id,
        documentReference: loan.documentReference,
        now,
        ttlSeconds: platform.config.OFFER_LETTER_LINK_TTL_SECONDS,
      });
      return { message: 'Offer letter link issued', data: link };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/loans/{id}/schedule',
    operationId: 'getLoanSchedule',
    tag: 'Loans',
    summary: 'Repayment schedule',
    description:
      'Rows always sum exactly to the loan\'s totals: amounts are rounded half-to-even to the kobo and the last instalment absorbs every residue. ' +
      'Before disbursement due dates count from approval; disbursement rebuilds them from the disbursement date. Empty before an offer.',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'Instalments in order.', data: z.array(ScheduleItemSchema) },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params }) {
      await getLoanRow(db, auth, params.id);
      const rows = await db.selectFrom('loanScheduleItems').selectAll().where('loanId', '=', params.id).orderBy('installmentNumber').execute();
      return { message: 'Schedule retrieved', data: rows.map(toScheduleItem) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/loans/{id}/insurance',
    operationId: 'getLoanInsurance',
    tag: 'Loans',
    summary: 'Insurance policy',
    description: 'Automatic products insure at disbursement; manual products when the tenant triggers it. 404 when there is no policy.',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'The policy.', data: InsurancePolicySchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params }) {
      return { message: 'Insurance policy retrieved', data: await getInsurance({ db, scope: auth }, params.id) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/loans/{id}/insurance',
    operationId: 'triggerLoanInsurance',
    tag: 'Loans',
    summary: 'Trigger insurance (manual products)',
    description:
      'Buys the cover for a disbursed loan of a `manual` insurance product. 201 when created, 200 with the existing policy when already insured. ' +
      '`commissionKobo` is the platform\'s configurable share of the premium; a tenant-borne premium is charged to the organisation.',
    access: 'tenant',
    params: IdParams,
    response: { status: 201, description: 'The policy.', data: InsurancePolicySchema },
    errors: [...LOAN_ERRORS, 'product_not_usable'],
    async handle(ctx) {
      const { policy, created } = await triggerInsurance(loanContext(ctx), ctx.params.id);
      return { status: created ? 201 : 200, message: created ? 'Loan insured' : 'Loan already insured', data: policy };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/loans/{id}/repayments',
    operationId: 'recordLoanRepayment',
    tag: 'Loans',
    summary: 'Record a repayment',
    description:
      'Allocation: instalment by instalment in due order (oldest first); within each instalment strictly fee (late fees count as fees), then interest, ' +
      'then principal; never proportional, never beyond a bucket\'s outstanding. A payment equal to the first instalment\'s total clears exactly that instalment. ' +
      'Anything above the loan\'s whole outstanding is returned as `unallocatedKobo` and not applied. Each repayment posts balanced ledger entries, ' +
      'emits `loan.repayment.completed` with the new `outstandingKobo`, and the one that clears everything completes the loan (`loan.completed`). ' +
      '`external` (collected on the partner\'s own rail) is idempotent on `externalReference`: a reuse answers 200 with the original movement. ' +
      '`mandate` charges the loan\'s active service-operated mandate (`rail_a`/`rail_b`; 422 for `rail_c` or no chargeable mandate): the repayment is `pending` ' +
      'until the rail reports, then `completed` (allocated as above) or `failed`. Due instalments are also collected automatically on their due date ' +
      '(a failed automatic charge is retried after `COLLECTION_RETRY_HOURS`). Sandbox rails: an amount ending in 51 kobo fails with insufficient funds, 52 with do not honour. ' +
      '`cash_wallet` debits the borrower\'s own cash wallet by the applied amount (the excess is not debited) and is allocated exactly like `external`; ' +
      'the borrower needs a wallet (a claimed platform account: 422 `no_borrower_wallet`) holding at least the applied amount (409 `insufficient_wallet_balance`); nothing changes on a refusal, ' +
      'and concurrent debits can never overdraw the wallet. ' +
      '`wallet` is not a collection from the borrower: it sweeps undrawn credit (loan money still sitting in the borrower\'s wallet) back to the partner\'s capital pool. ' +
      'Only loans disbursed to `borrower_wallet` have undrawn credit (422 `no_undrawn_credit` otherwise). It reduces principal only (fee and interest portions are 0; ' +
      'interest and fees stay as frozen in the pricing snapshot), from the latest instalment backwards, so the loan shortens from its end; anything above the unpaid principal ' +
      'is returned as `unallocatedKobo`. The wallet must hold the applied amount (409 `insufficient_wallet_balance`). A `wallet` movement earns nothing, so settlement statements ' +
      'neither sweep nor count it; it still emits `loan.repayment.completed` (with `method: wallet`) and can complete the loan. ' +
      'A `defaulted` loan still takes repayments (recoveries): its outstanding principal was written off when it defaulted, so the principal part of a recovery is booked as ' +
      'recovery income (fees and interest as usual); clearing everything completes the loan.',
    access: 'tenant',
    params: IdParams,
    body: z
      .object({
        method: z.enum(REPAYMENT_METHODS),
        amountKobo: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
        externalReference: z.string().trim().min(1).max(160).nullable().optional(),
      })
      .strict(),
    response: { status: 201, description: 'The repayment (200 when an externalReference is reused).', data: RepaymentSchema },
    errors: [...LOAN_ERRORS, 'repayment_method_unavailable', 'unprocessable', 'no_borrower_wallet', 'insufficient_wallet_balance', 'no_undrawn_credit'],
    async handle(ctx) {
      const { repayment, created } = await recordRepayment(loanContext(ctx), {
        loanId: ctx.params.id,
        method: ctx.body.method,
        amountKobo: ctx.body.amountKobo,
        externalReference: ctx.body.externalReference ?? null,
      });
      return { status: created ? 201 : 200, message: created ? 'Repayment recorded' : 'Repayment already recorded for this externalReference', data: repayment };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/loans/{id}/repayments',
    operationId: 'listLoanRepayments',
    tag: 'Loans',
    summary: 'Repayments of a loan',
    description: 'Oldest first.',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'The repayments.', data: z.array(RepaymentSchema) },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params }) {
      return { message: 'Repayments retrieved', data: await listRepayments(db, auth, params.id) };
    },
  }),
];
