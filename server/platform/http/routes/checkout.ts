import type { Executor } from '../../db/database';
import { z } from 'zod';
import { captureBankAccount, resolveBankAccountForSession } from '../../domain/checkout/bank-account';
import { refreshCheckoutSession, sessionLifetime, type CheckoutScope } from '../../domain/checkout/checkout-session';
import { getCheckoutState } from '../../domain/checkout/checkout-state';
import { activateMandateViaCheckout, createMandateViaCheckout } from '../../domain/checkout/mandate-via-checkout';
import { OTP_RULES, sendOtp, verifyOtp } from '../../domain/checkout/otp';
import { expiredSessionInfo, renewCheckoutSession, RENEW_RULES } from '../../domain/checkout/renew-checkout-session';
import { acceptViaCheckout, declineViaCheckout, submitKycViaCheckout } from '../../domain/checkout/respond-via-checkout';
import { addGuarantor, resendGuarantorCode, verifyGuarantor } from '../../domain/checkout/guarantors';
import { chooseSettlementMerchant, listSettlementMerchants } from '../../domain/checkout/settlement-catalog';
import { listUserPasskeys, sessionUser, toPasskey } from '../../domain/passkeys/passkey';
import { issueRegistrationChallenge, registerPasskey } from '../../domain/passkeys/register-passkey';
import { issueSignChallenge } from '../../domain/passkeys/sign-with-passkey';
import { sessionLoanContext } from '../loan-context';
import { chooseCheckoutLanguage } from '../../domain/languages/borrower-locale';
import { LOCALES } from '../../../shared/locales';
import { MandateSchema } from '../mandate-schemas';
import { defineRoute, type HandlerContext } from '../route';
import { PaginationSchema, Uuid, safeName } from '../schemas';
import { KycInput, LoanKycResultSchema } from '../loan-schemas';
import {
  AcceptInput,
  BankAccountCaptureInput,
  BankAccountInput,
  BankAccountSchema,
  CapturedBankAccountSchema,
  BankSchema,
  RefreshedCheckoutSessionSchema,
  CheckoutStateSchema,
  DeclineInput,
  ExpiredSessionSchema,
  RenewedLinkSchema,
  GuarantorAddedSchema,
  GuarantorSchema,
  OtpSentSchema,
  OtpVerifiedSchema,
  SettlementMerchantChoiceSchema,
  SettlementMerchantSchema,
  PasskeyListSchema,
  PasskeyRegistrationInput,
  PasskeySchema,
  RegistrationChallengeSchema,
  RpId,
  SignChallengeSchema,
} from '../checkout-schemas';

/** What a borrower's browser learns from signing or declining: no partner references, no links. */
const CheckoutOutcomeSchema = z
  .object({ loanId: Uuid, status: z.string(), documentReference: z.string().nullable() })
  .meta({ id: 'CheckoutOfferOutcome' });

const CheckoutLanguageSchema = z
  .object({
    locale: z.enum(LOCALES),
    source: z.enum(['session', 'partner', 'saved', 'accept_language', 'default']),
  })
  .meta({ id: 'CheckoutLanguage' });

const checkoutOutcome = (loan: { id: string; status: string; documentReference: string | null }) => ({
  loanId: loan.id,
  status: loan.status,
  documentReference: loan.documentReference,
});

type Ctx<D extends Executor = Executor> = HandlerContext<unknown, unknown, unknown, D>;

const sessionOf = (ctx: Ctx): CheckoutScope => ctx.auth.checkoutSession!;

const SESSION_ERRORS = ['checkout_session_expired', 'checkout_session_revoked', 'credential_not_allowed'] as const;
const OTP_FIRST = [...SESSION_ERRORS, 'checkout_otp_required'] as const;

