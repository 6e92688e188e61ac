import { z } from 'zod';
import { PAYOUT_STATUSES, getPayout, listPayouts } from '../../domain/payouts/payout';
import { requestPayout } from '../../domain/payouts/request-payout';
import { defineRoute } from '../route';
import { IdParams, KoboAmount, Timestamp, Uuid, limitParam, safeName } from '../schemas';

const PayoutStatusSchema = z.enum(PAYOUT_STATUSES);

const PayoutRequestSchema = z
  .object({
    id: Uuid,
    organisationId: Uuid,
    borrowerId: Uuid,
    loanId: Uuid.nullable(),
    currency: z.string().length(3),
    amountKobo: KoboAmount,
    bankName: z.string(),
    bankCode: z.string(),
    accountNumber: z.string(),
    accountName: z.string().nullable(),
    status: PayoutStatusSchema.meta({
      description: '`requested` (reserved on the ledger) → `completed` (settled off-platform) or `rejected` (reservation released). `settling` is reserved for an asynchronous bank transfer and not used yet.',
    }),
    rejectionReason: z.string().nullable(),
    settledAt: Timestamp.nullable(),
    settledByUserId: Uuid.nullable(),
    settlementReference: z.string().nullable().meta({ description: 'The bank transfer reference given when the payout was settled.' }),
    ledgerTransactionRef: z.string().nullable().meta({
      description: 'The payout\'s latest ledger transaction: `PYT-<id>-reserve` while requested, `PYT-<id>-settle` once completed, `PYT-<id>-release` once rejected.',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'PayoutRequest', description: 'A payout raised against the borrower\'s ledger balance and settled off-platform.' });

const PAYOUT_DESCRIPTION =
  'The amount is reserved on the ledger in the same transaction that records the request, so it can never exceed what the borrower holds, also under concurrent requests ' +
  '(409 `insufficient_wallet_balance`, nothing changed). The source is the borrower\'s payable (disbursed funds awaiting payout) when `loanId` names a loan disbursed to ' +
  '`borrower_bank_account`, and the borrower\'s cash wallet otherwise (422 `no_borrower_wallet` when the borrower has none). Bank details: `accountNumber` is a 10-digit NUBAN; ' +
  'for a 3-digit (CBN) `bankCode` its check digit is verified (422 `account_number_invalid`); 5-6-digit NIP institution codes are accepted without the check. ' +
  'Settlement is off-platform: an operator marks the payout `completed` (with the transfer reference) or `rejected` (the reservation goes back). No webhook event is emitted for payouts.';

export const payoutRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/payouts',
    operationId: 'listPayouts',
    tag: 'Payouts',
    summary: 'List payout requests',
    description: 'Newest first.',
    access: 'tenant',
    query: z.object({ status: PayoutStatusSchema.optional(), limit: limitParam(20) }),
    response: { status: 200, description: 'Payout requests, newest first.', data: z.array(PayoutRequestSchema) },
    async handle({ db, auth, query }) {
      return { message: 'Payouts retrieved', data: await listPayouts(db, auth, { status: query.status, limit: query.limit }) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/payouts',
    operationId: 'requestPayout',
    tag: 'Payouts',
    summary: 'Request a payout to a bank account',
    description: PAYOUT_DESCRIPTION,
    access: 'tenant',
    body: z
      .object({
        borrowerId: Uuid,
        amountKobo: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
        bankName: safeName({ max: 120 }),
        bankCode: z.string().trim().regex(/^(\d{3}|\d{5,6})$/, 'must be a 3-digit CBN bank code or a 5-6-digit NIP institution code'),
        accountNumber: z.string().trim().regex(/^\d{10}$/, 'must be a 10-digit NUBAN'),
        accountName: safeName({ max: 150 }).nullable().optional(),
        loanId: Uuid.nullable().optional(),
      })
      .strict(),
    response: { status: 201, description: 'The payout request, its amount reserved.', data: PayoutRequestSchema },
    errors: ['NOT_FOUND', 'no_borrower_wallet', 'insufficient_wallet_balance', 'account_number_invalid', 'unprocessable'],
    async handle({ db, auth, body, now }) {
      const payout = await requestPayout(db, {
        scope: auth,
        borrowerId: body.borrowerId,
        loanId: body.loanId ?? null,
        amountKobo: body.amountKobo,
        bankName: body.bankName,
        bankCode: body.bankCode,
        accountNumber: body.accountNumber,
        accountName: body.accountName ?? null,
        now,
      });
      return { status: 201, message: 'Payout requested', data: payout };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/payouts/{id}',
    operationId: 'getPayout',
    tag: 'Payouts',
    summary: 'Get a payout request',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'The payout request.', data: PayoutRequestSchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params }) {
      return { message: 'Payout retrieved', data: await getPayout(db, auth, params.id) };
    },
  }),
];
