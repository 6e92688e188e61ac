import { getLoanRow } from '../../domain/loans/loan';
import { mintCheckoutSession, revokeCheckoutSession, sessionLifetime } from '../../domain/checkout/checkout-session';
import { z } from 'zod';
import { defineRoute } from '../route';
import { LOCALES } from '../../../shared/locales';
import { IdParams } from '../schemas';
import { CheckoutSessionSchema, MintedCheckoutSessionSchema } from '../checkout-schemas';

/** Partner-authenticated: mint and revoke checkout sessions. */
export const checkoutSessionRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/loans/{id}/checkout-sessions',
    operationId: 'createCheckoutSession',
    tag: 'Checkout sessions',
    summary: 'Mint a checkout session for a loan',
    description:
      'A restricted credential for the borrower\'s hosted checkout of this one loan, in the spirit of a client secret: send the borrower to `url`, ' +
      'or hand `token` to your own mounted checkout server. It lives `CHECKOUT_SESSION_TTL_MINUTES` (30 by default), refreshable up to `maxExpiresAt`. ' +
      'The token is shown only here. A session is also minted automatically whenever an offer issues: that is the loan\'s `applicationUrl`. ' +
      'Loans that are rejected, declined, cancelled, completed or defaulted: 409 `invalid_loan_state`. ' +
      'Optional body `{locale}`: the borrower\'s language as you know it (`en`, `pcm`, `yo`, `ha`, `ig`); the texts, e-mails and offer letter of this session use it unless the borrower picks another in the checkout (see `POST /v1/checkout/language`).',
    access: 'tenant',
    params: IdParams,
    body: z
      .object({ locale: z.enum(LOCALES).optional().meta({ description: 'The partner\'s language for this borrower; see `POST /v1/checkout/language` for the negotiation order.' }) })
      .meta({ description: 'Optional; nothing or `{}` is fine.' }),
    response: { status: 201, description: 'The session with its token (shown once) and hosted URL.', data: MintedCheckoutSessionSchema },
    errors: ['NOT_FOUND', 'INVALID_ID', 'invalid_loan_state'],
    async handle({ db, auth, params, body, platform, now }) {
      const loan = await getLoanRow(db, auth, params.id);
      const session = await mintCheckoutSession(db, {
        secrets: platform.secrets,
        lifetime: sessionLifetime(platform.config),
        baseUrl: platform.baseUrl,
        loan,
        source: 'partner',
        now,
        locale: body.locale ?? null,
      });
      return { status: 201, message: 'Checkout session created: send the borrower to url', data: session };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout-sessions/{id}/revoke',
    operationId: 'revokeCheckoutSession',
    tag: 'Checkout sessions',
    summary: 'Revoke a checkout session',
    description: 'The token stops working at once (401 `checkout_session_revoked`). Revoking again changes nothing.',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'The revoked session.', data: CheckoutSessionSchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params, now }) {
      return { message: 'Checkout session revoked', data: await revokeCheckoutSession(db, auth, params.id, now) };
    },
  }),
];

