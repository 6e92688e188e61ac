import { z } from 'zod';
import { CHECKOUT_STEPS } from '../domain/checkout/checkout-state';
import { FinancingViewSchema } from './financing-schemas';
import { CheckoutBrandingSchema } from './checkout-settings-schemas';
import { RATE_DISPLAYS } from '../domain/products/product';
import { LoanStatusSchema, OfferLetterLinkSchema } from './loan-schemas';
import { IpAddress, KoboAmount, Timestamp, Uuid, safeName } from './schemas';

export const CheckoutSessionSchema = z
  .object({
    id: Uuid,
    loanId: Uuid,
    source: z.enum(['offer_issued', 'partner', 'renewed']).meta({
      description:
        '`offer_issued`: minted with the offer (the loan\'s `applicationUrl`); `partner`: minted on demand; `renewed`: minted when the borrower asked for a new link from an expired one (`POST /v1/checkout/session/renew`).',
    }),
    expiresAt: Timestamp.meta({ description: 'Refreshing moves it to now + `CHECKOUT_SESSION_TTL_MINUTES` (30 by default), never past `maxExpiresAt`.' }),
    maxExpiresAt: Timestamp.meta({ description: 'Absolute end of the session (minting + `CHECKOUT_SESSION_MAX_LIFETIME_MINUTES`, 12 hours by default).' }),
    revokedAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'CheckoutSession', description: 'A borrower checkout session for one loan. Its token is shown once, when minted.' });

const ExpiresInSeconds = z.number().int().min(0).meta({
  description: 'Seconds from this answer until `expiresAt` (0 once past): the checkout refreshes the session well within it, whatever the browser\'s clock says.',
});

/** The session as `POST /v1/checkout/session/refresh` answers it. */
export const RefreshedCheckoutSessionSchema = CheckoutSessionSchema.extend({ expiresInSeconds: ExpiresInSeconds }).meta({ id: 'RefreshedCheckoutSession' });

export const MintedCheckoutSessionSchema = CheckoutSessionSchema.extend({
  token: z.string().meta({ description: '`cs_test_…`/`cs_live_…`: the borrower\'s credential for this loan (`Authorization: CheckoutSession <token>`). Shown once; only a keyed hash is stored.' }),
  url: z.string().meta({ format: 'uri', description: 'The hosted checkout page for this session (`…/checkout/c/<token>`); it moves the token into a cookie and out of the address bar.' }),
}).meta({ id: 'MintedCheckoutSession' });

const OfferFactsSchema = z
  .object({
    documentReference: z.string(),
    currency: z.string(),
    principalKobo: KoboAmount,
    tenorDays: z.number().int(),
    repaymentFrequency: z.string(),
    interestModel: z.string(),
    interestRateBps: z.number().int().meta({ description: 'The nominal rate a year, in basis points.' }),
    rateDisplay: z.enum(RATE_DISPLAYS).meta({ description: 'The product\'s setting: the checkout quotes the rate a year (`annual`) or a month (`monthly`, `interestRateBps` ÷ 12). Display only; `aprBps` is the comparison figure either way.' }),
    fees: z.object({ processingFeeKobo: KoboAmount, insurancePremiumKobo: KoboAmount.meta({ description: 'The borrower-borne part only.' }), totalFeesKobo: KoboAmount }),
    totalInterestKobo: KoboAmount,
    costOfCreditKobo: KoboAmount,
    totalRepayableKobo: KoboAmount,
    aprBps: z.number().int(),
    lateFeeBps: z.number().int(),
    schedule: z.array(
      z.object({ installmentNumber: z.number().int(), dueDate: Timestamp, principalKobo: KoboAmount, interestKobo: KoboAmount, feeKobo: KoboAmount, totalKobo: KoboAmount }),
    ),
    offerLetter: OfferLetterLinkSchema,
  })
  .meta({ id: 'CheckoutOfferFacts', description: 'The current offer\'s key facts from its frozen pricing snapshot, with a fresh signed offer-letter link.' });

export const GuarantorSchema = z
  .object({
    id: Uuid,
    fullName: z.string(),
    phoneHint: z.string().meta({ description: 'Masked, e.g. `•••• 5678`.' }),
    relationship: z.string(),
    verified: z.boolean(),
    verifiedAt: Timestamp.nullable(),
  })
  .meta({ id: 'CheckoutGuarantor', description: 'A guarantor the borrower named; `verified` once the guarantor\'s code was entered.' });