/** Borrower-session routes: `Authorization: CheckoutSession <token>`, the session's loan only. */
export const checkoutRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/checkout/session',
    operationId: 'getCheckoutState',
    tag: 'Checkout',
    summary: 'Checkout state',
    description:
      'The steps this loan needs (`otp`, `kyc` for managed-tier loans, `guarantors` when the product asks for them, `catalog` for `merchant_wallet` products with `settlementCatalogEnabled`, `offer`, `bank`, `mandate`), which are done, the next one and the overall status. ' +
      'Once the phone is verified: the loan, the current offer\'s key facts (principal, tenor, every fee, total interest, total repayable, APR, schedule) ' +
      'with a fresh signed offer-letter link, the captured bank account and the latest mandate. Before it: `otpChallenge`, the code in play (where it went, its expiry, when another may be sent, attempts left), ' +
      'so a reload shows the code box again. Poll it while `status` is `waiting_for_lender` (every 10-15 s with backoff): it moves on when the lender issues the offer.',
    access: 'checkoutSession',
    response: { status: 200, description: 'The state.', data: CheckoutStateSchema },
    errors: [...SESSION_ERRORS],
    async handle(ctx) {
      const data = await getCheckoutState(ctx.db, ctx.platform, sessionOf(ctx), { organisationName: ctx.auth.organisation.name, now: ctx.now });
      return { message: 'Checkout state', data };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/session/refresh',
    operationId: 'refreshCheckoutSession',
    tag: 'Checkout',
    summary: 'Extend the session',
    description:
      'Moves `expiresAt` to now + `CHECKOUT_SESSION_TTL_MINUTES`, never past `maxExpiresAt`. The checkout calls it on the borrower\'s activity and periodically while the page is visible, ' +
      'so a session slides while the page is open (at half its remaining lifetime, at most every 5 minutes: `expiresInSeconds`). An expired session cannot be refreshed (401 `checkout_session_expired`; ask for a new link with `POST /v1/checkout/session/renew`).',
    access: 'checkoutSession',
    response: { status: 200, description: 'The session, with its remaining lifetime.', data: RefreshedCheckoutSessionSchema },
    errors: [...SESSION_ERRORS],
    async handle(ctx) {
      return { message: 'Checkout session extended', data: await refreshCheckoutSession(ctx.db, sessionOf(ctx), sessionLifetime(ctx.platform.config), ctx.now) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/checkout/session/renewal',
    operationId: 'getCheckoutSessionRenewal',
    tag: 'Checkout',
    summary: 'An expired session: the lender\'s contact and when a new link can be texted',
    description:
      'Authenticated by an EXPIRED session\'s token (a live one: 409 `checkout_session_not_expired`; a revoked or unknown one: 401 `checkout_session_revoked` / `UNAUTHENTICATED`). ' +
      'What the expired page shows: when the session expired, the lender\'s contact, and when `POST /v1/checkout/session/renew` will next text a new link. Nothing of the loan.',
    access: 'expiredCheckoutSession',
    response: { status: 200, description: 'The expired session\'s page facts.', data: ExpiredSessionSchema },
    errors: ['checkout_session_revoked', 'checkout_session_not_expired', 'credential_not_allowed'],
    async handle(ctx) {
      return { message: 'Checkout session expired', data: await expiredSessionInfo(ctx.db, sessionOf(ctx), ctx.now) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/session/renew',
    operationId: 'renewCheckoutSession',
    tag: 'Checkout',
    summary: 'Text the borrower a new link',
    description:
      'Authenticated by an EXPIRED session\'s token only (a live one: 409 `checkout_session_not_expired`; revoked or unknown: 401). Mints a new session (`source: renewed`) for the same loan ' +
      'and texts its link to the borrower\'s phone on record (never a number from the caller); the answer says where, masked. When the expired session was the one behind the loan\'s ' +
      '`applicationUrl`, the new one takes its place there. At most one new link per ' +
      `${RENEW_RULES.minIntervalMs / 60_000} minutes and ${RENEW_RULES.perDay} per UTC day for a loan, across processes (429 \`checkout_renew_limit\` with Retry-After). ` +
      'A closed loan (rejected, declined, cancelled, completed, defaulted): 409 `invalid_loan_state`. Sandbox: the text lands in `GET /sandbox/sms?phone=`.',
    access: 'expiredCheckoutSession',
    transactional: false,
    body: z.object({}).strict().meta({ description: 'Empty: the link always goes to the phone on record.' }),
    response: { status: 200, description: 'Where the new link went, and the lender\'s contact.', data: RenewedLinkSchema },
    errors: ['checkout_session_revoked', 'checkout_session_not_expired', 'credential_not_allowed', 'checkout_renew_limit', 'invalid_loan_state', 'borrower_phone_invalid', 'sms_unavailable'],
    async handle(ctx) {
      const data = await renewCheckoutSession(ctx.platform, sessionOf(ctx), { organisationName: ctx.auth.organisation.name, now: ctx.now });
      return { message: 'A new link was texted to the borrower', data };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/language',
    operationId: 'chooseCheckoutLanguage',
    tag: 'Checkout',
    summary: 'Record the borrower\'s language',
    description:
      'The language the checkout is read in, so the texts, the e-mails and the offer letter follow it. `chosenBy: borrower` (the default): the borrower picked it in the language menu; ' +
      'kept on the session and on the borrower (their saved choice for later sessions). `chosenBy: partner`: the partner\'s `locale` attribute the widget was mounted with; kept on the session only. ' +
      'Which language a text uses: the borrower\'s pick in this session, then the partner\'s locale (mount or session), then the borrower\'s saved choice, then the browser\'s `Accept-Language` ' +
      '(forwarded by the checkout server), then English. The answer is the language the session\'s texts now use and why (`source`: `session`, `partner`, `saved`, `accept_language`, `default`). ' +
      'Allowed before the phone is verified, so the code itself arrives in the chosen language.',
    access: 'checkoutSession',
    body: z
      .object({
        locale: z.enum(LOCALES).meta({ description: 'A shipped language: `en`, `pcm` (Naijá), `yo` (Yorùbá), `ha` (Hausa), `ig` (Igbo).' }),
        chosenBy: z.enum(['borrower', 'partner']).default('borrower'),
      })
      .strict(),
    response: { status: 200, description: 'The language texts for this session now use.', data: CheckoutLanguageSchema },
    errors: [...SESSION_ERRORS],
    async handle(ctx) {
      const data = await chooseCheckoutLanguage(ctx.db, sessionOf(ctx), { ...ctx.body, acceptLanguage: ctx.req.get('accept-language'), now: ctx.now });
      return { message: 'Language recorded', data };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/otp/send',
    operationId: 'sendCheckoutOtp',
    tag: 'Checkout',
    summary: 'Send a phone verification code',
    description:
      `A ${OTP_RULES.digits}-digit code by SMS to the borrower's phone on record (never a number from the caller), valid ${OTP_RULES.lifetimeMs / 60_000} minutes, ` +
      `${OTP_RULES.maxAttempts} attempts. Another code only after ${OTP_RULES.resendCooldownMs / 1000} s (429 \`otp_resend_too_soon\` with Retry-After; its \`data\` is the code still in play, as \`otpChallenge\` of the state, so a page can show the code box and the countdown) and at most ` +
      `${OTP_RULES.sendsPerPhonePerHour} per phone per clock hour (429 \`otp_send_limit\`). A new code replaces the previous one. ` +
      'Sandbox: test-mode messages land in the inbox at `GET /sandbox/sms?phone=+234…` (no live message is ever stored there).',
    access: 'checkoutSession',
    transactional: false,
    body: z.object({}).strict().meta({ description: 'Empty: the code always goes to the phone on record.' }),
    response: { status: 200, description: 'Where the code went and when it expires.', data: OtpSentSchema },
    errors: [...SESSION_ERRORS, 'otp_resend_too_soon', 'otp_send_limit', 'borrower_phone_invalid', 'sms_unavailable'],
    async handle(ctx) {
      const data = await sendOtp(ctx.platform, sessionOf(ctx), { organisationName: ctx.auth.organisation.name, now: ctx.now, acceptLanguage: ctx.req.get('accept-language') });
      return { message: 'Code sent', data };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/otp/verify',
    operationId: 'verifyCheckoutOtp',
    tag: 'Checkout',
    summary: 'Verify the phone with the code',
    description:
      'Checks the latest code: wrong → 422 `otp_incorrect` (the message says how many attempts remain, `data.attemptsLeft` counts them), an older code that a newer text replaced → 422 `otp_superseded` ' +
      '(never a match; it counts as an attempt like any wrong code, `data.attemptsLeft` too), too many wrong → 429 `otp_locked`, expired or none sent → 422 `otp_expired`. ' +
      'A match verifies the session and claims the borrower: `identityStatus` becomes `linked`, with `linkedAt` and the `userId` of the platform user with that phone (created on first sight). ' +
      'Verifying a verified session answers the same again.',
    access: 'checkoutSession',
    transactional: false,
    body: z.object({ code: z.string().regex(/^\d{6}$/, 'the 6-digit code') }).strict(),
    response: { status: 200, description: 'Verified.', data: OtpVerifiedSchema },
    errors: [...SESSION_ERRORS, 'otp_incorrect', 'otp_superseded', 'otp_expired', 'otp_locked'],
    async handle(ctx) {
      return { message: 'Phone verified', data: await verifyOtp(ctx.platform, sessionOf(ctx), ctx.body.code, ctx.now) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/checkout/banks',
    operationId: 'listCheckoutBanks',
    tag: 'Checkout',
    summary: 'Bank list',
    description:
      'The institutions a borrower can name, by name: commercial, merchant and non-interest banks, microfinance banks, payment service banks and mobile money operators (`code`: a bank\'s 3-digit CBN code where confirmed, otherwise the 6-digit NIP code), ' +
      'with the code the NUBAN check digit uses. Source and date of the list: `docs/banks.md` (Heritage Bank, whose licence the CBN revoked in June 2024, is not in it).',
    access: 'checkoutSession',
    response: { status: 200, description: 'Banks.', data: z.array(BankSchema) },
    errors: [...SESSION_ERRORS],
    async handle({ platform }) {
      return { message: 'Banks', data: platform.banks };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/bank-account/resolve',
    operationId: 'resolveCheckoutBankAccount',
    tag: 'Checkout',
    summary: 'Look up an account name',
    description:
      'Checks the bank code (422 `bank_not_found`) and the NUBAN check digit (422 `account_number_invalid`), then asks the bank for the account name ' +
      '(422 `account_not_found`, 502 `bank_lookup_unavailable`) and compares it with the borrower\'s name on record (`nameMatch`: `match`, `partial` or `mismatch`). Stores nothing. ' +
      'Sandbox (test mode): an ordinary number answers with the borrower\'s own name, bank style (e.g. `OKAFOR AMAKA`); by the first nine digits, whatever the bank: ' +
      '999999999 is not found, 888888888 makes the lookup unavailable, 777777777 is someone else\'s account (`ADEYEMI NGOZI`, or `OKAFOR AMAKA` for a borrower named Ngozi Adeyemi: a `mismatch`), ' +
      '666666666 holds the surname and first initial only (`OKAFOR A.`: a `partial`).',
    access: 'checkoutSession',
    transactional: false,
    body: BankAccountInput,
    response: { status: 200, description: 'The account with its name.', data: BankAccountSchema },
    errors: [...OTP_FIRST, 'bank_not_found', 'account_number_invalid', 'account_not_found', 'bank_lookup_unavailable'],
    async handle(ctx) {
      return { message: 'Account found', data: await resolveBankAccountForSession(ctx.db, ctx.platform.bankLookup.for(sessionOf(ctx).mode), sessionOf(ctx), ctx.body) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/bank-account',
    operationId: 'captureCheckoutBankAccount',
    tag: 'Checkout',
    summary: 'Confirm the bank account',
    description:
      'Looks the account up as `resolve` does and keeps it for the mandate step (the borrower has confirmed the name), with how its name compared. Giving another account replaces it ' +
      '(and a mandate still in play on the old one is withdrawn when the next one is set up), until the direct debit is active: then 409 `bank_account_locked`. ' +
      'Loans are paid into and collected from the borrower\'s own account: an account whose name is a `mismatch` answers 409 `account_name_mismatch` (with `data.accountName` and `data.nameMatch`; nothing stored) ' +
      'unless `confirmNameMismatch` is true (the borrower confirmed it is theirs; kept with the time of that confirmation). What a confirmed one does is the product\'s `nameMismatchPolicy`: ' +
      '`allow` (default) keeps it; `review` keeps it and the loan waits `under_review` for the lender (review `name_mismatch`; meanwhile another account answers 409 `invalid_loan_state`); ' +
      '`refuse` answers 409 `account_name_mismatch` with `data.policy: refuse`. A `partial` match is kept without confirmation.',
    access: 'checkoutSession',
    transactional: false,
    body: BankAccountCaptureInput,
    response: { status: 200, description: 'The account kept.', data: CapturedBankAccountSchema },
    errors: [...OTP_FIRST, 'bank_not_found', 'account_number_invalid', 'account_not_found', 'bank_lookup_unavailable', 'account_name_mismatch', 'bank_account_locked'],
    async handle(ctx) {
      return { message: 'Bank account saved', data: await captureBankAccount(ctx.db, ctx.platform.bankLookup.for(sessionOf(ctx).mode), sessionOf(ctx), ctx.body, ctx.now, sessionLoanContext(ctx)) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/kyc',
    operationId: 'submitCheckoutKyc',
    tag: 'Checkout',
    summary: 'Submit KYC (managed tier)',
    description:
      'As `POST /v1/loans/{id}/kyc` for the session\'s loan (managed tier only: 400 `wrong_kyc_tier`). `pending`: submit again or poll the state; `failed`: the lender decides what happens next. ' +
      'Sandbox BVNs: 22222222222 verifies, 00000000000 fails, 11111111111 is pending once then verifies, 33333333333 is undecided (`pending`, the loan `under_review` until the lender decides). The BVN and the NIN are kept only as keyed hashes.',
    access: 'checkoutSession',
    body: KycInput,
    response: { status: 200, description: 'The outcome and the loan status after it.', data: LoanKycResultSchema },
    errors: [...OTP_FIRST, 'invalid_loan_state', 'wrong_kyc_tier'],
    async handle(ctx) {
      return { message: 'KYC submitted', data: await submitKycViaCheckout(sessionLoanContext(ctx), sessionOf(ctx), ctx.body) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/guarantors',
    operationId: 'addCheckoutGuarantor',
    tag: 'Checkout',
    summary: 'Name a guarantor',
    description:
      'Only when the loan\'s product asks for guarantors (`guarantorsRequired` > 0; 422 `guarantors_not_accepted` otherwise, or when required + 2 have been named). ' +
      'The guarantor gets a code by SMS (same rules and limits as the borrower\'s OTP) and gives it to the borrower to confirm. Their phone must be a valid number and not the borrower\'s ' +
      '(422 `guarantor_phone_invalid`). Naming the same phone again updates the entry and sends a new code. Signing needs the required number confirmed.',
    access: 'checkoutSession',
    transactional: false,
    body: z
      .object({
        fullName: safeName({ min: 2, max: 200 }),
        phone: z.string().trim().min(7).max(25).meta({ description: 'The guarantor\'s phone, e.g. 0803 123 4567 or +2348031234567.' }),
        relationship: z.string().trim().min(2).max(60).meta({ description: 'e.g. sibling, employer, friend.' }),
      })
      .strict(),
    response: { status: 201, description: 'The guarantor and where the code went.', data: GuarantorAddedSchema },
    errors: [...OTP_FIRST, 'guarantors_not_accepted', 'guarantor_phone_invalid', 'otp_resend_too_soon', 'otp_send_limit', 'sms_unavailable'],
    async handle(ctx) {
      const data = await addGuarantor(ctx.platform, sessionOf(ctx), ctx.body, { organisationName: ctx.auth.organisation.name, now: ctx.now });
      return { status: 201, message: data.otp ? 'Guarantor added: a code was sent to their phone' : 'Guarantor already confirmed', data };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/guarantors/resend',
    operationId: 'resendCheckoutGuarantorCode',
    tag: 'Checkout',
    summary: 'Send a guarantor a new code',
    description: 'A guarantor of this loan that has not confirmed yet (404 for any other id). Same cool-down and limits as the borrower\'s OTP.',
    access: 'checkoutSession',
    transactional: false,
    body: z.object({ guarantorId: Uuid }).strict(),
    response: { status: 200, description: 'Where the code went.', data: OtpSentSchema },
    errors: [...OTP_FIRST, 'NOT_FOUND', 'guarantors_not_accepted', 'otp_resend_too_soon', 'otp_send_limit', 'sms_unavailable'],
    async handle(ctx) {
      return { message: 'Code sent', data: await resendGuarantorCode(ctx.platform, sessionOf(ctx), ctx.body.guarantorId, { organisationName: ctx.auth.organisation.name, now: ctx.now }) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/guarantors/verify',
    operationId: 'verifyCheckoutGuarantor',
    tag: 'Checkout',
    summary: 'Confirm a guarantor with their code',
    description: 'As the borrower\'s OTP: 422 `otp_incorrect`, 422 `otp_superseded` (an older code of this guarantor), 429 `otp_locked`, 422 `otp_expired`. A guarantor of another loan: 404.',
    access: 'checkoutSession',
    transactional: false,
    body: z.object({ guarantorId: Uuid, code: z.string().regex(/^\d{6}$/, 'the 6-digit code') }).strict(),
    response: { status: 200, description: 'The guarantor, verified.', data: GuarantorSchema },
    errors: [...OTP_FIRST, 'NOT_FOUND', 'otp_incorrect', 'otp_superseded', 'otp_expired', 'otp_locked'],
    async handle(ctx) {
      return { message: 'Guarantor confirmed', data: await verifyGuarantor(ctx.platform, sessionOf(ctx), ctx.body.guarantorId, ctx.body.code, ctx.now) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/checkout/merchants',
    operationId: 'listCheckoutMerchants',
    tag: 'Checkout',
    summary: 'Merchants to receive the funds',
    description:
      'The settlement catalog (only for `merchant_wallet` loans whose product has `settlementCatalogEnabled`; 422 `settlement_catalog_not_offered` otherwise): ' +
      'the active providers of the directory (`GET /v1/providers`, the same for every partner), by name, with their public business facts only. ' +
      '`q` matches part of the name, city, state, LGA or address (case-insensitive). At most 50 per page.',
    access: 'checkoutSession',
    query: z.object({
      q: z.string().trim().min(1).max(100).optional(),
      page: z.coerce.number().int().min(1).max(10_000).default(1),
      limit: z.coerce.number().int().min(1).max(50).default(20).meta({ description: 'Page size, 1-50 (default 20).' }),
    }),
    response: { status: 200, description: 'One page of merchants.', data: z.object({ merchants: z.array(SettlementMerchantSchema), pagination: PaginationSchema }) },
    errors: [...OTP_FIRST, 'settlement_catalog_not_offered'],
    async handle(ctx) {
      return { message: 'Merchants', data: await listSettlementMerchants(ctx.db, sessionOf(ctx), ctx.query) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/merchant',
    operationId: 'chooseCheckoutMerchant',
    tag: 'Checkout',
    summary: 'Choose the merchant that receives the funds',
    description:
      'The catalog step: records on the loan the merchant (an active provider of the directory; 422 `provider_not_found` otherwise) that disbursement pays ' +
      '(its `merchant_wallet`). Choosing the recorded merchant again answers the same; another one replaces it until the loan is disbursed ' +
      '(409 `invalid_loan_state` afterwards, and for declined, rejected or cancelled loans). Signing through the session needs a choice (409 `checkout_step_required`). ' +
      'No event is sent for it; the choice is on the loan when `loan.disbursed` fires.',
    access: 'checkoutSession',
    body: z.object({ providerId: Uuid.meta({ description: 'A merchant id from `GET /v1/checkout/merchants`.' }) }).strict(),
    response: { status: 200, description: 'The merchant recorded on the loan.', data: SettlementMerchantChoiceSchema },
    errors: [...OTP_FIRST, 'settlement_catalog_not_offered', 'provider_not_found', 'invalid_loan_state'],
    async handle(ctx) {
      return { message: 'Merchant chosen', data: await chooseSettlementMerchant(ctx.db, sessionOf(ctx), ctx.body.providerId, ctx.now) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/accept',
    operationId: 'acceptCheckoutOffer',
    tag: 'Checkout',
    summary: 'Sign the offer',
    description:
      'The checkout server assembles the consent: the typed name (and e-mail), the borrower\'s IP and user agent as it saw them, and the offer the borrower read. ' +
      'The platform adds `signedAt` from its own clock and records the evidence as given by the session holder. A re-issued offer answers 409 `stale_document_reference` ' +
      'with the current offer in `data.currentOffer`; missing confirmed guarantors or (catalog loans) no merchant chosen 409 `checkout_step_required`. Emits `loan.offer.accepted`. Accepting again with the same reference returns the loan unchanged. ' +
      'Optionally `passkey`: an assertion over the challenge of `POST /v1/checkout/passkeys/sign-challenge`. The platform re-derives the challenge from the loan, the current reference and the nonce it issued, ' +
      'verifies the signature with the passkey\'s stored public key (user verification required), uses the nonce once and stores the raw assertion with the consent; ' +
      'the signed offer letter then shows it. Any passkey refusal (422 `passkey_challenge_invalid`, `passkey_challenge_expired`, `passkey_verification_failed`; 409 `passkey_challenge_used`) changes nothing. ' +
      'The typed name stays the signature in both paths, and it must be the borrower\'s name on record (order, middle names, titles, accents and case do not matter): another name answers 422 `signature_name_mismatch`; ' +
      'a partial one (an initial, one name only) 422 `signature_name_unconfirmed` unless `confirmSignatureName` is true. Either refusal changes nothing; the comparison is kept with the consent evidence.',
    access: 'checkoutSession',
    body: AcceptInput,
    response: { status: 200, description: 'The outcome for the borrower: the loan id, its status (`terms_accepted`) and the signed reference. Not the partner\'s Loan record: the browser never sees the partner\'s metadata or references, nor the application link.', data: CheckoutOutcomeSchema },
    errors: [
      ...OTP_FIRST, 'invalid_loan_state', 'stale_document_reference', 'checkout_step_required', 'signature_name_mismatch', 'signature_name_unconfirmed',
      'passkey_challenge_invalid', 'passkey_challenge_expired', 'passkey_challenge_used', 'passkey_verification_failed',
    ],
    async handle(ctx) {
      const loan = await acceptViaCheckout(sessionLoanContext(ctx), sessionOf(ctx), ctx.body);
      return { message: 'Offer accepted', data: checkoutOutcome(loan) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/decline',
    operationId: 'declineCheckoutOffer',
    tag: 'Checkout',
    summary: 'Decline the offer',
    description: 'As accept, with an optional reason; the loan becomes `terms_declined` (terminal) and `loan.offer.declined` is emitted. Idempotent.',
    access: 'checkoutSession',
    body: DeclineInput,
    response: { status: 200, description: 'The outcome for the borrower: the loan id, its status (`terms_declined`) and the declined reference.', data: CheckoutOutcomeSchema },
    errors: [...OTP_FIRST, 'invalid_loan_state', 'stale_document_reference'],
    async handle(ctx) {
      const { reason, ...signature } = ctx.body;
      const loan = await declineViaCheckout(sessionLoanContext(ctx), sessionOf(ctx), signature, reason ?? null);
      return { message: 'Offer declined', data: checkoutOutcome(loan) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/mandate',
    operationId: 'createCheckoutMandate',
    tag: 'Checkout',
    summary: 'Set up the direct debit',
    description:
      'After the offer is signed (409 `checkout_step_required` before) and the bank account confirmed (409 `checkout_step_required` without one): a mandate on the default rail ' +
      'with that account and the borrower\'s e-mail on record (or `email`; 422 `email_required` when neither exists). Send the borrower to `authorizationUrl`; the rail redirects to `callbackUrl` afterwards, ' +
      'then call `/v1/checkout/mandate/activate`. A mandate still in play (initiated or pending, read back from the rail) on the captured account, or an active one, is returned (200) instead of a second one; ' +
      'after a mandate failed, was refused, cancelled or expired — or once another account was captured — a fresh one is set up (201). ' +
      'An `email` sent for a borrower with none on record is kept on the borrower, so later attempts need not send it again. ' +
      'Live sessions: 503 `provider_not_configured` while no live payment rail is configured (nothing written, the e-mail included).',
    access: 'checkoutSession',
    transactional: false,
    body: z
      .object({
        email: z.email().max(150).optional(),
        callbackUrl: z.url({ protocol: /^https?$/ }).max(2000).optional().meta({ description: 'Where the rail sends the borrower back (the hosted checkout page).' }),
      })
      .strict(),
    response: { status: 201, description: 'The mandate (200 when one was already in play).', data: MandateSchema },
    errors: [...OTP_FIRST, 'invalid_loan_state', 'checkout_step_required', 'email_required', 'rail_unavailable', 'provider_not_configured'],
    async handle(ctx) {
      const { mandate, created } = await createMandateViaCheckout(ctx.platform.db, ctx.platform, sessionOf(ctx), ctx.body, ctx.now);
      return { status: created ? 201 : 200, message: created ? 'Mandate initiated: send the borrower to authorizationUrl' : 'Mandate already set up', data: mandate };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/mandate/activate',
    operationId: 'activateCheckoutMandate',
    tag: 'Checkout',
    summary: 'Confirm the direct debit',
    description:
      'Reads the loan\'s latest mandate back from the rail, as `POST /v1/mandates/{id}/activate` does: `active` once the provider has confirmed, otherwise `pending` (try again shortly). ' +
      'A mandate that ended without becoming active answers 409 with `mandate_declined` (the borrower refused at their bank), `mandate_failed` (the bank or rail failed or cancelled it) ' +
      'or `mandate_expired`, and `data` `{mandateId, status, reason}`; `POST /v1/checkout/mandate` then sets up a fresh one. ' +
      'Live sessions: 503 `provider_not_configured` while no live payment rail is configured (nothing written).',
    access: 'checkoutSession',
    transactional: false,
    response: { status: 200, description: 'The mandate.', data: MandateSchema },
    errors: [...OTP_FIRST, 'invalid_loan_state', 'checkout_step_required', 'rail_unavailable', 'provider_not_configured', 'mandate_declined', 'mandate_failed', 'mandate_expired'],
    async handle(ctx) {
      const { mandate, message } = await activateMandateViaCheckout(ctx.platform.db, ctx.platform, sessionOf(ctx), ctx.now);
      return { message, data: mandate };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/checkout/passkeys',
    operationId: 'listCheckoutPasskeys',
    tag: 'Checkout',
    summary: 'The borrower\'s passkeys',
    description:
      'Passkeys belong to the borrower\'s platform user (the verified phone), not to one loan or lender, and to one relying party (`rpId`, the checkout\'s host). ' +
      'The public parts a relying party needs to verify an assertion: credential id, public key, counter, transports. With `rpId`, only that relying party\'s.',
    access: 'checkoutSession',
    query: z.object({ rpId: RpId.optional() }),
    response: { status: 200, description: 'The session\'s loan id and the passkeys.', data: PasskeyListSchema },
    errors: [...OTP_FIRST],
    async handle(ctx) {
      const user = await sessionUser(ctx.db, sessionOf(ctx));
      const rows = await listUserPasskeys(ctx.db, user.userId, ctx.query.rpId);
      return { message: 'Passkeys', data: { loanId: sessionOf(ctx).loanId, passkeys: rows.map(toPasskey) } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/passkeys/registration-challenge',
    operationId: 'createCheckoutPasskeyRegistrationChallenge',
    tag: 'Checkout',
    summary: 'Start registering a passkey',
    description:
      'After OTP. A one-time challenge (5 minutes) for `navigator.credentials.create()` on relying party `rpId`, the user handle and names to show, and the passkeys to exclude. ' +
      'Passkeys are optional: the typed-name signature with the verified phone always works without one.',
    access: 'checkoutSession',
    body: z.object({ rpId: RpId }).strict(),
    response: { status: 201, description: 'The challenge.', data: RegistrationChallengeSchema },
    errors: [...OTP_FIRST],
    async handle(ctx) {
      return { status: 201, message: 'Registration challenge issued', data: await issueRegistrationChallenge(ctx.db, sessionOf(ctx), ctx.body, ctx.now) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/passkeys',
    operationId: 'registerCheckoutPasskey',
    tag: 'Checkout',
    summary: 'Register a passkey',
    description:
      'The registration response for a challenge this session was given. The platform verifies it itself (@simplewebauthn/server: challenge, `origin`, `rpId`, user verification required, attestation `none` accepted), ' +
      'uses the challenge once and stores the credential (public key, id, counter, transports) for the borrower\'s platform user. ' +
      '422 `passkey_challenge_invalid` (not this session\'s, or another `rpId`), `passkey_challenge_expired`, `passkey_verification_failed`; 409 `passkey_challenge_used`, `passkey_already_registered`. A refusal changes nothing.',
    access: 'checkoutSession',
    body: PasskeyRegistrationInput,
    response: { status: 201, description: 'The passkey.', data: PasskeySchema },
    errors: [...OTP_FIRST, 'passkey_challenge_invalid', 'passkey_challenge_expired', 'passkey_challenge_used', 'passkey_verification_failed', 'passkey_already_registered'],
    async handle(ctx) {
      const session = sessionOf(ctx);
      const data = await registerPasskey(ctx.db, session, ctx.body, ctx.now, `checkout-session:${session.sessionId}`);
      return { status: 201, message: 'Passkey registered', data };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/checkout/passkeys/sign-challenge',
    operationId: 'createCheckoutPasskeySignChallenge',
    tag: 'Checkout',
    summary: 'Start signing the offer with a passkey',
    description:
      'A one-time nonce (5 minutes, single use) and the challenge that binds it to this offer: ' +
      '`base64url(SHA-256(UTF-8(JSON.stringify(["lc-offer-signature/v1", loanId, documentReference, nonce]))))`. ' +
      'Send the assertion with `POST /v1/checkout/accept` (`passkey`). 409 `invalid_loan_state` when there is no offer to sign, 409 `passkey_not_registered` without a passkey for `rpId`.',
    access: 'checkoutSession',
    body: z.object({ rpId: RpId }).strict(),
    response: { status: 201, description: 'The nonce, the challenge and the passkeys allowed.', data: SignChallengeSchema },
    errors: [...OTP_FIRST, 'invalid_loan_state', 'passkey_not_registered'],
    async handle(ctx) {
      return { status: 201, message: 'Signing challenge issued', data: await issueSignChallenge(ctx.db, sessionOf(ctx), ctx.body, ctx.now) };
    },
  }),
];
