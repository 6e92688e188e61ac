import { z } from 'zod';
import { getPreapproval, listPreapprovals } from '../../domain/preapprovals/preapproval';
import { receivePreapproval } from '../../domain/preapprovals/receive-preapproval';
import { issuePreapprovalOffer } from '../../domain/preapprovals/issue-preapproval-offer';
import { preapprovalFunnel } from '../../domain/loans/funnel';
import { toLoan } from '../../domain/loans/loan';
import { loanContext } from '../loan-context';
import { LoanSchema, PreapprovalFunnelSchema } from '../loan-schemas';
import { defineRoute } from '../route';
import {
  IdParams,
  PREAPPROVAL_STATUS_VALUES,
  PreapprovalAckSchema,
  PreapprovalSchema,
  PushPreapprovalBody,
  limitParam,
} from '../schemas';

export const preapprovalRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/preapprovals',
    operationId: 'pushPreapproval',
    tag: 'Pre-approvals',
    summary: 'Push a credit decision',
    description:
      '202 on first ingest (emits `preapproval.received`), 200 with the same record when the assessment id was pushed before, ' +
      'whatever the Idempotency-Key. Conversions are exact: ₦1,234.56 → 123456 kobo, 4.5% → 450 bps; values that do not convert ' +
      'answer 422 naming the field. A `decline` recommendation is recorded (status `declined`) and never becomes a loan. ' +
      'The borrower is matched by BVN within the organisation and mode, or created; `borrowerMatch` says how the push compared with the ' +
      'borrower on record: a different phone is used for this pre-approval\'s checkout (and becomes the phone on record once the borrower verifies a code there), ' +
      'a different name that is not a form of the one on record is refused with 409 `borrower_conflict` and nothing is recorded.',
    access: 'preapproval',
    body: PushPreapprovalBody,
    response: { status: 202, description: 'Accepted (200 on a replay of the same assessment).', data: PreapprovalAckSchema },
    errors: [
      'PREAPPROVED_LENDING_PERMISSION_DENIED',
      'assessment_id_required',
      'bvn_invalid',
      'approved_amount_invalid',
      'interest_rate_invalid',
      'borrower_conflict',
    ],
    async handle(ctx) {
      const { body } = ctx;
      const { created, ack, offerIssued } = await receivePreapproval(loanContext(ctx), {
        organisation: ctx.auth.organisation,
        borrower: body.borrower,
        decision: body.decision,
        enriched: body.enriched,
        clientReference: body.clientReference,
        providerId: body.providerId,
      });
      if (!created) return { status: 200, message: 'Pre-approval already received for this assessment', data: ack };
      return { status: 202, message: offerIssued ? 'Pre-approval received; offer issued' : 'Pre-approval received', data: ack };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/preapprovals',
    operationId: 'listPreapprovals',
    tag: 'Pre-approvals',
    summary: 'List pre-approvals',
    description: 'Newest first.',
    access: 'preapproval',
    query: z.object({ status: z.enum(PREAPPROVAL_STATUS_VALUES).optional(), limit: limitParam(50) }),
    response: {
      status: 200,
      description: 'Pre-approvals, newest first.',
      data: z.object({ preapprovals: z.array(PreapprovalSchema) }),
    },
    async handle({ db, auth, query }) {
      const preapprovals = await listPreapprovals(db, auth, { status: query.status, limit: query.limit });
      return { message: 'Pre-approvals retrieved', data: { preapprovals } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/preapprovals/funnel',
    operationId: 'getPreapprovalFunnel',
    tag: 'Pre-approvals',
    summary: 'Pre-approval funnel',
    description: 'Computed by one SQL aggregation over the credential mode\'s pre-approvals and their loans.',
    access: 'preapproval',
    response: { status: 200, description: 'The funnel.', data: PreapprovalFunnelSchema },
    async handle({ db, auth }) {
      return { message: 'Funnel retrieved', data: await preapprovalFunnel(db, auth) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/preapprovals/{id}/issue-offer',
    operationId: 'issuePreapprovalOffer',
    tag: 'Pre-approvals',
    summary: 'Issue the offer for a pre-approval',
    description:
      'Creates the loan from the pushed economics (amount, rate, tenor, frequency) on a `partner_pushed` product (`productId`, or the tenant\'s default), ' +
      'checks the rate against the tenant cap (422 `interest_rate_bps_above_tenant_cap`, never clamped) and the amount and tenor against the product ' +
      '(422 `outside_product_limits`), records the pushed evidence as the Tier A attestation and screens it, freezes the pricing snapshot, builds the schedule, ' +
      'issues the offer and emits `loan.approved` then `loan.offer.issued` with a signed offer-letter link. A screen hit leaves the loan `under_review` with no offer; so does a live decision while no live AML provider is configured (screen `pending`, never `clear`). ' +
      'Idempotent: once a loan exists it is returned. Declined or expired pre-approvals: 409 `invalid_preapproval_state`. ' +
      'Sandbox: a borrower whose last name is `Sanctioned` screens as a hit.',
    access: 'preapproval',
    params: IdParams,
    body: z.object({ productId: z.uuid().optional() }).strict(),
    response: { status: 200, description: 'The loan.', data: LoanSchema },
    errors: ['NOT_FOUND', 'INVALID_ID', 'invalid_preapproval_state', 'interest_rate_bps_above_tenant_cap', 'outside_product_limits', 'preapproval_not_offerable', 'product_not_usable'],
    async handle(ctx) {
      const { loan, created } = await issuePreapprovalOffer(loanContext(ctx), {
        organisation: ctx.auth.organisation,
        preapprovalId: ctx.params.id,
        productId: ctx.body.productId,
      });
      return { message: created ? 'Offer issued' : 'Offer already issued', data: toLoan(loan, ctx.platform.secrets) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/preapprovals/{id}',
    operationId: 'getPreapproval',
    tag: 'Pre-approvals',
    summary: 'Get a pre-approval',
    access: 'preapproval',
    params: IdParams,
    response: { status: 200, description: 'The pre-approval.', data: PreapprovalSchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params }) {
      return { message: 'Pre-approval retrieved', data: await getPreapproval(db, auth, params.id) };
    },
  }),
];
