import { z } from 'zod';
import { MANDATE_PROVIDERS, getMandateRow, toMandate } from '../../domain/mandates/mandate';
import { activateMandate, createMandate, simulateActivation } from '../../domain/mandates/manage-mandate';
import { defineRoute } from '../route';
import { MandateSchema } from '../mandate-schemas';
import { IdParams } from '../schemas';

const SANDBOX_RAILS =
  'Sandbox rails (test mode): the authorisation page has Approve and Refuse buttons and then redirects to `callbackUrl` with `reference` and `status`; ' +
  'the provider confirms an approved authorisation only after `RAIL_CONFIRMATION_LAG_MS` (3 s by default), so returning from the page does not make the mandate chargeable.';

/** Live mode never reaches a sandbox rail. */
const LIVE_RAILS = ' Live keys: 503 `provider_not_configured` (`data.provider` names the rail) while no live payment rail is configured; nothing is written, and live mode never uses the sandbox rails.';

export const mandateRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/loans/{id}/mandates',
    operationId: 'createLoanMandate',
    tag: 'Mandates',
    summary: 'Set up a direct-debit mandate',
    description:
      'From the offer until the loan is repaid. `rail_a`/`rail_b`: answers `initiated` with an `authorizationUrl` to send the borrower to; treat it as pending until ' +
      '`POST /v1/mandates/{id}/activate` says `active` or `mandate.active` arrives. `rail_c`: `active` at once, no URL, never debited by the service ' +
      '(record its collections with method `external`). ' + SANDBOX_RAILS + LIVE_RAILS,
    access: 'tenant',
    transactional: false,
    params: IdParams,
    body: z
      .object({
        email: z.email().max(150),
        accountNumber: z.string().regex(/^\d{10}$/, 'a 10-digit NUBAN').optional(),
        bankCode: z.string().regex(/^\d{3,6}$/, '3 to 6 digits (CBN bank or institution code)').optional(),
        callbackUrl: z.url({ protocol: /^https?$/ }).max(2000).optional(),
        provider: z.enum(MANDATE_PROVIDERS).optional(),
      })
      .strict(),
    response: { status: 201, description: 'The mandate.', data: MandateSchema },
    errors: ['NOT_FOUND', 'INVALID_ID', 'invalid_loan_state', 'rail_unavailable', 'provider_not_configured'],
    async handle({ auth, params, body, platform, now }) {
      const mandate = await createMandate(platform.db, platform, auth, { loanId: params.id, ...body }, now);
      return { status: 201, message: mandate.status === 'active' ? 'Mandate active' : 'Mandate initiated: send the borrower to authorizationUrl', data: mandate };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/mandates/{id}',
    operationId: 'getMandate',
    tag: 'Mandates',
    summary: 'Get a mandate',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'The mandate.', data: MandateSchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params }) {
      return { message: 'Mandate retrieved', data: toMandate(await getMandateRow(db, auth, params.id)) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/mandates/{id}/activate',
    operationId: 'activateMandate',
    tag: 'Mandates',
    summary: 'Activate a mandate (read it back from the provider)',
    description:
      'Takes no authorisation code: the service reads the authorisation back from the provider. `active` only when the provider has confirmed and a code exists ' +
      '(emits `mandate.active` once, and the loan\'s `activeMandateId`/`hasActiveMandate` follow); otherwise the mandate stays `pending` and `message` says why. ' +
      'A provider status `approved` means authorised by the borrower but not confirmed: not chargeable.' + LIVE_RAILS,
    access: 'tenant',
    transactional: false,
    params: IdParams,
    response: { status: 200, description: 'The mandate.', data: MandateSchema },
    errors: ['NOT_FOUND', 'INVALID_ID', 'invalid_loan_state', 'rail_unavailable', 'provider_not_configured'],
    async handle({ auth, params, platform, now }) {
      const { mandate, message } = await activateMandate(platform.db, platform, auth, params.id, now);
      return { message, data: mandate };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/test/mandates/{id}/simulate-activation',
    operationId: 'simulateMandateActivation',
    tag: 'Sandbox',
    summary: 'Simulate the provider confirming a mandate',
    description: 'Test keys only (403 `SANDBOX_ONLY` for live keys). Makes the mandate `active` as if the borrower had authorised and the provider confirmed.',
    access: 'sandbox',
    transactional: false,
    params: IdParams,
    response: { status: 200, description: 'The mandate, active.', data: MandateSchema },
    errors: ['NOT_FOUND', 'INVALID_ID', 'SANDBOX_ONLY', 'invalid_loan_state'],
    async handle({ auth, params, platform, now }) {
      return { message: 'Mandate active (simulated)', data: await simulateActivation(platform.db, platform, auth, params.id, now) };
    },
  }),
];
