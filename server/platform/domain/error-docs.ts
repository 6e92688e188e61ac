import type { ErrorCode } from './errors';

/**
 * The partner-facing documentation of every error code of `ERROR_STATUS`: what it means and what to do. `npm run
 * docs:errors` writes `docs/errors.md` from it (and from the statuses of the table); every error answer links its entry
 * through `docUrl`. The mapped type makes a code without an entry a compile error, and `test/unit/error-docs.test.ts`
 * fails when `docs/errors.md` is stale.
 */
export interface ErrorDoc {
  /** The part of the product that answers with it: the heading it is listed under. */
  area: ErrorArea;
  /** What went wrong, in the caller's terms. */
  meaning: string;
  /** What to do about it. */
  action: string;
}

export const ERROR_AREAS = [
  'Requests and credentials',
  'Lending',
  'Pushed decisions',
  'Webhooks',
  'Checkout',
  'Borrower loans',
  'Telemedicine',
  'Patient financing',
  'Dashboard',
  'Operations console',
  'Sales demo',
  'Provider webhooks',
  'Service',
] as const;
export type ErrorArea = (typeof ERROR_AREAS)[number];

const RETRY = 'Safe to retry: send the same request again after a short wait, with the same `Idempotency-Key`.';
const NEW_CHALLENGE = 'Ask for a new challenge (passkey options) and let the borrower try again.';

