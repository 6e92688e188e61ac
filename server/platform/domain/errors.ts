/**
 * The closed set of machine-readable error codes and the HTTP status each one answers with.
 * Partners branch on `error`; `message` is for people. Adding a code is a contract change:
 * document it in the OpenAPI description of the routes that can return it.
 */
export const ERROR_STATUS = {
  /** Malformed body, query or field; the message names the field. */
  invalid_request: 400,
  /** A path id is not a UUID. */
  INVALID_ID: 400,
  /** The body is not valid JSON. */
  INVALID_JSON: 400,
  /** Missing, unknown or revoked key pair. */
  UNAUTHENTICATED: 401,
  /** The organisation lacks the Loan Tenant permission. */
  LOAN_TENANT_PERMISSION_DENIED: 403,
  /** The organisation lacks the Pre-Approved Lending permission. */
  PREAPPROVED_LENDING_PERMISSION_DENIED: 403,
  /** The organisation is disabled. */
  ORGANISATION_DISABLED: 403,
  /** A tenant feature switch needed by the route is off. */
  FEATURE_DISABLED: 403,
  /** A signed link is tampered with or expired; ask for a new one. */
  LINK_INVALID: 403,
  /** A live key called a sandbox (`/v1/test/*`) route. */
  SANDBOX_ONLY: 403,
  /** The sandbox inbox page (`/sandbox/mail`) was asked from another machine or through a proxy: its e-mails hold sign-in links. */
  sandbox_inbox_loopback_only: 403,
  /** Record does not exist or belongs to another tenant or mode. */
  NOT_FOUND: 404,
  /** The idempotency key was used with another method, path or body. */
  IDEMPOTENCY_KEY_CONFLICT: 409,
  /** A request with this idempotency key is still running. */
  IDEMPOTENCY_KEY_IN_USE: 409,
  /** The loan is not in a state that allows this transition; re-read the loan. */
  invalid_loan_state: 409,
  /** The consent names an offer that is no longer the current one; show the borrower the current offer. */
  stale_document_reference: 409,
  /** The loan has been disbursed: it can no longer be cancelled. */
  loan_already_disbursed: 400,
  /** The route applies to another KYC tier (managed-tier KYC, delegated-tier attestation). */
  wrong_kyc_tier: 400,
  /** The loan's approval mode does not allow this approval path. */
  approval_mode_mismatch: 409,
  /** Live mode: the loan cannot be offered before its borrower's AML screen came back clear (or a person cleared its review). */
  aml_screen_required: 409,
  /** The loan's product asks for guarantors and fewer are confirmed; the borrower adds them in the checkout. */
  guarantors_required: 409,
  /** A push's BVN belongs to a borrower on record under another name; nothing was recorded. `data.differs`, `data.borrowerId`. */
  borrower_conflict: 409,
  /** The review was decided already (the other way, or it closed when its loan was cancelled or rejected); re-read its loan. */
  review_closed: 409,
  /** The pre-approval is not in a state that allows this (declined or expired). */
  invalid_preapproval_state: 409,
  /** The repayment method is not available for this loan (not yet built, or not for this rail). */
  repayment_method_unavailable: 422,
  /** `cash_wallet`, `wallet` or a payout: the borrower has no cash wallet (no claimed platform account); nothing was changed. */
  no_borrower_wallet: 422,
  /** The borrower's wallet (or payable) holds less than the amount; nothing was changed. */
  insufficient_wallet_balance: 409,
  /** `wallet`: the loan was not disbursed to the borrower's wallet, so it has no undrawn credit to sweep back. */
  no_undrawn_credit: 422,
  /** Payout: the account number is not a 10-digit NUBAN whose check digit matches the bank code. */
  account_number_invalid: 422,
  /** The payout is not in a state that allows this (settled, rejected, or settled under another reference). */
  invalid_payout_state: 409,
  /**
   * Live mode: the outside provider this call needs (payment rail, AML screen, …) is not configured, so the call is
   * refused rather than sent to a sandbox; nothing was written. `data.provider` names it. Configure the live provider.
   */
  provider_not_configured: 503,
  /** The payment-rail provider refused the request or could not be reached; safe to retry. */
  rail_unavailable: 502,
  /** The capital pool does not hold enough to disburse this loan; nothing was changed. */
  insufficient_pool_funds: 409,
  /** The pushed rate is above the tenant's cap (never clamped). */
  interest_rate_bps_above_tenant_cap: 422,
  /** The amount or tenor is outside the product's limits. */
  outside_product_limits: 422,
  /** The pre-approval cannot be priced (no tenor, no rate, declined or expired). */
  preapproval_not_offerable: 422,
  /** The product cannot be used here (wrong approval mode, inactive, or no capital pool). */
  product_not_usable: 422,
  /** The webhook delivery is being attempted right now; read it again in a few seconds. */
  delivery_in_flight: 409,
  /** The delivery's endpoint was deleted or is disabled; re-enable it (PATCH `status: active`) first. */
  webhook_endpoint_unavailable: 409,
  /** Webhook registration: the URL's host is an IP address that may not receive webhooks (private, loopback, link-local, …). */
  webhook_url_not_allowed: 422,
  /** Dashboard: a patient-financing endpoint has no signing secret of its own (the organisation's API secret key signs); rotate the API key pair instead. */
  webhook_secret_not_applicable: 409,
  /** A record with this natural key (for example a product code) exists already. */
  ALREADY_EXISTS: 409,
  /** A balance would go below zero (the capital pool is never overdrawn). */
  INSUFFICIENT_FUNDS: 409,
  /** The body exceeds the size limit. */
  PAYLOAD_TOO_LARGE: 413,
  /** The body is not `application/json`. */
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** Well-formed but unusable input. */
  unprocessable: 422,
  /** Push: `decision.metadata.assessment_id` missing or not a string of 1-255 characters. */
  assessment_id_required: 422,
  /** Push: `decision.metadata.bvn` missing or not exactly 11 digits. */
  bvn_invalid: 422,
  /** Push: `decision.metadata.nin` present but not 11-15 characters. */
  nin_invalid: 422,
  /** Push: `decision.decision.recommendation` missing. */
  recommendation_required: 422,
  /** Push: `decision.decision.approved_amount` missing (approvals) or not convertible to whole kobo. */
  approved_amount_invalid: 422,
  /** Push: `decision.decision.conditions.interest_rate` not convertible to whole basis points. */
  interest_rate_invalid: 422,
  /** Push: `decision.decision.conditions.tenor_days` not a whole number of days (1-3650). */
  tenor_days_invalid: 422,
  /** Push: `decision.decision.conditions.repayment_frequency` not daily, weekly, biweekly or monthly. */
  repayment_frequency_invalid: 422,
  /** Push, or the checkout's settlement catalog: `providerId` is not an active provider of the directory. */
  provider_not_found: 422,
  /** The credential is not accepted here: a checkout-session token on a partner route, or an API key on a checkout-session route. */
  credential_not_allowed: 403,
  /** A restricted API key called a route its scopes do not reach; `data.requiredScope` names the scope needed. Nothing was changed. */
  insufficient_scope: 403,
  /** The checkout-session token has passed its expiry (or its absolute lifetime); ask the lender for a new link. */
  checkout_session_expired: 401,
  /** The checkout-session token was revoked by the lender; ask the lender for a new link. */
  checkout_session_revoked: 401,
  /** Checkout renew: the session has not expired (it still works; reload the page), so there is nothing to renew. */
  checkout_session_not_expired: 409,
  /** Checkout renew: a new link was texted moments ago, or too many today; honour `Retry-After`. */
  checkout_renew_limit: 429,
  /** Checkout: this step needs the borrower's phone verified by OTP first. */
  checkout_otp_required: 403,
  /** Checkout: an earlier step is not done yet (e.g. bank details before the mandate); `message` names it. */
  checkout_step_required: 409,
  /** Checkout: the rail needs the borrower's e-mail and none is on record; send `email` with the request. */
  email_required: 422,
  /** Checkout mandate: the borrower refused the direct debit at their bank; `POST /v1/checkout/mandate` sets up a fresh one. */
  mandate_declined: 409,
  /** Checkout mandate: the bank or the rail could not set the direct debit up (failed or cancelled there); `POST /v1/checkout/mandate` sets up a fresh one. */
  mandate_failed: 409,
  /** Checkout mandate: the authorisation was not completed in time; `POST /v1/checkout/mandate` sets up a fresh one. */
  mandate_expired: 409,
  /** Checkout: the direct debit is active, so the account it debits can no longer be changed here (ask the lender). */
  bank_account_locked: 409,
  /** OTP: a code was sent less than the cool-down ago; honour `Retry-After`. */
  otp_resend_too_soon: 429,
  /** OTP: too many codes sent to this phone in the current hour; honour `Retry-After`. */
  otp_send_limit: 429,
  /** OTP: the code does not match; `message` says how many attempts remain, and `data.attemptsLeft` counts them. */
  otp_incorrect: 422,
  /** OTP: the code is an older one that a newer code replaced; use the code of the latest text. `data.attemptsLeft` as for `otp_incorrect`. */
  otp_superseded: 422,
  /** OTP: the code has expired, or no code was sent; send a new one. */
  otp_expired: 422,
  /** OTP: too many wrong codes; send a new one (subject to the send limit). */
  otp_locked: 429,
  /** A borrower session was revoked or has expired; the borrower signs in again. */
  borrower_session_ended: 401,
  /** Borrower sign-in: too many `send` or `verify` requests from this client address this clock hour; `Retry-After` says when the hour ends. */
  borrower_sign_in_rate_limited: 429,
  /** Pay now: the amount is below the minimum (₦100, or the whole outstanding when less) or above the outstanding. `data.minKobo`, `data.maxKobo`. */
  payment_amount_out_of_range: 422,
  /** A payment on this loan is still being collected (another tab, or a scheduled debit); nothing was charged. */
  payment_in_progress: 409,
  /** The bank or the rail refused the debit; nothing was taken and nothing changed. `data.reason`, `data.lender`. */
  payment_refused: 422,
  /** The settlement quote's day is over; ask for a new quote. */
  settlement_quote_expired: 409,
  /** The loan changed since the settlement quote was made (a payment, or the quote was paid); ask for a new quote. */
  settlement_quote_stale: 409,
  /** Change of debit account: the account given is the one the loan is already debited from. */
  bank_account_unchanged: 409,
  /** Change of debit account: another change for this loan was started at the same moment; re-read the loan and continue with that one. */
  mandate_replacement_pending: 409,
  /** The borrower's phone on record cannot receive an OTP (not a valid number); the lender must correct it. */
  borrower_phone_invalid: 422,
  /** Checkout: the guarantor's phone is not a valid number, or is the borrower's own. */
  guarantor_phone_invalid: 422,
  /** Checkout: this loan's product takes no guarantors, or enough have been named already. */
  guarantors_not_accepted: 422,
  /** Checkout: this loan's product has no settlement catalog (only `merchant_wallet` products with `settlementCatalogEnabled` let the borrower pick the merchant). */
  settlement_catalog_not_offered: 422,
  /** The SMS provider refused the message or could not be reached; safe to retry. */
  sms_unavailable: 502,
  /** Bank lookup: the bank code is not in the bank list. */
  bank_not_found: 422,
  /** Bank lookup: the bank has no account with this number. */
  account_not_found: 422,
  /** Bank lookup: the lookup provider could not be reached (or none is configured for live mode); safe to retry. */
  bank_lookup_unavailable: 502,
  /** Checkout: the bank's name for the account does not match the borrower's name; ask the borrower to confirm it is theirs (`confirmNameMismatch`) or give another account. */
  account_name_mismatch: 409,
  /** Checkout: the typed signature is not the borrower's name on record; the borrower must type their own name. */
  signature_name_mismatch: 422,
  /** Checkout: the typed signature matches the borrower's name only in part (an initial, one name); ask the borrower to confirm (`confirmSignatureName`) or type it in full. */
  signature_name_unconfirmed: 422,
  /** Passkeys: the borrower has no passkey for this relying party; register one first, or sign with the typed name alone. */
  passkey_not_registered: 409,
  /** Passkeys: this credential is registered already. */
  passkey_already_registered: 409,
  /** Passkeys: the challenge (nonce) was not issued to this checkout for this purpose, relying party or offer; ask for a new one. */
  passkey_challenge_invalid: 422,
  /** Passkeys: the challenge has expired; ask for a new one. */
  passkey_challenge_expired: 422,
  /** Passkeys: the challenge has been used already (each is single use); ask for a new one. */
  passkey_challenge_used: 409,
  /** Passkeys: the WebAuthn response did not verify (signature, origin, relying party, user verification or unknown credential); nothing was changed. */
  passkey_verification_failed: 422,
  /** Telemedicine: a start time in the past (create, modify-time); to move an appointment into the past, cancel it instead. */
  appointment_time_in_past: 400,
  /** Telemedicine: the appointment starts in 5 minutes or less; it can no longer be cancelled. */
  appointment_cancellation_too_late: 400,
  /** Telemedicine: the appointment has started (or its start time has passed); it can no longer be cancelled. */
  appointment_already_started: 400,
  /** Telemedicine: the appointment's status does not allow this (e.g. moving a completed or cancelled one). */
  invalid_appointment_state: 400,
  /** Meeting page: the meeting link is unknown, or the meeting is not open now (before the early-join margin, cancelled or completed). */
  meeting_not_open: 403,
  /** Meeting page: only the doctor may do this (notes, prescriptions, recording, ending the consultation). */
  doctor_only: 403,
  /** Meeting page: the recording is finished or belongs to another session; start a new one. */
  recording_closed: 409,
  /** Meeting recording chunk: the recording would pass `RECORDING_MAX_BYTES`; finish it (a new recording may follow). Nothing of the chunk is stored. */
  recording_too_large: 413,
  /** Meeting recording chunk: the appointment's recordings would pass `APPOINTMENT_RECORDINGS_MAX_BYTES`. Nothing of the chunk is stored. */
  appointment_recordings_too_large: 413,
  /** Patient financing: `phoneNumber` is not a Nigerian mobile number written 080…, 234… or +234…. */
  phone_number_invalid: 422,
  /**
   * Patient financing: `treatmentAmount` (kobo) is outside the financeable range of the credit policy. A naira amount
   * sent as kobo is a hundredth of what was meant and usually lands here: the message says what it would be × 100.
   */
  treatment_amount_outside_policy: 422,
  /** Patient financing: this `clientReference` was used for an initiation with other fields; use a new one. */
  client_reference_conflict: 409,
  /** Patient financing: an initiation with this `clientReference` is being created by a concurrent request; retry to read it. */
  client_reference_in_use: 409,
  /** Patient financing mandate: send both `bankCode` and `accountNumber`, or neither. */
  bank_details_incomplete: 422,
  /** Patient financing mandate: no account to debit yet (none sent, none given by the patient). */
  bank_account_required: 409,
  /** Patient financing: the application's `expiresAt` has passed; the partner initiates a new one. */
  application_expired: 409,
  /** Patient financing: the chosen tenor is not one of the options the decision offered. */
  tenor_not_offered: 422,
  /** Patient financing: the BVN identity provider could not be reached (or none is configured for live mode); safe to retry. */
  identity_unavailable: 502,
  /** Patient financing: the details do not match the BVN's record (or the name the partner gave); `message` says how many tries remain. */
  identity_mismatch: 422,
  /** Patient financing: the credit bureau could not be reached (or none is configured for live mode); safe to retry. */
  bureau_unavailable: 502,
  /** A live key of an organisation whose live mode an operator has not enabled yet (`admin org enable-live`); use test keys meanwhile. */
  LIVE_MODE_NOT_ENABLED: 403,
  /** Dashboard: no valid session cookie (never signed in, signed out, idle for 30 minutes or past 12 hours); sign in again. */
  session_required: 401,
  /** Dashboard: a state-changing request without the session's `X-CSRF-Token` header (or with a wrong one). Nothing was changed. */
  csrf_token_invalid: 403,
  /** Dashboard: the signed-in member's role may not do this (`data.action`, `data.role`); see the permission matrix in `server/shared/dashboard-permissions.ts`. Nothing was read or changed. */
  dashboard_permission_denied: 403,
  /** Operations console: the signed-in staff member's role may not do this (`data.action`, `data.role`); nothing was read or changed. */
  staff_permission_denied: 403,
  /** Operations console: live money needs two people; the staff member who proposed it may not approve it. Another staff member approves. */
  four_eyes_required: 403,
  /** Operations console: the proposal was approved or refused already; re-read it. */
  proposal_closed: 409,
  /** Operations console: an open proposal for this action and subject exists already (`data.proposalId`); approve or refuse it. */
  proposal_pending: 409,
  /** Operations console: the mandate charge took no money the rail confirms (`data.railStatus`); nothing was applied. */
  charge_not_collected: 409,
  /** Operations console: the rail took (or may still take) this mandate charge, or it is not an unknown outcome; it cannot be released. */
  charge_collected: 409,
  /** Operations console: the charge's rail is not configured for its mode, or did not answer; nothing changed. */
  charge_rail_unavailable: 503,
  /** Operations console: retrying a failed settlement failed again; the new reason is recorded and nothing was swept. */
  settlement_retry_failed: 409,
  /** Operations console: the loan's insurance policy is not `pending` (`data.status`): it was recorded already, or failed; nothing changed. */
  insurance_policy_not_pending: 409,
  /** Operations console: the policy document is not a PDF (it must start with `%PDF-`); nothing was stored. */
  policy_document_not_pdf: 422,
  /** Operations console: the policy document is empty or over the size limit (`data.maxBytes`); nothing was stored. */
  policy_document_size: 413,
  /** `admin staff invite`: the e-mail already has an active staff account. */
  staff_exists: 409,
  /** Dashboard sign-in: the e-mail and password do not match an account (the same answer whether or not the e-mail is known). */
  invalid_credentials: 401,
  /** Dashboard sign-in: too many wrong passwords for this e-mail or from this address; honour `Retry-After`. */
  too_many_sign_in_attempts: 429,
  /** Dashboard: too many password-reset requests or sign-ups for this e-mail or from this address; honour `Retry-After`. */
  too_many_account_requests: 429,
  /** Dashboard sign-in: the password is right but the e-mail is not verified yet; follow the link in the verification e-mail. */
  email_not_verified: 403,
  /** Dashboard: the new password breaks the password rules (length, common/breached list); `data.problem` says which. */
  password_rejected: 422,
  /** Dashboard: a verification or password-reset link that is unknown, used or expired; ask for a new one. */
  email_token_invalid: 400,
  /** Dashboard keys: only an active key can be rolled (this one is revoked, expiring or expired; `data.status`); roll its replacement. */
  key_not_active: 409,
  /** Dashboard keys: the member's role may not grant these scopes (`data.scopes`; a full-access key carries every scope); nothing was created. */
  scope_not_permitted: 403,
  /** Dashboard team: the change would leave the organisation without an owner (remove or demote the last owner); make another owner first. */
  last_owner: 409,
  /** Dashboard team: only an owner may make, unmake or remove an owner (or invite one). */
  owner_required: 403,
  /** Dashboard team: that e-mail already belongs to a member of this organisation. */
  already_member: 409,
  /** Dashboard team: an invitation link that is unknown, accepted, revoked or expired; ask for a new invitation. */
  invitation_invalid: 400,
  /** Dashboard: "ask a passkey after the password" needs at least one passkey; add one first. */
  dashboard_passkey_needed: 409,
  /** Dashboard: this is the last passkey while "ask a passkey after the password" is on; switch that off first. */
  dashboard_last_passkey: 409,
  /** Dashboard checkout preview: its widget shows the screens with the draft branding; nothing it sends (a code, a form) is done. */
  checkout_preview_only: 403,
  /** Checkout server: no session token (neither the Authorization header nor the hosted page's cookie). */
  checkout_session_missing: 401,
  /** Checkout server's loan page (`/my-loan`): not signed in (no borrower session in its cookie, or none for the session named). */
  borrower_session_missing: 401,
  /** Checkout server: a page of an origin neither the organisation's settings nor the mounted server allow. */
  origin_not_allowed: 403,
  /** Checkout server: passkeys are off, or not possible on this page; sign with the typed name. */
  passkeys_unavailable: 409,
  /** Checkout server: signing without ticking the agreement box. */
  agreement_required: 400,
  /** Checkout server: the lending platform could not be reached or answered something unexpected; safe to retry. */
  platform_unavailable: 502,
  /** Sales demo: `scenario` is not one of the demo's scenarios (or the body has other fields). */
  invalid_scenario: 400,
  /** Sales demo: the action is not one of approve, reject, disburse, repay. */
  invalid_action: 400,
  /** Sales demo: the run id is not a demo run id (`demo-<scenario>-<12 hex>`). */
  invalid_run_id: 400,
  /** Sales demo: no run with this id (never started, or the database was reset). */
  run_not_found: 404,
  /** Sales demo: the action is not a next step of the run in its current state. */
  action_not_available: 409,
  /** Sales demo: the lending platform refused a step without a code of its own. */
  platform_refused: 409,
  /** Sales demo: the lending platform failed a step (a 5xx); safe to retry. */
  platform_error: 502,
  /** Sales demo: the sandbox SMS inbox could not be read; safe to retry. */
  sandbox_sms_unavailable: 502,
  /** Sales demo: the sandbox organisation does not exist (the service was not started with BOOTSTRAP_SANDBOX=true). */
  demo_unavailable: 503,
  /** Paystack webhook: the `x-paystack-signature` header is missing. */
  paystack_signature_missing: 401,
  /** Paystack webhook: the signature does not match the body signed with the integration's secret key. */
  paystack_signature_invalid: 401,
  /** Mono webhook: the `mono-webhook-secret` header is missing. */
  mono_webhook_secret_missing: 401,
  /** Mono webhook: the `mono-webhook-secret` header is not the platform's Mono webhook secret. */
  mono_webhook_secret_invalid: 401,
  /** Paystack or Mono webhook: the authenticated body is not the provider's event. */
  invalid_notification: 400,
  /** Per-key rate limit exceeded; honour `Retry-After`. */
  RATE_LIMITED: 429,
  /** A bug or an outage; safe to retry, never cached by idempotency. */
  INTERNAL_ERROR: 500,
  /** The service is shutting down or not ready. */
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A failure the caller can act on; `message` is safe to show, `detail` is only logged. */
export class AppError extends Error {
  readonly status: number;
  /**
   * @param detail only logged, never sent.
   * @param data sent to the caller as the error envelope's `data` (e.g. the current offer with a 409), so it must be safe to show.
   */
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly detail?: Record<string, unknown>,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }

  /** Seconds the caller should wait before retrying; sent as `Retry-After`. */
  retryAfterSeconds?: number;

  withRetryAfter(seconds: number): this {
    this.retryAfterSeconds = Math.max(1, Math.ceil(seconds));
    return this;
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
