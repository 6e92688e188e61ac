import { z } from 'zod';
import { KoboAmount, Timestamp, Uuid } from './schemas';
import { LenderContactSchema } from './checkout-schemas';
import { EarlySettlementRuleSchema } from './schemas';

/** The borrower's own loan routes (`/v1/borrower/*`) and the partner's borrower-session routes: their response schemas. */

export const BorrowerSessionSchema = z
  .object({
    id: Uuid,
    loanId: Uuid.nullable().meta({ description: 'The loan the partner minted it for; null for a sign-in.' }),
    source: z.enum(['partner', 'sign_in']),
    expiresAt: Timestamp,
    revokedAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'BorrowerSession', description: 'A borrower\'s own credential for their loans with one lender (organisation and mode).' });

export const MintedBorrowerSessionSchema = BorrowerSessionSchema.extend({
  token: z.string().meta({ description: '`bs_test_…` / `bs_live_…`: send as `Authorization: BorrowerSession <token>`. Shown once; only its hash is stored.' }),
}).meta({ id: 'MintedBorrowerSession' });

const InstalmentSchema = z.object({
  installmentNumber: z.number().int(),
  dueDate: Timestamp,
  principalKobo: KoboAmount,
  interestKobo: KoboAmount,
  feeKobo: KoboAmount,
  lateFeeKobo: KoboAmount,
  totalKobo: KoboAmount,
  amountPaidKobo: KoboAmount,
  remainingKobo: KoboAmount,
  state: z.enum(['paid', 'due', 'late']).meta({ description: '`paid`; `late`: past its due date with something unpaid; `due`: unpaid, not yet past due.' }),
  paidAt: Timestamp.nullable(),
});

export const BorrowerLoanSummarySchema = z
  .object({
    id: Uuid,
    status: z.string(),
    currency: z.string(),
    principalKobo: KoboAmount,
    outstandingKobo: KoboAmount,
    amountPaidKobo: KoboAmount,
    inArrears: z.boolean(),
    disbursedAt: Timestamp.nullable(),
    nextDebit: z
      .object({ dueDate: Timestamp, amountKobo: KoboAmount, byDirectDebit: z.boolean() })
      .nullable()
      .meta({ description: 'The next unpaid instalment: when and what is left of it; null once nothing is owed.' }),
  })
  .meta({ id: 'BorrowerLoanSummary' });

export const BorrowerMandateSchema = z
  .object({
    id: Uuid,
    status: z.string(),
    bankCode: z.string().nullable(),
    bankName: z.string().nullable(),
    accountNumberLast4: z.string().nullable().meta({ description: 'The last four digits of the account debited; the full number is not shown.' }),
    activatedAt: Timestamp.nullable(),
  })
  .meta({ id: 'BorrowerMandate', description: 'The direct debit the loan is collected from now.' });

export const MandateReplacementSchema = z
  .object({
    id: Uuid,
    loanId: Uuid,
    status: z.enum(['pending', 'active', 'failed', 'cancelled']).meta({
      description:
        '`pending`: waiting for the borrower at the bank, or for a debit in flight on the old mandate to be decided; `active`: the loan is collected from it now; `failed`: refused, failed or expired at the bank (the old mandate stays); `cancelled`: withdrawn for another account, or the loan owed nothing by then.',
    }),
    stage: z.enum(['awaiting_authorisation', 'awaiting_charge']).nullable().meta({
      description: 'While pending: `awaiting_authorisation` (send the borrower to `authorizationUrl`), `awaiting_charge` (approved at the bank; takes over once the debit in flight is decided).',
    }),
    authorizationUrl: z.string().nullable().meta({ description: 'The rail\'s page where the borrower approves the new direct debit; null once approved or ended.' }),
    bankCode: z.string(),
    bankName: z.string(),
    accountNumberLast4: z.string(),
    accountName: z.string(),
    failureReason: z.string().nullable().meta({ description: '`declined`, `failed`, `cancelled`, `expired`, `withdrawn` (another account was given), `nothing_owed`.' }),
    mandateId: Uuid.meta({ description: 'The new mandate.' }),
    previousMandateId: Uuid.meta({ description: 'The mandate it replaces.' }),
    createdAt: Timestamp,
    replacedAt: Timestamp.nullable(),
  })
  .meta({ id: 'MandateReplacement', description: 'A borrower\'s change of the account their loan is debited from.' });

