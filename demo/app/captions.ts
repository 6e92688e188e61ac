import type { DemoRun, ScenarioId } from './demo-api';
import { formatBps, formatKobo, formatMonthlyRate } from './format';

/** The narrative the salesperson reads out: one caption per step of each scenario. */
export interface Caption {
  step: string;
  title: string;
  text: string;
}

export const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending',
  kyc_required: 'KYC required',
  kyc_pending: 'KYC pending',
  kyc_completed: 'KYC completed',
  attested: 'Attested',
  under_review: 'Under review',
  awaiting_acceptance: 'Awaiting acceptance',
  terms_accepted: 'Terms accepted',
  terms_declined: 'Offer declined',
  active: 'Active',
  completed: 'Completed',
  defaulted: 'Defaulted',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
  declined: 'Declined',
  received: 'Received',
  offer_issued: 'Offer issued',
  accepted: 'Accepted',
  disbursed: 'Disbursed',
  expired: 'Expired',
};

export const BEFORE_RUN: Caption = {
  step: 'Start',
  title: 'You are the lending partner',
  text:
    'This page plays the partner’s backend, calling the platform’s API with sandbox keys that never leave the server. ' +
    'The phone is the borrower’s; on the right, the texts they receive and the webhooks the partner gets.',
};

const afterOffer = (run: DemoRun, first: number): Caption | undefined => {
  const loan = run.loan!;
  const n = (i: number) => `Step ${first + i}`;
  switch (loan.status) {
    case 'awaiting_acceptance':
      return {
        step: n(0),
        title: 'The offer is on the borrower’s phone',
        text:
          'The phone shows the real hosted checkout, opened from the loan’s applicationUrl. Tap “Send code”; the code arrives in the SMS inbox: tap its chip to put it in the phone, ' +
          'then review the key facts and sign with the borrower’s name (one tap too).',
      };
    case 'terms_accepted':
      return loan.hasActiveMandate
        ? {
            step: n(2),
            title: 'Direct debit active: ready to pay out',
            text: '“mandate.active” arrived: the bank confirmed the direct debit, so instalments can be collected. Press “Disburse”: the money leaves the capital pool in the same transaction that activates the loan.',
          }
        : {
            step: n(1),
            title: 'Signed: now the bank account and the direct debit',
            text:
              '“loan.offer.accepted” went to the partner, the signature recorded server side with the borrower’s device and IP. Tap the sandbox bank account’s chip ' +
              '(the sandbox resolves the name), then in the phone confirm it, set up the direct debit and approve it on the bank’s page.',
          };
    case 'active':
      return {
        step: n(3),
        title: 'Disbursed: now the repayments',
        text:
          '“loan.disbursed” went out. On each due date the platform debits the borrower’s account through the mandate; the demo cannot wait a month, so press “Record repayment” ' +
          'to book each instalment as received. It is allocated fee → interest → principal and announced with “loan.repayment.completed”.',
      };
    case 'completed':
      return {
        step: n(4),
        title: 'Fully repaid: the loan is completed',
        text:
          'The last instalment completed the loan (“loan.completed”) and nothing more will be debited. The decision, the offer, the signature, the direct debit, the payout and each repayment ' +
          'reached the partner as a webhook (see the feed); every amount is in kobo.',
      };
    case 'terms_declined':
      return { step: n(1), title: 'The borrower declined', text: 'The decline and its reason were recorded as evidence and “loan.offer.declined” went to the partner. Nothing was lent.' };
    case 'cancelled':
      return { step: n(1), title: 'Cancelled', text: 'The loan was called off before any money moved.' };
    default:
      return undefined;
  }
};

