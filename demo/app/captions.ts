import type { DemoRun, ScenarioId } from './demo-api';

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
          'The phone shows the real hosted checkout, opened from the loan’s applicationUrl. Tap “Send code”, read the code in the SMS inbox, type it in, ' +
          'then review the key facts and sign with the borrower’s name.',
      };
    case 'terms_accepted':
      return loan.hasActiveMandate
        ? {
            step: n(2),
            title: 'Mandate active: ready to pay out',
            text: '“mandate.active” arrived, so instalments can be collected by direct debit. Press “Disburse”: the money leaves the capital pool in the same transaction that activates the loan.',
          }
        : {
            step: n(1),
            title: 'Signed: now the bank account and the direct debit',
            text:
              '“loan.offer.accepted” went to the partner; the signature was recorded server side with the borrower’s device and IP. In the phone, choose a bank and ' +
              'account number (the sandbox resolves the name), then set up the direct debit and approve it on the bank’s page.',
          };
    case 'active':
      return {
        step: n(3),
        title: 'Disbursed: now the repayments',
        text: '“loan.disbursed” went out. Record each instalment as it is collected: it is allocated fee → interest → principal and announced with “loan.repayment.completed”.',
      };
    case 'completed':
      return {
        step: n(4),
        title: 'Fully repaid: the loan is completed',
        text: 'The last instalment completed the loan (“loan.completed”). Decision, checkout, mandate, disbursement and repayment — every step a webhook, every amount in kobo.',
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
      ? { step: 'Step 2', title: 'Rejected by compliance', text: 'Compliance confirmed the match. Nothing was lent and the borrower was never sent a link.' }
      : {
          step: 'Step 1',
          title: 'AML screen hit: held for review',
          text:
            'The platform screened the borrower before issuing the offer and the sanctions list matched (the sandbox’s magic surname “Sanctioned”). ' +
            'No offer, no link: “loan.kyc.attested” reports the hit. Compliance decides — press “Reject: confirmed match”.',
        };
  }
  if (scenario === 'managed') {
    if (status === 'kyc_required' || status === 'kyc_pending') {
      return {
        step: 'Step 1',
        title: 'The platform runs KYC',
        text:
          `The lender booked an application on a managed-tier product, so the platform verifies identity itself. In the phone: send and type the code from the inbox, ` +
          `then enter a BVN — in the sandbox any 11 digits verify, e.g. ${bvnHint} (00000000000 fails; 11111111111 is pending once).`,
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