export const BorrowerLoanSchema = BorrowerLoanSummarySchema.extend({
  schedule: z.array(InstalmentSchema),
  repayments: z.array(
    z.object({ id: Uuid, reference: z.string(), method: z.string(), status: z.string(), amountKobo: KoboAmount, createdAt: Timestamp, completedAt: Timestamp.nullable() }),
  ),
  lender: LenderContactSchema,
  offerLetter: z.object({ url: z.string(), expiresAt: Timestamp }).nullable().meta({ description: 'A short-lived signed link to the offer letter PDF.' }),
  payments: z
    .object({ minKobo: KoboAmount, maxKobo: KoboAmount, directDebitActive: z.boolean() })
    .meta({ description: 'What pay now accepts (₦100, or the whole outstanding when less, up to the outstanding) and whether there is a direct debit to pay from.' }),
  earlySettlement: EarlySettlementRuleSchema,
  mandate: BorrowerMandateSchema.nullable(),
  mandateReplacement: MandateReplacementSchema.nullable().meta({ description: 'The latest change of debit account (pending, or how the last one ended); null when none was asked for.' }),
}).meta({ id: 'BorrowerLoan' });

export const BorrowerPaymentSchema = z
  .object({
    repaymentId: Uuid,
    reference: z.string(),
    amountKobo: KoboAmount,
    status: z.enum(['completed', 'pending']).meta({ description: '`completed`: taken and applied (201); `pending`: sent, the bank has not answered yet (202); re-read the loan.' }),
    outstandingKobo: KoboAmount,
    loanStatus: z.string(),
  })
  .meta({ id: 'BorrowerPayment' });

export const SettlementQuoteSchema = z
  .object({
    id: Uuid,
    loanId: Uuid,
    status: z.enum(['open', 'paying', 'paid', 'expired', 'stale']).meta({
      description: '`open` (payable), `paying` (its charge is with the bank), `paid`, `expired` (its Lagos day is over), `stale` (the loan changed since).',
    }),
    totalKobo: KoboAmount.meta({ description: 'What paying the loan off costs: principal + interest + fee + settlementFee.' }),
    principalKobo: KoboAmount,
    interestKobo: KoboAmount,
    feeKobo: KoboAmount.meta({ description: 'Fees of instalments already due (late fees included) less what was paid into them.' }),
    settlementFeeKobo: KoboAmount,
    waivedKobo: KoboAmount.meta({ description: 'The scheduled outstanding the quote does not ask for.' }),
    rule: EarlySettlementRuleSchema,
    validUntil: Timestamp.meta({ description: 'The end of the Lagos day the quote was made.' }),
    paidAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'SettlementQuote' });

export const SettlementPaymentSchema = z
  .object({ quote: SettlementQuoteSchema, loanStatus: z.string(), outstandingKobo: KoboAmount })
  .meta({ id: 'SettlementPayment' });

export const SignInCodeSentSchema = z
  .object({ sentTo: z.string(), expiresAt: Timestamp, resendInSeconds: z.number().int(), attemptsAllowed: z.number().int() })
  .meta({ id: 'BorrowerSignInCodeSent' });

export const SignedInSchema = z
  .object({
    sessions: z.array(
      MintedBorrowerSessionSchema.extend({ lender: LenderContactSchema.extend({ organisationId: Uuid }) }),
    ),
  })
  .meta({ id: 'BorrowerSignedIn', description: 'One session per lender the phone has loans with; none when it has none.' });