export const SettlementMerchantSchema = z
  .object({
    id: Uuid.meta({ description: 'The provider\'s directory id (as in `GET /v1/providers`).' }),
    name: z.string(),
    providerType: z.string().meta({ description: '`laboratory`, `pharmacy` or `laboratory_pharmacy`.' }),
    address: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
  })
  .meta({ id: 'CheckoutSettlementMerchant', description: 'A merchant the borrower can pick: the directory\'s public business facts only (no contacts, people or configuration).' });

export const SettlementMerchantChoiceSchema = z
  .object({ merchant: SettlementMerchantSchema, chosenAt: Timestamp.meta({ description: 'When the borrower chose it (choosing the same merchant again keeps the first time).' }) })
  .meta({ id: 'CheckoutSettlementMerchantChoice' });

export const OtpChallengeSchema = z
  .object({
    sentTo: z.string().meta({ description: 'Masked phone the code went to, e.g. `•••• 5678`.' }),
    expiresAt: Timestamp,
    resendAvailableAt: Timestamp.meta({ description: 'When another code may be asked for (the cool-down after the last send).' }),
    resendInSeconds: z.number().int().meta({ description: 'The same, as seconds from this answer (count down from this: a phone\'s clock may be off).' }),
    attemptsAllowed: z.number().int(),
    attemptsLeft: z.number().int().meta({ description: 'Wrong codes that may still be tried (0: ask for a new code).' }),
  })
  .meta({ id: 'CheckoutOtpChallenge' });

export const CheckoutStateSchema = z
  .object({
    session: CheckoutSessionSchema.extend({ otpVerified: z.boolean(), expiresInSeconds: ExpiresInSeconds }),
    organisationName: z.string(),
    mode: z.enum(['test', 'live']).meta({ description: 'The session\'s mode; the checkout shows a TEST MODE badge in test mode.' }),
    branding: CheckoutBrandingSchema.extend({
      securedBy: z.string().meta({ description: 'The platform\'s name for the footer\'s "Secured by" (`CHECKOUT_PLATFORM_NAME`).' }),
    }).meta({ description: 'The lender\'s public face from its checkout settings (`PATCH /v1/checkout-settings`, this mode): readable before the OTP, nothing personal.' }),
    phoneHint: z.string().nullable().meta({ description: 'The last four digits of the phone the OTP goes to, e.g. `•••• 5678`.' }),
    otpChallenge: OtpChallengeSchema.nullable().meta({
      description:
        'The code in play while the phone is not verified: sent, not expired, not used (null otherwise, and once verified). What a page restores after a reload: ' +
        'the code box for the code already texted, the countdown to `resendAvailableAt`, and the attempts left.',
    }),
    status: z.enum(['in_progress', 'waiting_for_lender', 'complete', 'declined', 'closed']),
    nextStep: z.enum(CHECKOUT_STEPS).nullable(),
    steps: z
      .array(z.object({ name: z.enum(CHECKOUT_STEPS), done: z.boolean() }))
      .meta({ description: 'The steps this loan needs, in order (`kyc` only for managed-tier loans, `guarantors` only when the product asks for them, `catalog` only for `merchant_wallet` products with `settlementCatalogEnabled`).' }),
    borrower: z
      .object({
        firstName: z.string(),
        lastName: z.string(),
        email: z.string().nullable(),
        emailHint: z.string().nullable().meta({ description: 'The e-mail on record masked (`a•••@example.com`); null when there is none (the mandate step asks for one).' }),
        identityStatus: z.string(),
      })
      .nullable(),
    loan: z
      .object({
        id: Uuid,
        status: LoanStatusSchema,
        kycTier: z.string(),
        currency: z.string(),
        principalKobo: KoboAmount,
        tenorDays: z.number().int(),
        documentReference: z.string().nullable(),
        termsAcceptedAt: Timestamp.nullable(),
        hasActiveMandate: z.boolean(),
        receiptSentAt: Timestamp.nullable().meta({ description: 'When the borrower was texted the receipt (once, when the checkout completed); null if not (yet).' }),
      })
      .nullable(),
    offer: OfferFactsSchema.nullable(),
    bank: z.object({ bankCode: z.string(), bankName: z.string(), accountNumberLast4: z.string(), accountName: z.string() }).nullable(),
    mandate: z
      .object({
        id: Uuid,
        status: z.string(),
        provider: z.string(),
        authorizationUrl: z.string().nullable(),
        activatedAt: Timestamp.nullable(),
        failure: z.enum(['declined', 'failed', 'expired']).nullable().meta({
          description: 'Why the latest mandate ended without becoming active: `declined` (refused at the bank), `failed` (failed or cancelled by the bank or rail), `expired`; null while in play or active, and once the borrower has given another account. `POST /v1/checkout/mandate` sets up a fresh one.',
        }),
      })
      .nullable(),
    guarantorsRequired: z.number().int().meta({ description: 'From the product; 0 means there is no `guarantors` step.' }),
    guarantors: z.array(GuarantorSchema).nullable(),
    settlementCatalog: z.boolean().meta({ description: 'Whether the loan has a `catalog` step: a `merchant_wallet` product with `settlementCatalogEnabled`.' }),
    settlementMerchant: SettlementMerchantChoiceSchema.nullable().meta({ description: 'The merchant the borrower chose to receive the funds (null until chosen, and before the OTP).' }),
    payout: z
      .object({
        to: z.enum(['bank_account', 'wallet', 'merchant', 'lender']).meta({
          description: 'Where the disbursement pays the money (the loan\'s settlement destination): `bank_account` (the borrower\'s, paid out by the lender), `wallet` (the borrower\'s wallet with the lender), `merchant`, `lender` (the lender\'s own wallet).',
        }),
        merchantName: z.string().nullable().meta({ description: '`merchant`: the merchant paid, when known.' }),
        releasedAt: Timestamp.nullable().meta({ description: 'When the lender disbursed; null until it does (the platform never disburses an ordinary loan by itself).' }),
      })
      .nullable()
      .meta({ description: 'What the done screen says about the money (null before the OTP).' }),
    sandboxInbox: z.string().nullable().optional().meta({
      description: 'Added by the checkout server in test mode only: the platform\'s sandbox inbox (`/sandbox/mail#texts`) when it serves the borrower\'s browser (same machine, no proxy), else null. Absent in live mode and from the platform itself.',
    }),
    financing: FinancingViewSchema.nullable().meta({
      description: 'A patient-financing application (steps `identity`, then `decision`: choose a tenor); null for other loans and before the OTP.',
    }),
  })
  .meta({
    id: 'CheckoutState',
    description: 'Where the borrower stands, from server-side state only. `borrower`, `loan`, `offer`, `bank` and `mandate` are null until the phone is verified.',
  });