/** The caption for a run's current state (or the opening one before any run). */
export function captionFor(run: DemoRun | undefined, bvnHint: string): Caption {
  if (!run) return BEFORE_RUN;
  const status = run.loan?.status;
  const scenario: ScenarioId = run.scenario;
  if (scenario === 'decline') {
    return {
      step: 'Step 1',
      title: 'The credit engine said no',
      text: 'The partner pushed a decline. The platform recorded it for the audit trail (“preapproval.received”, status declined) — no loan, no text, no checkout for the borrower.',
    };
  }
  if (scenario === 'aml') {
    return status === 'rejected'
      ? {
          step: 'Step 2',
          title: 'Rejected by compliance',
          text:
            'Compliance confirmed the match: the loan moved from “Under review” to “Rejected”. Nothing was lent, nothing is owed, and the borrower was never sent a link. ' +
            'The review closed as rejected (“review.closed”, with compliance’s reason); the partner’s reject call and GET /v1/loans/{id} show the same.',
        }
      : {
          step: 'Step 1',
          title: 'AML screen hit: held for review',
          text:
            'The platform screened the borrower before issuing the offer and the sanctions list matched (the sandbox’s magic surname “Sanctioned”). ' +
            'No offer, no link: “loan.kyc.attested” reports the hit and “review.opened” holds the loan for a person. Compliance decides — press “Reject: confirmed match”.',
        };
  }
  if (scenario === 'managed') {
    if (status === 'kyc_required' || status === 'kyc_pending') {
      return {
        step: 'Step 1',
        title: 'The platform runs KYC',
        text:
          `The lender booked an application on a managed-tier product, so the platform verifies identity itself. In the phone: send the code and tap its chip, ` +
          `then tap the BVN chip — in the sandbox any 11 digits verify, e.g. ${bvnHint} (00000000000 fails; 11111111111 is pending once).`,
      };
    }
    if (status === 'kyc_completed') {
      return {
        step: 'Step 2',
        title: 'Identity verified: the lender’s turn',
        text: 'The borrower sees “Waiting for the lender”. Press “Approve as the lender”: the platform freezes the pricing, issues the offer and the phone moves on.',
      };
    }
    return afterOffer(run, 3) ?? { step: 'Step 1', title: STATUS_LABELS[status ?? ''] ?? 'In progress', text: '' };
  }
  return (
    afterOffer(run, 1) ?? {
      step: 'Step 1',
      title: 'Decision pushed',
      text: 'The platform received the decision and is issuing the offer.',
    }
  );
}

const LENT_NOTHING = new Set(['rejected', 'cancelled', 'terms_declined']);
const MANDATE_WAITING = new Set(['initiated', 'pending']);

/** The pre-approval in words, from the platform's status and whether a loan came of it (a screen hit leaves it `received`). */
export function preapprovalText(run: DemoRun): string {
  const p = run.preapproval!;
  if (p.status === 'received' && p.hasLoan) return 'No offer issued (AML hold)';
  return STATUS_LABELS[p.status] ?? p.status;
}

/**
 * The direct debit in words, from the platform's mandate and loan: the platform debits an active
 * mandate only while the loan is active (or defaulted), so a repaid loan's mandate takes nothing more.
 */
export function directDebitText(run: DemoRun): string {
  const mandate = run.mandate;
  const status = run.loan?.status ?? '';
  if (!mandate) return LENT_NOTHING.has(status) || status === 'under_review' ? 'None' : 'Not set up yet';
  if (MANDATE_WAITING.has(mandate.status)) return 'Waiting for the borrower’s approval at the bank';
  if (mandate.status === 'failed') return 'Refused by the borrower';
  if (mandate.status !== 'active') return STATUS_LABELS[mandate.status] ?? mandate.status;
  if (status === 'completed') return 'Completed — no more debits';
  if (status === 'active' || status === 'defaulted') return 'Active — debits each instalment when due';
  if (status === 'terms_accepted') return 'Active — first debit after the payout';
  return `Not debited (loan ${(STATUS_LABELS[status] ?? status).toLowerCase()})`;
}

/** The loan's price and repayments the way the checkout's offer shows them: the rate a month, the instalments. */
export function termsText(loan: NonNullable<DemoRun['loan']>): { rate: string; repayment: string | null; total: string | null } {
  const model = loan.interestModel === 'reducing_balance' ? 'reducing balance' : loan.interestModel.replace(/_/g, ' ');
  // A month first, as Nigerian lenders quote it; a year too, as the platform stores it (and the checkout shows it unless the product says a month).
  const rate = `${formatMonthlyRate(loan.interestRateBps)} a month (${model}) · ${formatBps(loan.interestRateBps)} a year`;
  if (loan.instalmentKobo === null || loan.totalRepayableKobo === null || loan.instalmentCount === 0) return { rate, repayment: null, total: null };
  const count = loan.instalmentCount;
  const every = loan.repaymentFrequency === 'monthly' ? ' monthly' : ` ${loan.repaymentFrequency}`;
  const last = loan.totalRepayableKobo - loan.instalmentKobo * (count - 1);
  // The last instalment absorbs the rounding residue (a few kobo): said in brackets, not as a separate amount.
  const repayment = `${count} × ${formatKobo(loan.instalmentKobo)}${every}${last === loan.instalmentKobo || count === 1 ? '' : ` (last ${formatKobo(last)})`}`;
  return { rate, repayment, total: formatKobo(loan.totalRepayableKobo) };
}

/** What has been lent and what is owed: nothing for a loan that was never disbursed. */
export function moneyText(loan: NonNullable<DemoRun['loan']>): { lent: string; outstanding: string | null } {
  if (loan.disbursedAmountKobo !== null) return { lent: formatKobo(loan.disbursedAmountKobo), outstanding: formatKobo(loan.outstandingKobo) };
  if (LENT_NOTHING.has(loan.status)) return { lent: 'Nothing', outstanding: `${formatKobo(0)} — nothing was lent` };
  return { lent: 'Nothing yet', outstanding: null };
}
