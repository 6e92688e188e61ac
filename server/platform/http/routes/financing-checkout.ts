import { z } from 'zod';
import { chooseFinancingTenor } from '../../domain/financing/choose-tenor';
import { financingView } from '../../domain/financing/financing-view';
import { submitFinancingIdentity } from '../../domain/financing/submit-identity';
import { sessionLoanContext } from '../loan-context';
import { defineRoute } from '../route';
import { FinancingViewSchema } from '../financing-schemas';
import { safeName } from '../schemas';

const SESSION_ERRORS = ['checkout_session_expired', 'checkout_session_revoked', 'credential_not_allowed', 'checkout_otp_required', 'checkout_step_required'] as const;

/**
 * The hosted patient-financing application's own steps, on the borrower-session credential like the other checkout
 * routes (the session's loan only). OTP, the offer signature, the bank account and the mandate are the checkout's
 * existing routes; these two come between the OTP and the offer.
 */
export const financingCheckoutRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/checkout/financing/identity',
    operationId: 'submitFinancingIdentity',
    tag: 'Checkout',
    summary: 'Patient financing: identity, bureau check and decision',
    description:
      'The patient\'s full name (as on the BVN, starting with the first name the clinic gave), BVN, date of birth and declared monthly income (kobo). ' +
      'The name and date of birth are matched against the BVN record (identity port), then the bureau is asked and the credit policy decides: the answer ' +
      'is the application with `status` `approved` (and the tenor `options` to choose from) or `rejected` (with `rejectionReason`). Events: ' +
      '`loan.application.submitted`, then `loan.approved` or `loan.rejected`. A mismatch answers 422 `identity_mismatch` (tries left in `message`); ' +
      'the third rejects the application. Only a keyed hash of the BVN is kept.',
    access: 'checkoutSession',
    transactional: false,
    body: z
      .object({
        fullName: safeName({ min: 3, max: 150 }),
        bvn: z.string().regex(/^\d{11}$/, '11 digits'),
        dateOfBirth: z.iso.date().refine((d) => d >= '1900-01-01' && d <= '2010-12-31', 'a date of birth between 1900-01-01 and 2010-12-31'),
        declaredMonthlyIncomeKobo: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).meta({ format: 'int64', description: 'Monthly income in kobo (naira × 100).' }),
        email: z.email().max(150).optional().meta({ description: 'For the direct-debit provider.' }),
      })
      .strict(),
    response: { status: 200, description: 'The application after the decision.', data: FinancingViewSchema },
    errors: [...SESSION_ERRORS, 'invalid_loan_state', 'identity_mismatch', 'identity_unavailable', 'bureau_unavailable', 'application_expired'],
    async handle(ctx) {
      const scope = ctx.auth.checkoutSession!;
      const app = await submitFinancingIdentity(ctx.platform.db, ctx.platform, scope, ctx.body, ctx.now);
      return { message: app.status === 'approved' ? 'Approved: choose a tenor' : `Application ${app.status}`, data: financingView(app) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/financing/tenor',
    operationId: 'chooseFinancingTenor',
    tag: 'Checkout',
    summary: 'Patient financing: choose the tenor (issues the offer)',
    description:
      'One of the decision\'s `options` by `tenorMonths`: the loan is priced with it and the offer issued (the session state then shows its key facts, ' +
      'schedule and letter; sign with `/v1/checkout/accept`). Choosing again before signing re-issues the offer. 422 `tenor_not_offered` for another tenor.',
    access: 'checkoutSession',
    body: z.object({ tenorMonths: z.number().int().min(1).max(60) }).strict(),
    response: { status: 200, description: 'The offer is ready.', data: z.object({ loanId: z.string(), status: z.string(), documentReference: z.string().nullable() }) },
    errors: [...SESSION_ERRORS, 'invalid_loan_state', 'tenor_not_offered', 'application_expired'],
    async handle(ctx) {
      const loan = await chooseFinancingTenor(sessionLoanContext(ctx), ctx.auth.checkoutSession!, ctx.body.tenorMonths);
      return { message: 'Offer issued: read it and sign', data: { loanId: loan.id, status: loan.status, documentReference: loan.documentReference } };
    },
  }),
];