export const OtpSentSchema = z
  .object({
    sentTo: z.string().meta({ description: 'Masked phone on record, e.g. `•••• 5678`.' }),
    expiresAt: Timestamp,
    resendAvailableAt: Timestamp,
    resendInSeconds: z.number().int().meta({ description: 'Seconds from this answer until another code may be asked for (count down from this: a phone\'s clock may be off).' }),
    attemptsAllowed: z.number().int(),
  })
  .meta({ id: 'CheckoutOtpSent' });

export const GuarantorAddedSchema = z
  .object({ guarantor: GuarantorSchema, otp: OtpSentSchema.nullable().meta({ description: 'null when this guarantor had confirmed already.' }) })
  .meta({ id: 'CheckoutGuarantorAdded' });

export const OtpVerifiedSchema = z
  .object({
    verified: z.literal(true),
    borrower: z.object({ identityStatus: z.literal('linked'), linkedAt: Timestamp, userId: Uuid }),
  })
  .meta({ id: 'CheckoutOtpVerified' });

export const BankSchema = z
  .object({
    code: z.string().meta({ description: 'What to send as `bankCode`: a bank\'s 3-digit CBN code where confirmed, otherwise the institution\'s 6-digit NIP code.' }),
    name: z.string(),
    type: z.enum(['commercial', 'merchant', 'non_interest', 'microfinance', 'payment_service', 'mobile_money']),
    nipCode: z.string().meta({ description: 'NIBSS Instant Payment institution code (6 digits).' }),
    nubanCode: z
      .string()
      .nullable()
      .meta({ description: 'The CBN code the NUBAN check digit is computed with (3 digits: `000` + code; 5 digits: `9` + code); null: any 10 digits, checked by name enquiry only (wallets numbered by phone).' }),
    aliases: z.array(z.string()).meta({ description: 'Other names borrowers search by (GTBank, UBA, MoMo…).' }),
  })
  .meta({ id: 'Bank' });

