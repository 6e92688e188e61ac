import { z } from 'zod';
import { getPreapproval, listPreapprovals } from '../../domain/preapprovals/preapproval';
import { pushPreapproval } from '../../domain/preapprovals/push-preapproval';
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
      'The borrower is matched by BVN within the organisation and mode, or created.',
    access: 'preapproval',
    body: PushPreapprovalBody,
    response: { status: 202, description: 'Accepted (200 on a replay of the same assessment).', data: PreapprovalAckSchema },
    errors: [
      'PREAPPROVED_LENDING_PERMISSION_DENIED',
      'assessment_id_required',
      'bvn_invalid',
      'approved_amount_invalid',
      'interest_rate_invalid',
    ],
    async handle({ db, auth, body, platform, now }) {
      const result = await pushPreapproval(db, {
        organisation: auth.organisation,
        mode: auth.mode,
        borrower: body.borrower,
        decision: body.decision,
        enriched: body.enriched,
        clientReference: body.clientReference,
        providerId: body.providerId,
        secrets: platform.secrets,
        now,
      });
      return result.created
        ? { status: 202, message: 'Pre-approval received', data: result.ack }
        : { status: 200, message: 'Pre-approval already received for this assessment', data: result.ack };
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