export const ERROR_DOCS: { readonly [C in ErrorCode]: ErrorDoc } = {
  invalid_request: {
    area: 'Requests and credentials',
    meaning: 'A body field, query parameter or path parameter is missing or malformed.',
    action: '`message` starts with the path of the field (`body.borrower.firstName: …`); correct that field and send again.',
  },
  INVALID_ID: {
    area: 'Requests and credentials',
    meaning: 'An id in the path is not a UUID.',
    action: 'Send the `id` exactly as the API returned it.',
  },
  INVALID_JSON: {
    area: 'Requests and credentials',
    meaning: 'The body is not valid JSON.',
    action: 'Send a JSON object with `Content-Type: application/json`.',
  },
  UNAUTHENTICATED: {
    area: 'Requests and credentials',
    meaning: 'The key pair is missing, unknown, expired or revoked.',
    action:
      'Send `X-API-Public-Key` and `X-API-Secret-Key` (or `Authorization: ApiKey <public>:<secret>`) of an active key; the dashboard\'s Keys page lists them.',
  },
  LOAN_TENANT_PERMISSION_DENIED: {
    area: 'Requests and credentials',
    meaning: 'Your organisation does not hold the Loan Tenant permission that the lending routes need.',
    action: 'Ask the platform operator to grant the permission.',
  },
  PREAPPROVED_LENDING_PERMISSION_DENIED: {
    area: 'Requests and credentials',
    meaning: 'Your organisation does not hold the Pre-Approved Lending permission that the pre-approval routes need.',
    action: 'Ask the platform operator to grant the permission.',
  },
  ORGANISATION_DISABLED: {
    area: 'Requests and credentials',
    meaning: 'Your organisation is disabled: no key of it is accepted.',
    action: 'Contact partner support.',
  },
  FEATURE_DISABLED: {
    area: 'Requests and credentials',
    meaning: 'A feature switch this route needs is off for your organisation.',
    action: 'Ask the platform operator to switch the feature on, or use another route.',
  },
  LINK_INVALID: {
    area: 'Requests and credentials',
    meaning: 'A signed link (an offer letter, a file) was altered or has expired.',
    action: 'Read the record again through the API to get a fresh link.',
  },
  SANDBOX_ONLY: {
    area: 'Requests and credentials',
    meaning: 'A live key called a sandbox helper route (`/v1/test/…`).',
    action: 'Call sandbox helpers with test keys (`pk_test_…`/`sk_test_…`) only.',
  },
  sandbox_inbox_loopback_only: {
    area: 'Requests and credentials',
    meaning: 'The sandbox inbox page (`/sandbox/mail`, development only) was opened from another machine, or through a proxy (a forwarding header). Its e-mails hold working sign-up, reset and invitation links, so it answers only a browser on the server\'s own machine.',
    action: 'Open it on the machine the server runs on, or through a tunnel that ends on its loopback (`ssh -L 3000:127.0.0.1:3000 host`), or read the JSON files in `MAIL_DIR`.',
  },
  NOT_FOUND: {
    area: 'Requests and credentials',
    meaning: 'No such record or route for this organisation and mode (another organisation\'s record, or a test record read with a live key, answers the same).',
    action: 'Check the id and that the key\'s mode (test or live) is the one the record was created in.',
  },
  IDEMPOTENCY_KEY_CONFLICT: {
    area: 'Requests and credentials',
    meaning: 'This `Idempotency-Key` was used before with another method, path or body.',
    action: 'Use a new key for a new request; reuse a key only to retry the very same request.',
  },
  IDEMPOTENCY_KEY_IN_USE: {
    area: 'Requests and credentials',
    meaning: 'A request with this `Idempotency-Key` is still running.',
    action: 'Wait a moment and retry with the same key: you get the first request\'s answer.',
  },
  credential_not_allowed: {
    area: 'Requests and credentials',
    meaning: 'The credential is of the wrong kind for this route: a checkout-session token on a partner route, or an API key on a checkout-session route.',
    action: 'Call partner routes with your key pair, and the Checkout routes with `Authorization: CheckoutSession <token>`.',
  },
  insufficient_scope: {
    area: 'Requests and credentials',
    meaning: 'The key pair is a restricted key whose scopes do not include the one this route needs (`data.requiredScope`, e.g. `loans:write`); nothing was read or changed.',
    action: 'Call it with a key that has that scope (a `write` scope includes its `read`), or a full-access key; an owner or admin of your organisation can make one on the dashboard\'s API keys page.',
  },
  LIVE_MODE_NOT_ENABLED: {
    area: 'Requests and credentials',
    meaning: 'A live key was used before the platform operator enabled live mode for your organisation.',
    action: 'Keep using test keys; ask the operator to enable live mode when you are ready.',
  },
  PAYLOAD_TOO_LARGE: {
    area: 'Requests and credentials',
    meaning: 'The body is larger than the size limit.',
    action: 'Send a smaller body; `message` states the limit.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    area: 'Requests and credentials',
    meaning: 'The body is not UTF-8 `application/json` (or, for a recording chunk, not audio).',
    action: 'Send the body with `Content-Type: application/json`.',
  },
  unprocessable: {
    area: 'Requests and credentials',
    meaning: 'The input is well-formed but cannot be used; `message` says why.',
    action: 'Correct the input as `message` describes and send again.',
  },
  checkout_session_missing: {
    area: 'Checkout',
    meaning: 'The checkout server got no checkout session: no `Authorization: CheckoutSession <token>` header and no session cookie of the hosted page.',
    action: 'Embedded: pass the token your server minted as `session` to `mount`. Hosted: open the loan\'s `applicationUrl` or the session\'s `url` again.',
  },
  borrower_session_missing: {
    area: 'Borrower loans',
    meaning: 'The checkout server\'s loan page (`/my-loan/api/*`) got no borrower session: the browser has not signed in (or signed out), or the `X-Borrower-Session` handle names none of its sessions.',
    action: 'Sign in on the page with the phone number and its code, or open the `/my-loan/s/<token>` link of a session your backend minted.',
  },
  origin_not_allowed: {
    area: 'Checkout',
    meaning: 'The page calling the checkout server is of an origin nobody allowed; the widget shows the borrower a way back and logs the setting to change.',
    action: 'Against the hosted checkout: add the page\'s origin with `PATCH /v1/checkout-settings {"allowedOrigins": [...]}` using a key of the session\'s mode. Your own checkout server: add it to `allowedOrigins` of `createCheckoutRouter`.',
  },
  passkeys_unavailable: {
    area: 'Checkout',
    meaning: 'Passkeys are switched off for this checkout server, or this page cannot use them (no relying party for its origin).',
    action: 'Sign with the typed full name; to offer passkeys, set `CHECKOUT_PASSKEYS_ENABLED` and the passkey origin of the page.',
  },
  agreement_required: {
    area: 'Checkout',
    meaning: 'The offer was signed without ticking the box that agrees to its terms.',
    action: 'Tick the agreement box, then sign again.',
  },
  platform_unavailable: {
    area: 'Checkout',
    meaning:
      'The checkout server (or the sales demo at `/demo`) could not reach the lending platform, or got an answer it did not expect. Nothing was changed by this call.',
    action:
      'Retry shortly; if it lasts, check that the checkout server\'s `apiBaseUrl` points at the platform and that the platform is up (the demo calls the process it runs in).',
  },
  RATE_LIMITED: {
    area: 'Requests and credentials',
    meaning: 'This key has used its request budget for the current window.',
    action: 'Wait the seconds in `Retry-After`, then retry; the `RateLimit` header shows the remaining budget.',
  },
  ALREADY_EXISTS: {
    area: 'Requests and credentials',
    meaning: 'A record with this natural key (for example a product code) exists already.',
    action: 'Read the existing record, or choose another key.',
  },

  invalid_loan_state: {
    area: 'Lending',
    meaning: 'The loan\'s status does not allow this step (for example approving a loan that is already disbursed).',
    action: 'Read the loan again (`GET /v1/loans/{id}`) and act on its current `status`.',
  },
  stale_document_reference: {
    area: 'Lending',
    meaning: 'The consent names an offer document that is no longer the current one.',
    action: 'Show the borrower the current offer (`data.currentOffer`) and send its `documentReference`.',
  },
  loan_already_disbursed: {
    area: 'Lending',
    meaning: 'The loan has been disbursed, so it can no longer be cancelled.',
    action: 'Handle it as a running loan: record repayments or an early payoff instead.',
  },
  wrong_kyc_tier: {
    area: 'Lending',
    meaning: 'The route belongs to the other KYC tier (managed-tier KYC versus delegated-tier attestation).',
    action: 'Use the KYC route of the loan\'s product tier.',
  },
  approval_mode_mismatch: {
    area: 'Lending',
    meaning: 'The loan\'s approval mode does not allow this approval path.',
    action: 'Approve the loan through the path of its product\'s approval mode.',
  },
  borrower_conflict: {
    area: 'Lending',
    meaning: 'The pushed BVN belongs to a borrower you pushed before under another name (not a spelling or form of it), so the push was not recorded.',
    action: 'Check the BVN and the borrower\'s name in your records, then push again. `data.borrowerId` is the borrower on record.',
  },
  review_closed: {
    area: 'Lending',
    meaning: 'The review was decided already, the other way, or it closed when its loan was cancelled or rejected.',
    action: 'Read the review and its loan again; a loan that needs another decision has a new open review.',
  },
  aml_screen_required: {
    area: 'Lending',
    meaning: 'In live mode a loan is offered only after its borrower\'s AML screen came back clear, or a person cleared its review.',
    action: 'Approve the loan (it screens the borrower); a loan `under_review` waits for the review\'s decision.',
  },
  guarantors_required: {
    area: 'Lending',
    meaning: 'The loan\'s product asks for guarantors, and fewer than that have confirmed their phone.',
    action: 'Send the borrower to the checkout (`applicationUrl`): they name the guarantors there, who confirm by a code; then accept the terms.',
  },
  invalid_preapproval_state: {
    area: 'Lending',
    meaning: 'The pre-approval is declined or expired, so it cannot be used for this.',
    action: 'Push a new decision.',
  },
  repayment_method_unavailable: {
    area: 'Lending',
    meaning: 'This repayment method is not available for the loan (not offered, or not on this rail).',
    action: 'Use another repayment method.',
  },
  no_borrower_wallet: {
    area: 'Lending',
    meaning: 'The borrower has no cash wallet (no claimed platform account); nothing was changed.',
    action: 'Use a repayment or payout method that does not need the borrower\'s wallet.',
  },
  insufficient_wallet_balance: {
    area: 'Lending',
    meaning: 'The borrower\'s wallet (or ledger balance) holds less than the amount; nothing was changed.',
    action: 'Send a smaller amount, or wait until the balance covers it.',
  },
  no_undrawn_credit: {
    area: 'Lending',
    meaning: 'The loan was not disbursed to the borrower\'s wallet, so there is no undrawn credit to sweep back.',
    action: 'Use another repayment method.',
  },
  account_number_invalid: {
    area: 'Lending',
    meaning: 'The account number is not a 10-digit NUBAN whose check digit matches the bank code.',
    action: 'Check the account number and the bank code with the account holder.',
  },
  invalid_payout_state: {
    area: 'Lending',
    meaning: 'The payout is already settled or rejected (or settled under another reference).',
    action: 'Read the payout again and act on its current status.',
  },
  insufficient_pool_funds: {
    area: 'Lending',
    meaning: 'The capital pool does not hold enough to disburse this loan; nothing was changed.',
    action: 'Fund the pool, then disburse again.',
  },
  INSUFFICIENT_FUNDS: {
    area: 'Lending',
    meaning: 'A balance would go below zero (a capital pool is never overdrawn); nothing was changed.',
    action: 'Fund the balance first, or use a smaller amount.',
  },
  interest_rate_bps_above_tenant_cap: {
    area: 'Lending',
    meaning: 'The rate is above your organisation\'s rate cap; it is never clamped.',
    action: 'Send a rate at or below the cap.',
  },
  outside_product_limits: {
    area: 'Lending',
    meaning: 'The amount or tenor is outside the product\'s limits.',
    action: 'Read the product (`GET /v1/products/{id}`) and stay within its minimum and maximum.',
  },
  preapproval_not_offerable: {
    area: 'Lending',
    meaning: 'The pre-approval cannot be priced (no tenor or rate, or it is declined or expired).',
    action: 'Push a decision with a tenor and a rate, or choose a product that prices it.',
  },
  product_not_usable: {
    area: 'Lending',
    meaning: 'The product cannot be used here: wrong approval mode, inactive, or without a capital pool.',
    action: 'Choose an active product of the right approval mode that has a capital pool.',
  },
  provider_not_configured: {
    area: 'Lending',
    meaning: 'Live mode: an outside provider this call needs (payment rail, AML screen, …) is not configured, so the call was refused rather than sent to a sandbox; nothing was written. `data.provider` names it.',
    action: 'Ask the platform operator to configure the live provider.',
  },
  rail_unavailable: {
    area: 'Lending',
    meaning: 'The payment-rail provider refused the request or could not be reached.',
    action: RETRY,
  },

  assessment_id_required: {
    area: 'Pushed decisions',
    meaning: '`decision.metadata.assessment_id` is missing, or not a string of 1-255 characters.',
    action: 'Send your own assessment id as a string.',
  },
  bvn_invalid: {
    area: 'Pushed decisions',
    meaning: '`decision.metadata.bvn` is missing or not exactly 11 digits.',
    action: 'Send the borrower\'s 11-digit BVN as a string.',
  },
  nin_invalid: {
    area: 'Pushed decisions',
    meaning: '`decision.metadata.nin` is present but not 11-15 characters.',
    action: 'Send a valid NIN, or leave it out.',
  },
  recommendation_required: {
    area: 'Pushed decisions',
    meaning: '`decision.decision.recommendation` is missing.',
    action: 'Send the recommendation (approve or decline).',
  },
  approved_amount_invalid: {
    area: 'Pushed decisions',
    meaning: '`decision.decision.approved_amount` is missing on an approval, or not convertible to whole kobo.',
    action: 'Send the approved amount in naira with at most two decimals.',
  },
  interest_rate_invalid: {
    area: 'Pushed decisions',
    meaning: '`decision.decision.conditions.interest_rate` does not convert to whole basis points.',
    action: 'Send the annual rate in percent with at most two decimals (e.g. `24.5`).',
  },
  tenor_days_invalid: {
    area: 'Pushed decisions',
    meaning: '`decision.decision.conditions.tenor_days` is not a whole number of days from 1 to 3650.',
    action: 'Send a whole number of days.',
  },
  repayment_frequency_invalid: {
    area: 'Pushed decisions',
    meaning: '`decision.decision.conditions.repayment_frequency` is not `daily`, `weekly`, `biweekly` or `monthly`.',
    action: 'Send one of those values, or leave it out (monthly).',
  },
  provider_not_found: {
    area: 'Pushed decisions',
    meaning: '`providerId` is not an active provider of the directory.',
    action: 'Pick a provider from `GET /v1/providers`.',
  },

  delivery_in_flight: {
    area: 'Webhooks',
    meaning: 'The webhook delivery is being attempted right now.',
    action: 'Read the delivery again in a few seconds.',
  },
  webhook_endpoint_unavailable: {
    area: 'Webhooks',
    meaning: 'The delivery\'s endpoint was deleted or is disabled.',
    action: 'Re-enable the endpoint (`PATCH` with `status: active`), then redeliver.',
  },
  webhook_url_not_allowed: {
    area: 'Webhooks',
    meaning: 'The URL\'s host is an IP address that may not receive webhooks (private, loopback, link-local, …) or a special-use or internal name (`localhost`, `*.local`, `*.internal`, `*.home.arpa`, a single-label name, …); in a rehearsal of live mode (`npm run rehearse`), a host that is not this machine.',
    action: 'Register a public https URL (in a rehearsal: a receiver on this machine, `http://127.0.0.1:<port>/…`).',
  },
  webhook_secret_not_applicable: {
    area: 'Webhooks',
    meaning: 'A patient-financing endpoint has no signing secret of its own: your API secret key signs its deliveries.',
    action: 'Roll the API key pair instead.',
  },

  checkout_session_expired: {
    area: 'Checkout',
    meaning: 'The checkout-session token has passed its expiry or its absolute lifetime.',
    action: 'Mint a new session (`POST /v1/loans/{id}/checkout-sessions`) or let the borrower ask for a new link.',
  },
  checkout_session_revoked: {
    area: 'Checkout',
    meaning: 'The lender revoked the checkout-session token.',
    action: 'Mint a new session for the borrower.',
  },
  checkout_session_not_expired: {
    area: 'Checkout',
    meaning: 'The session has not expired, so there is nothing to renew.',
    action: 'Reload the checkout page: the session still works.',
  },
  checkout_renew_limit: {
    area: 'Checkout',
    meaning: 'A new link was texted moments ago, or too many were sent today.',
    action: 'Wait the seconds in `Retry-After`.',
  },
  checkout_otp_required: {
    area: 'Checkout',
    meaning: 'This step needs the borrower\'s phone verified by OTP first.',
    action: 'Send and verify the OTP, then repeat the step.',
  },
  checkout_step_required: {
    area: 'Checkout',
    meaning: 'An earlier step is not done yet (e.g. the bank account before the mandate); `message` names it.',
    action: 'Complete the step `message` names (`GET /v1/checkout/session` gives `nextStep`).',
  },
  email_required: {
    area: 'Checkout',
    meaning: 'The payment rail needs the borrower\'s e-mail and none is on record.',
    action: 'Send `email` with the request.',
  },
  mandate_declined: {
    area: 'Checkout',
    meaning: 'The borrower refused the direct debit at their bank.',
    action: 'Set up a fresh mandate (`POST /v1/checkout/mandate`).',
  },
  mandate_failed: {
    area: 'Checkout',
    meaning: 'The bank or the rail could not set the direct debit up (failed or cancelled there).',
    action: 'Set up a fresh mandate (`POST /v1/checkout/mandate`), possibly on another account.',
  },
  mandate_expired: {
    area: 'Checkout',
    meaning: 'The borrower did not complete the mandate authorisation in time.',
    action: 'Set up a fresh mandate (`POST /v1/checkout/mandate`).',
  },
  bank_account_locked: {
    area: 'Checkout',
    meaning: 'The direct debit is active, so the account it debits can no longer be changed in the checkout.',
    action: 'The borrower asks the lender to change it.',
  },
  otp_resend_too_soon: {
    area: 'Checkout',
    meaning: 'A code was sent less than the cool-down ago; `data` describes the code in play.',
    action: 'Wait the seconds in `Retry-After`, or use the code already sent.',
  },
  otp_send_limit: {
    area: 'Checkout',
    meaning: 'Too many codes were sent to this phone in the current hour.',
    action: 'Wait the seconds in `Retry-After`.',
  },
  otp_incorrect: {
    area: 'Checkout',
    meaning: 'The code does not match; `data.attemptsLeft` counts the attempts that remain.',
    action: 'Let the borrower type the code again.',
  },
  otp_superseded: {
    area: 'Checkout',
    meaning: 'The code is an older one that a newer code replaced; `data.attemptsLeft` counts the attempts that remain.',
    action: 'Use the code of the latest text message.',
  },
  otp_expired: {
    area: 'Checkout',
    meaning: 'The code has expired, or no code was sent.',
    action: 'Send a new code.',
  },
  otp_locked: {
    area: 'Checkout',
    meaning: 'Too many wrong codes.',
    action: 'Send a new code (subject to the send limit).',
  },
  borrower_session_ended: {
    area: 'Borrower loans',
    meaning: 'The borrower session was revoked by the lender or the borrower, or it has expired.',
    action: 'Sign the borrower in again (`POST /v1/borrower/sign-in/send`, then `/verify`), or mint a new session from your backend.',
  },
  borrower_sign_in_rate_limited: {
    area: 'Borrower loans',
    meaning:
      'Too many `POST /v1/borrower/sign-in/send` (20) or `/verify` (60) requests from this client address in this clock hour (`BORROWER_SIGN_IN_SENDS_PER_IP_PER_HOUR`, `BORROWER_SIGN_IN_VERIFIES_PER_IP_PER_HOUR`); nothing was sent or checked. The per-phone code rules apply as well.',
    action: 'Wait the seconds in `Retry-After` (the end of the hour). A page that forwards every borrower from one server address should ask for higher limits.',
  },
  payment_amount_out_of_range: {
    area: 'Borrower loans',
    meaning: 'The amount is below the minimum payment (₦100, or the whole outstanding when that is less) or above what the loan still owes; `data.minKobo` and `data.maxKobo` give the range.',
    action: 'Offer an amount within the range; to close the loan, ask for a settlement quote instead.',
  },
  payment_in_progress: {
    area: 'Borrower loans',
    meaning: 'A payment on this loan is still being collected (from another tab or device, or a scheduled debit); nothing was charged.',
    action: 'Wait for it to finish (re-read the loan), then pay again if something is still owed.',
  },
  payment_refused: {
    area: 'Borrower loans',
    meaning: 'The bank or the payment rail refused the debit (`data.reason`: e.g. `insufficient_funds`). Nothing was taken and the loan is unchanged.',
    action: 'Let the borrower fund the account and try again, try a smaller amount, or contact the lender (`data.lender`) to pay another way.',
  },
  settlement_quote_expired: {
    area: 'Borrower loans',
    meaning: 'A settlement quote holds until the end of the day it was made (Lagos time); this one\'s day is over.',
    action: 'Ask for a new quote (`POST /v1/borrower/loans/{id}/settlement-quotes`) and pay that one.',
  },
  settlement_quote_stale: {
    area: 'Borrower loans',
    meaning: 'The loan changed since the quote was made (a payment was applied, or the quote was paid already), so its amount no longer settles the loan exactly.',
    action: 'Re-read the loan and ask for a new quote.',
  },
  bank_account_unchanged: {
    area: 'Borrower loans',
    meaning: 'The borrower asked to move the direct debit to the account it already comes from; nothing was set up.',
    action: 'Give another account, or leave the debit as it is.',
  },
  mandate_replacement_pending: {
    area: 'Borrower loans',
    meaning: 'Two changes of debit account for one loan were started at the same moment (another tab or device); this one was not set up.',
    action: 'Re-read the loan (`mandateReplacement`) and continue with the pending change, or start again with the account wanted.',
  },
  borrower_phone_invalid: {
    area: 'Checkout',
    meaning: 'The borrower\'s phone on record cannot receive an OTP (not a valid number).',
    action: 'The lender corrects the borrower\'s phone number.',
  },
  guarantor_phone_invalid: {
    area: 'Checkout',
    meaning: 'The guarantor\'s phone is not a valid number, or is the borrower\'s own.',
    action: 'Give the guarantor\'s own Nigerian mobile number.',
  },
  guarantors_not_accepted: {
    area: 'Checkout',
    meaning: 'The loan\'s product takes no guarantors, or enough have been named already.',
    action: 'Skip this step.',
  },
  settlement_catalog_not_offered: {
    area: 'Checkout',
    meaning: 'The loan\'s product has no settlement catalog (only `merchant_wallet` products with `settlementCatalogEnabled` let the borrower pick the merchant).',
    action: 'Skip this step.',
  },
  sms_unavailable: {
    area: 'Checkout',
    meaning: 'The SMS provider refused the message or could not be reached.',
    action: RETRY,
  },
  bank_not_found: {
    area: 'Checkout',
    meaning: 'The bank code is not in the bank list.',
    action: 'Pick a bank from the bank list.',
  },
  account_not_found: {
    area: 'Checkout',
    meaning: 'The bank has no account with this number.',
    action: 'Check the account number and the bank with the borrower.',
  },
  bank_lookup_unavailable: {
    area: 'Checkout',
    meaning: 'The bank-account lookup provider could not be reached (or none is configured for live mode).',
    action: RETRY,
  },
  account_name_mismatch: {
    area: 'Checkout',
    meaning: 'The bank\'s name for the account does not match the borrower\'s name.',
    action: 'Ask the borrower to confirm the account is theirs (`confirmNameMismatch`) or give another account; with `data.policy: refuse` (the product\'s `nameMismatchPolicy`) only another account in the borrower\'s own name is taken.',
  },
  signature_name_mismatch: {
    area: 'Checkout',
    meaning: 'The typed signature is not the borrower\'s name on record.',
    action: 'The borrower types their own name.',
  },
  signature_name_unconfirmed: {
    area: 'Checkout',
    meaning: 'The typed signature matches the borrower\'s name only in part (an initial, one name).',
    action: 'Ask the borrower to confirm (`confirmSignatureName`) or type the name in full.',
  },
  passkey_not_registered: {
    area: 'Checkout',
    meaning: 'The borrower has no passkey for this relying party.',
    action: 'Register a passkey first, or sign with the typed name alone.',
  },
  passkey_already_registered: {
    area: 'Checkout',
    meaning: 'This passkey is registered already.',
    action: 'Nothing to do: use it to sign.',
  },
  passkey_challenge_invalid: {
    area: 'Checkout',
    meaning: 'The challenge was not issued to this checkout for this purpose, relying party or offer.',
    action: NEW_CHALLENGE,
  },
  passkey_challenge_expired: {
    area: 'Checkout',
    meaning: 'The passkey challenge has expired.',
    action: NEW_CHALLENGE,
  },
  passkey_challenge_used: {
    area: 'Checkout',
    meaning: 'The passkey challenge has been used already (each is single use).',
    action: NEW_CHALLENGE,
  },
  passkey_verification_failed: {
    area: 'Checkout',
    meaning: 'The WebAuthn response did not verify (signature, origin, relying party, user verification or unknown credential); nothing was changed.',
    action: NEW_CHALLENGE,
  },
  checkout_preview_only: {
    area: 'Checkout',
    meaning: 'The dashboard\'s checkout preview shows the screens only: nothing it sends is done.',
    action: 'Try the flow with a real test loan instead.',
  },

  appointment_time_in_past: {
    area: 'Telemedicine',
    meaning: 'The start time is in the past.',
    action: 'Send a future start time; to drop an appointment, cancel it.',
  },
  appointment_cancellation_too_late: {
    area: 'Telemedicine',
    meaning: 'The appointment starts in 5 minutes or less, so it can no longer be cancelled.',
    action: 'Let it run, or mark it as missed afterwards.',
  },
  appointment_already_started: {
    area: 'Telemedicine',
    meaning: 'The appointment has started (or its start time has passed), so it can no longer be cancelled.',
    action: 'Nothing to cancel: the consultation is under way.',
  },
  invalid_appointment_state: {
    area: 'Telemedicine',
    meaning: 'The appointment\'s status does not allow this (e.g. moving a completed or cancelled one).',
    action: 'Read the appointment again and act on its current status.',
  },
  meeting_not_open: {
    area: 'Telemedicine',
    meaning: 'The meeting link is unknown, or the meeting is not open now (too early, cancelled or completed).',
    action: 'Join within the meeting\'s time, with the participant\'s own link.',
  },
  doctor_only: {
    area: 'Telemedicine',
    meaning: 'Only the doctor may do this (notes, prescriptions, recording, ending the consultation).',
    action: 'Use the doctor\'s meeting link.',
  },
  recording_closed: {
    area: 'Telemedicine',
    meaning: 'The recording is finished or belongs to another session.',
    action: 'Start a new recording.',
  },
  recording_too_large: {
    area: 'Telemedicine',
    meaning: 'The recording would pass its size limit; nothing of the chunk was stored.',
    action: 'Finish this recording; a new one may follow.',
  },
  appointment_recordings_too_large: {
    area: 'Telemedicine',
    meaning: 'The appointment\'s recordings would pass their total size limit; nothing of the chunk was stored.',
    action: 'Stop recording this appointment.',
  },

  phone_number_invalid: {
    area: 'Patient financing',
    meaning: '`phoneNumber` is not a Nigerian mobile number written 080…, 234… or +234….',
    action: 'Send the patient\'s mobile number in one of those forms.',
  },
  treatment_amount_outside_policy: {
    area: 'Patient financing',
    meaning: '`treatmentAmount` (kobo) is outside the financeable range. A naira amount sent as kobo is a hundredth of what was meant and usually lands here.',
    action: 'Send the amount in kobo (naira × 100); `message` shows the range.',
  },
  client_reference_conflict: {
    area: 'Patient financing',
    meaning: 'This `clientReference` was used for an initiation with other fields.',
    action: 'Use a new `clientReference` for a new initiation.',
  },
  client_reference_in_use: {
    area: 'Patient financing',
    meaning: 'An initiation with this `clientReference` is being created by a concurrent request.',
    action: 'Retry in a moment to read it.',
  },
  bank_details_incomplete: {
    area: 'Patient financing',
    meaning: 'Only one of `bankCode` and `accountNumber` was sent.',
    action: 'Send both, or neither.',
  },
  bank_account_required: {
    area: 'Patient financing',
    meaning: 'There is no account to debit yet (none sent, none given by the patient).',
    action: 'Send `bankCode` and `accountNumber`, or wait for the patient to give them.',
  },
  application_expired: {
    area: 'Patient financing',
    meaning: 'The application\'s `expiresAt` has passed.',
    action: 'Initiate a new application.',
  },
  tenor_not_offered: {
    area: 'Patient financing',
    meaning: 'The chosen tenor is not one of the options the decision offered.',
    action: 'Choose one of the offered tenors.',
  },
  identity_unavailable: {
    area: 'Patient financing',
    meaning: 'The BVN identity provider could not be reached (or none is configured for live mode).',
    action: RETRY,
  },
  identity_mismatch: {
    area: 'Patient financing',
    meaning: 'The details do not match the BVN\'s record (or the name the partner gave); `message` says how many tries remain.',
    action: 'Let the patient check their details and try again.',
  },
  bureau_unavailable: {
    area: 'Patient financing',
    meaning: 'The credit bureau could not be reached (or none is configured for live mode).',
    action: RETRY,
  },

  session_required: {
    area: 'Dashboard',
    meaning: 'No valid dashboard session: never signed in, signed out, idle for 30 minutes or past 12 hours.',
    action: 'Sign in again.',
  },
  csrf_token_invalid: {
    area: 'Dashboard',
    meaning: 'A state-changing request came without the session\'s `X-CSRF-Token` header (or with a wrong one); nothing was changed.',
    action: 'Reload the dashboard and try again.',
  },
  dashboard_permission_denied: {
    area: 'Dashboard',
    meaning: 'The signed-in member\'s role may not do this (`data.action`, `data.role`); nothing was read or changed.',
    action: 'Ask an owner or admin of your organisation.',
  },
  staff_permission_denied: {
    area: 'Operations console',
    meaning: 'The signed-in staff member\'s role may not do this (`data.action`, `data.role`); nothing was read or changed.',
    action: 'Ask a staff member whose role may (finance for money, compliance for reviews, admin for live enablement).',
  },
  four_eyes_required: {
    area: 'Operations console',
    meaning: 'Live money (a payout settled, a funding transfer confirmed, a write-off) and live enablement need two different staff members: the proposer may not approve.',
    action: 'Ask another staff member to approve the proposal.',
  },
  proposal_closed: {
    area: 'Operations console',
    meaning: 'The proposal was approved or refused already; nothing was changed.',
    action: 'Re-read the proposals queue.',
  },
  proposal_pending: {
    area: 'Operations console',
    meaning: 'An open proposal for this action on this record exists already (`data.proposalId`); nothing was changed.',
    action: 'Approve or refuse the open proposal.',
  },
  charge_not_collected: {
    area: 'Operations console',
    meaning: 'Applying a mandate charge by hand: the rail does not say it succeeded (`data.railStatus`), or it is no longer waiting; nothing was applied.',
    action: 'Look the charge up at the rail again; release it if it took no money.',
  },
  charge_collected: {
    area: 'Operations console',
    meaning: 'Releasing a mandate charge: the rail took it or may still take it, or its outcome is not unknown; nothing changed.',
    action: 'Apply the charge once the rail says it succeeded.',
  },
  charge_rail_unavailable: {
    area: 'Operations console',
    meaning: "The charge's payment rail is not configured for its mode, or did not answer the look-up; nothing changed.",
    action: 'Try again shortly; check the rail configuration for that mode.',
  },
  settlement_retry_failed: {
    area: 'Operations console',
    meaning: 'Retrying a failed settlement failed again: the new reason is recorded on the failed statement and nothing was swept.',
    action: 'Read the reason, fix its cause, then retry; the daily run also tries again.',
  },
  insurance_policy_not_pending: {
    area: 'Operations console',
    meaning: 'Recording an insurance policy: the loan\'s policy is not `pending` (`data.status`): it was recorded already (`active`) or the insurer refused it (`failed`); nothing changed.',
    action: 'Re-read the queue of insurance policies to record.',
  },
  policy_document_not_pdf: {
    area: 'Operations console',
    meaning: 'Recording an insurance policy: the document sent is not a PDF (it does not start with `%PDF-`); nothing was stored or changed.',
    action: 'Attach the policy document the insurer issued, as a PDF.',
  },
  policy_document_size: {
    area: 'Operations console',
    meaning: 'Recording an insurance policy: the document is empty or larger than the limit (`data.maxBytes`); nothing was stored or changed.',
    action: 'Attach the policy document as a PDF under the limit (ask the insurer for a smaller scan if needed).',
  },
  staff_exists: {
    area: 'Operations console',
    meaning: 'The e-mail already has an active staff account; no invitation was made.',
    action: 'Nothing to do, or disable the account first.',
  },
  invalid_credentials: {
    area: 'Dashboard',
    meaning: 'The e-mail and password do not match an account.',
    action: 'Check them, or reset the password.',
  },
  too_many_sign_in_attempts: {
    area: 'Dashboard',
    meaning: 'Too many wrong passwords for this e-mail or from this address.',
    action: 'Wait the seconds in `Retry-After`, or reset the password.',
  },
  too_many_account_requests: {
    area: 'Dashboard',
    meaning: 'Too many password-reset e-mails or sign-ups were asked for this e-mail or from this address in the last hour.',
    action: 'Wait the seconds in `Retry-After`; a link sent earlier still works.',
  },
  email_not_verified: {
    area: 'Dashboard',
    meaning: 'The password is right but the e-mail address is not verified yet.',
    action: 'Follow the link in the verification e-mail.',
  },
  password_rejected: {
    area: 'Dashboard',
    meaning: 'The new password breaks the password rules (length, common or breached list); `data.problem` says which.',
    action: 'Choose a longer, uncommon password.',
  },
  email_token_invalid: {
    area: 'Dashboard',
    meaning: 'The verification or password-reset link is unknown, used or expired.',
    action: 'Ask for a new link.',
  },
  key_not_active: {
    area: 'Dashboard',
    meaning: 'Only an active key can be rolled; this one is revoked, expiring or expired (`data.status`).',
    action: 'Roll its replacement instead.',
  },
  scope_not_permitted: {
    area: 'Dashboard',
    meaning: 'Your role may not put these scopes on a key (`data.scopes`, `data.role`): a key never reaches further than its maker may act on the dashboard, and a full-access key carries every scope. Nothing was created.',
    action: 'Choose only scopes your role may grant, or ask an owner or admin to make the key.',
  },
  last_owner: {
    area: 'Dashboard',
    meaning: 'The change would leave the organisation without an owner.',
    action: 'Make another member an owner first.',
  },
  owner_required: {
    area: 'Dashboard',
    meaning: 'Only an owner may make, unmake, invite or remove an owner.',
    action: 'Ask an owner of your organisation.',
  },
  already_member: {
    area: 'Dashboard',
    meaning: 'That e-mail already belongs to a member of this organisation.',
    action: 'Nothing to do; change the member\'s role instead if needed.',
  },
  invitation_invalid: {
    area: 'Dashboard',
    meaning: 'The invitation link is unknown, accepted, revoked or expired.',
    action: 'Ask for a new invitation.',
  },
  dashboard_passkey_needed: {
    area: 'Dashboard',
    meaning: '"Ask a passkey after the password" needs at least one passkey.',
    action: 'Add a passkey first.',
  },
  dashboard_last_passkey: {
    area: 'Dashboard',
    meaning: 'This is the last passkey while "ask a passkey after the password" is on.',
    action: 'Switch that setting off first, or add another passkey.',
  },

  invalid_scenario: {
    area: 'Sales demo',
    meaning: 'The demo was asked to start a run of a scenario it does not have, or the body has fields other than `scenario`.',
    action: 'Send `{"scenario": …}` with one of the ids `GET /demo/api/scenarios` lists; the message names them.',
  },
  invalid_action: {
    area: 'Sales demo',
    meaning: 'The action in the path is not one the demo knows.',
    action: 'Use one of `approve`, `reject`, `disburse`, `repay` (the run\'s `nextActions` says which apply now).',
  },
  invalid_run_id: {
    area: 'Sales demo',
    meaning: 'The run id in the path is not a demo run id (`demo-<scenario>-<12 hex digits>`).',
    action: 'Use the `runId` that `POST /demo/api/runs` returned, or start a new run.',
  },
  run_not_found: {
    area: 'Sales demo',
    meaning: 'No demo run has this id: it was never started here, or the database was reset since.',
    action: 'Start a new run of the scenario.',
  },
  action_not_available: {
    area: 'Sales demo',
    meaning: 'The action is not a next step of the run in its current state (for example disbursing a loan before it is approved). Nothing was changed.',
    action: 'Read the run again and pick one of its `nextActions`.',
  },
  platform_refused: {
    area: 'Sales demo',
    meaning:
      'The lending platform refused a step of the run without a code of its own. (A refusal with a code is passed on with that code and its entry.)',
    action: 'Read the run again: it shows where it stands; start a new run if it cannot go on.',
  },
  platform_error: {
    area: 'Sales demo',
    meaning: 'The lending platform failed a step of the run (it answered a 5xx). The step may not have happened.',
    action: 'Retry the step shortly; if it keeps failing, the platform\'s log has the cause.',
  },
  sandbox_sms_unavailable: {
    area: 'Sales demo',
    meaning: 'The demo could not read the borrower\'s sandbox SMS inbox.',
    action: 'Retry shortly; the texts are kept, nothing is lost.',
  },
  demo_unavailable: {
    area: 'Sales demo',
    meaning: 'The sandbox organisation the demo plays does not exist yet.',
    action: 'Start the service with `BOOTSTRAP_SANDBOX=true` (and the sandbox routes on), then reload the demo.',
  },
  paystack_signature_missing: {
    area: 'Provider webhooks',
    meaning: 'A request to `/webhooks/paystack` has no `x-paystack-signature` header, so it cannot have come from Paystack. Nothing was read.',
    action: 'Nothing, if it was not Paystack. Paystack signs every notification: check that the proxy in front of the platform passes the header on.',
  },
  paystack_signature_invalid: {
    area: 'Provider webhooks',
    meaning:
      'The `x-paystack-signature` header is not the HMAC-SHA512 of the exact body bytes with this integration\'s Paystack secret key. Nothing was read.',
    action:
      'Check that `PAYSTACK_SECRET_KEY` is the key of the Paystack integration that sends the notifications (live vs test), and that no proxy rewrites the body.',
  },
  mono_webhook_secret_missing: {
    area: 'Provider webhooks',
    meaning: 'A request to `/webhooks/mono` has no `mono-webhook-secret` header, so it cannot have come from Mono. Nothing was read.',
    action: 'Nothing, if it was not Mono. Mono sends the header with every notification: check that the proxy in front of the platform passes it on.',
  },
  mono_webhook_secret_invalid: {
    area: 'Provider webhooks',
    meaning: 'The `mono-webhook-secret` header is not the secret this platform holds for Mono\'s webhooks. Nothing was read.',
    action: 'Check that `MONO_WEBHOOK_SECRET` is the secret Mono\'s dashboard shows for the webhook URL of this app (live vs test).',
  },
  invalid_notification: {
    area: 'Provider webhooks',
    meaning: 'The notification is correctly signed (Paystack) or carries the right secret (Mono) but its body is not the provider\'s event (not JSON, or without an `event`). Nothing was read.',
    action: 'Sending the same body again gets the same answer. Paystack retries it for up to 72 hours; report a persistent one to Paystack with its body.',
  },
  INTERNAL_ERROR: {
    area: 'Service',
    meaning: 'Something went wrong on our side; `message` carries the request id. Never stored for idempotency.',
    action: `${RETRY} If it persists, send the request id to partner support.`,
  },
  SERVICE_UNAVAILABLE: {
    area: 'Service',
    meaning: 'The service is shutting down, not ready, or its database is unavailable for a moment (`data.reason`); nothing was changed.',
    action: RETRY,
  },
};