export const NameMatchSchema = z
  .object({
    status: z.enum(['match', 'partial', 'mismatch']).meta({
      description:
        '`match`: the same person\'s name (any order, extra middle names, titles, accents and case ignored); `partial`: initials or one name only ("A. OKAFOR"); `mismatch`: someone else\'s name.',
    }),
    score: z.number().min(0).max(1).meta({ description: 'Similarity 0-1 (Jaro-Winkler over the name parts).' }),
    nameOnRecord: z.string().meta({ description: 'The borrower\'s name on record it was compared with.' }),
  })
  .meta({ id: 'CheckoutNameMatch' });

export const BankAccountSchema = z
  .object({ bankCode: z.string(), bankName: z.string(), accountNumber: z.string(), accountName: z.string(), nameMatch: NameMatchSchema })
  .meta({ id: 'ResolvedBankAccount' });

export const CapturedBankAccountSchema = BankAccountSchema.extend({
  nameConfirmed: z.boolean().meta({ description: 'The borrower confirmed an account in another name as their own (`confirmNameMismatch`).' }),
}).meta({ id: 'CapturedBankAccount' });

export const BankAccountInput = z
  .object({
    bankCode: z.string().regex(/^(\d{3}|\d{6})$/, 'a code from the bank list: a 3-digit CBN bank code or a 6-digit NIP institution code'),
    accountNumber: z.string().regex(/^\d{10}$/, 'a 10-digit NUBAN'),
  })
  .strict();

export const BankAccountCaptureInput = BankAccountInput.extend({
  confirmNameMismatch: z
    .boolean()
    .optional()
    .meta({ description: 'The borrower confirmed that an account whose name does not match theirs is their own; without it such an account answers 409 `account_name_mismatch`.' }),
}).strict();

/** What the checkout server sends for a signature (the platform adds `signedAt` from its own clock). */
const SignatureFields = {
  signatureFullName: safeName({ min: 2, max: 200 }).meta({ description: 'The name the borrower typed: the signature.' }),
  signatureEmail: z.email().max(150).nullable().optional(),
  documentReference: z.string().min(1).max(200).meta({ description: 'The offer the borrower read; a stale one answers 409 `stale_document_reference` with `data.currentOffer`.' }),
  ipAddress: IpAddress.meta({ description: 'The borrower\'s IP as the checkout server saw it (after its trust-proxy rules).' }),
  userAgent: z.string().min(1).max(400).meta({ description: 'The borrower\'s User-Agent as the checkout server saw it.' }),
};

export const DeclineInput = z.object({ ...SignatureFields, reason: z.string().trim().max(500).optional() }).strict();

const Base64Url = (max: number) => z.string().regex(/^[A-Za-z0-9_-]+$/, 'base64url').max(max);

/** The relying party's id (the checkout's host name) and the origin the browser was on, as the checkout server configures them. */
export const RpId = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$/, 'a host name')
  .meta({ example: 'checkout.lender.example', description: 'The WebAuthn relying party id: the checkout server\'s host name (e.g. `checkout.lender.example`). Passkeys are kept per relying party.' });
const Origin = z.url({ protocol: /^https?$/ }).max(300).meta({ description: 'The origin the borrower\'s browser was on (e.g. `https://checkout.lender.example`), as the checkout server expects it.' });

const Transports = z.array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])).max(8);

/** `RegistrationResponseJSON` of WebAuthn Level 3 (what @simplewebauthn/browser's `startRegistration` returns). */
export const RegistrationResponseSchema = z
  .object({
    id: Base64Url(1400),
    rawId: Base64Url(1400),
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: Base64Url(4000),
      attestationObject: Base64Url(16_000),
      authenticatorData: Base64Url(16_000).optional(),
      transports: Transports.optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: Base64Url(4000).optional(),
    }),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: z.object({}).meta({ description: 'Client extension outputs: none are requested, any given are dropped.' }),
  })
  .meta({ id: 'WebAuthnRegistrationResponse', description: 'A WebAuthn registration response, base64url fields, as `PublicKeyCredential.toJSON()` gives it.' });

/** `AuthenticationResponseJSON` (what @simplewebauthn/browser's `startAuthentication` returns). */
export const AuthenticationResponseSchema = z
  .object({
    id: Base64Url(1400),
    rawId: Base64Url(1400),
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: Base64Url(4000),
      authenticatorData: Base64Url(4000),
      signature: Base64Url(2000),
      userHandle: Base64Url(200).optional(),
    }),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: z.object({}).meta({ description: 'Client extension outputs: none are requested, any given are dropped.' }),
  })
  .meta({ id: 'WebAuthnAuthenticationResponse', description: 'A WebAuthn assertion, base64url fields, as `PublicKeyCredential.toJSON()` gives it.' });

