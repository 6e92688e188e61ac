import { z } from 'zod';
import { getLoanRow } from '../../domain/loans/loan';
import { BORROWER_SESSION_RULES, mintBorrowerSession, revokeBorrowerSession } from '../../domain/borrower-loans/borrower-session';
import { defineRoute } from '../route';
import { IdParams } from '../schemas';
import { BorrowerSessionSchema, MintedBorrowerSessionSchema } from '../borrower-schemas';

/** Partner-authenticated: mint and revoke borrower sessions (the borrower's own loan page, after checkout). */
export const borrowerSessionRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/loans/{id}/borrower-sessions',
    operationId: 'createBorrowerSession',
    tag: 'Borrower sessions',
    summary: 'Mint a borrower session for a lent loan\'s borrower',
    description:
      'A restricted credential for the borrower\'s own loan page (`/my-loan`): it reaches the loans of the borrower\'s phone on record at your organisation, in this mode, and nothing else ' +
      '(`Authorization: BorrowerSession <token>` on the `/v1/borrower/*` routes). The token is shown only here; only its hash is stored. ' +
      `It lives \`ttlMinutes\` (default ${BORROWER_SESSION_RULES.defaultTtlMinutes}, ${BORROWER_SESSION_RULES.minTtlMinutes}–${BORROWER_SESSION_RULES.maxTtlMinutes}) and can be revoked. ` +
      'A loan not yet lent (before disbursement): 409 `invalid_loan_state` (the checkout session is the borrower\'s credential until then). Borrowers can also sign in themselves by phone: `POST /v1/borrower/sign-in/send`.',
    access: 'tenant',
    params: IdParams,
    body: z
      .object({ ttlMinutes: z.number().int().min(BORROWER_SESSION_RULES.minTtlMinutes).max(BORROWER_SESSION_RULES.maxTtlMinutes).optional() })
      .strict()
      .meta({ description: 'Optional; nothing or `{}` is fine.' }),
    response: { status: 201, description: 'The session with its token (shown once).', data: MintedBorrowerSessionSchema },
    errors: ['NOT_FOUND', 'INVALID_ID', 'invalid_loan_state', 'borrower_phone_invalid'],
    async handle({ db, auth, params, body, platform, now }) {
      const loan = await getLoanRow(db, auth, params.id);
      const session = await mintBorrowerSession(db, { secrets: platform.secrets, loan, ttlMinutes: body.ttlMinutes, now });
      return { status: 201, message: 'Borrower session created: hand the token to the borrower\'s loan page', data: session };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/borrower-sessions/{id}/revoke',
    operationId: 'revokeBorrowerSession',
    tag: 'Borrower sessions',
    summary: 'Revoke a borrower session',
    description: 'The token stops working at once (401 `borrower_session_ended`). Revoking again changes nothing. Works for sessions minted by you and sessions a borrower signed in to.',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'The revoked session.', data: BorrowerSessionSchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params, now }) {
      return { message: 'Borrower session revoked', data: await revokeBorrowerSession(db, auth, params.id, now) };
    },
  }),
];