export const PasskeySchema = z
  .object({
    id: Uuid,
    credentialId: z.string().meta({ description: 'base64url credential id.' }),
    rpId: z.string(),
    publicKey: z.string().meta({ description: 'COSE public key, base64url (public: it only verifies signatures).' }),
    counter: z.number().int(),
    transports: z.array(z.string()),
    deviceType: z.string().meta({ description: '`singleDevice` or `multiDevice` (synced).' }),
    backedUp: z.boolean(),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable(),
  })
  .meta({ id: 'CheckoutPasskey', description: 'A passkey of the borrower\'s platform user (the verified phone), for one relying party.' });

export const PasskeyListSchema = z
  .object({
    loanId: Uuid.meta({ description: 'The session\'s loan: an input of the offer-signing challenge.' }),
    passkeys: z.array(PasskeySchema),
  })
  .meta({ id: 'CheckoutPasskeys' });

const CredentialDescriptor = z.object({ id: z.string(), transports: z.array(z.string()) });

export const RegistrationChallengeSchema = z
  .object({
    challenge: z.string().meta({ description: 'base64url, 32 random bytes; single use.' }),
    expiresAt: Timestamp,
    user: z.object({
      id: z.string().meta({ description: 'The WebAuthn user handle (base64url): opaque, nothing personal.' }),
      name: z.string(),
      displayName: z.string(),
    }),
    excludeCredentials: z.array(CredentialDescriptor),
  })
  .meta({ id: 'CheckoutPasskeyRegistrationChallenge' });

export const SignChallengeSchema = z
  .object({
    nonce: z.string().meta({ description: 'One-time, base64url; send it back with the assertion.' }),
    challenge: z.string().meta({ description: 'base64url(SHA-256(UTF-8(JSON.stringify([challengeVersion, loanId, documentReference, nonce])))).' }),
    challengeVersion: z.string().meta({ description: '`lc-offer-signature/v1`.' }),
    loanId: Uuid,
    documentReference: z.string(),
    expiresAt: Timestamp,
    allowCredentials: z.array(CredentialDescriptor),
  })
  .meta({ id: 'CheckoutPasskeySignChallenge' });

export const PasskeyRegistrationInput = z.object({ rpId: RpId, origin: Origin, response: RegistrationResponseSchema }).strict();

export const PasskeySignatureInput = z
  .object({ nonce: Base64Url(100), rpId: RpId, origin: Origin, response: AuthenticationResponseSchema })
  .strict()
  .meta({
    description:
      'Optional: a passkey assertion over this offer. Its challenge must be the one `POST /v1/checkout/passkeys/sign-challenge` gave for this nonce. The platform re-verifies it with the stored public key, uses the nonce once and stores the assertion with the consent.',
  });

export const AcceptInput = z
  .object({
    ...SignatureFields,
    passkey: PasskeySignatureInput.optional(),
    confirmSignatureName: z
      .boolean()
      .optional()
      .meta({ description: 'The borrower confirmed a typed name that matches their name on record only in part (initials, one name); without it such a name answers 422 `signature_name_unconfirmed`.' }),
  })
  .strict();

export const LenderContactSchema = z
  .object({
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    url: z.string().nullable(),
  })
  .meta({ id: 'CheckoutLenderContact', description: 'How the borrower reaches the lender (the organisation\'s name; support details where the organisation gave them).' });

export const ExpiredSessionSchema = z
  .object({
    expiredAt: Timestamp,
    lender: LenderContactSchema,
    renewable: z.boolean().meta({ description: 'false when the loan is closed (rejected, declined, cancelled, completed, defaulted): no new link can be texted, only the lender helps.' }),
    renewAvailableAt: Timestamp.meta({ description: 'When `POST /v1/checkout/session/renew` will next text a new link (now, or later under its rate limit).' }),
    renewInSeconds: z.number().int().meta({ description: 'The same, as seconds from this answer (0: now).' }),
  })
  .meta({ id: 'CheckoutExpiredSession' });

export const RenewedLinkSchema = z
  .object({
    sentTo: z.string().meta({ description: 'The masked phone on record the new link went to, e.g. `•••• 1234`.' }),
    lender: LenderContactSchema,
  })
  .meta({ id: 'CheckoutRenewedLink' });
