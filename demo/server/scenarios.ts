import crypto from 'node:crypto';

/**
 * The demo's scenarios: what the partner does when the salesperson presses "Push". Each run is
 * named by a `clientReference` (`demo-<scenario>-<12 hex>`), which the platform copies onto the
 * pre-approval, the loan and every event they emit: the run needs no state of its own.
 */
export const SCENARIO_IDS = ['delegated', 'managed', 'aml', 'decline'] as const;
export type ScenarioId = (typeof SCENARIO_IDS)[number];

export interface Scenario {
  id: ScenarioId;
  title: string;
  summary: string;
  borrower: { firstName: string; lastName: string };
}

export const SCENARIOS: Record<ScenarioId, Scenario> = {
  delegated: {
    id: 'delegated',
    title: 'Delegated tier: partner-pushed approval',
    summary: 'The partner did KYC and credit and pushes an approval: sign, direct debit, payout, repayments.',
    borrower: { firstName: 'Amaka', lastName: 'Okafor' },
  },
  managed: {
    id: 'managed',
    title: 'Managed tier: the platform runs KYC',
    summary: 'The borrower verifies a BVN in the checkout, the lender approves, then the same journey.',
    borrower: { firstName: 'Tunde', lastName: 'Bello' },
  },
  aml: {
    id: 'aml',
    title: 'AML hit: held for compliance',
    summary: 'The sanctions screen matches the borrower: no offer, no link; compliance rejects.',
    // The sandbox AML screen's magic value: a last name of "Sanctioned" is a hit in test mode.
    borrower: { firstName: 'Bala', lastName: 'Sanctioned' },
  },
  decline: {
    id: 'decline',
    title: 'Decline: the credit engine says no',
    summary: 'The decline is recorded for audit; no loan, and the borrower is never contacted.',
    borrower: { firstName: 'Chinedu', lastName: 'Eze' },
  },
};

const RUN_ID = /^demo-(delegated|managed|aml|decline)-[0-9a-f]{12}$/;

export const isScenarioId = (value: unknown): value is ScenarioId => typeof value === 'string' && (SCENARIO_IDS as readonly string[]).includes(value);

export function newRunId(scenario: ScenarioId): string {
  return `demo-${scenario}-${crypto.randomBytes(6).toString('hex')}`;
}

/** The scenario a run id names, or undefined for anything that is not a demo run id. */
export function scenarioOfRun(runId: string): ScenarioId | undefined {
  return RUN_ID.exec(runId)?.[1] as ScenarioId | undefined;
}

/** A Nigerian mobile number for one run (OTP send limits are per phone, so every run gets its own). */
export const demoPhone = () => `+23480${String(crypto.randomInt(0, 100_000_000)).padStart(8, '0')}`;

/** A sandbox BVN nobody else in the sandbox has (the borrower is matched by it); it never leaves this server. */
const demoBvn = () => `3${String(crypto.randomInt(0, 1e10)).padStart(10, '0')}`;

/** Realistic credit amounts per scenario, in naira (the push API's unit; the platform converts to kobo exactly). */
export const DEMO_PRINCIPAL_NAIRA = 250_000;
export const DEMO_TENOR_DAYS = 90;
/**
 * The demo's price: 4% a month, flat, as Nigerian consumer and patient lenders quote it (digital
 * lenders advertise roughly 2.5–30% a month; 3–6% a month flat is usual for a three-month consumer
 * loan of this size). The platform stores rates a year: 48%, under the sandbox organisation's cap
 * of 60% a year (`maxInterestRateBps` 6000), which a push above it would break (422, never clamped).
 */
export const DEMO_MONTHLY_RATE_PERCENT = 4;
export const DEMO_ANNUAL_RATE_BPS = DEMO_MONTHLY_RATE_PERCENT * 12 * 100;

/** The body of `POST /v1/preapprovals` a partner's credit engine would send for this scenario. */
export function pushBodyFor(scenario: Exclude<ScenarioId, 'managed'>, runId: string, phone: string) {
  const { firstName, lastName } = SCENARIOS[scenario].borrower;
  const approve = scenario !== 'decline';
  return {
    borrower: { firstName, lastName, phone, email: `${firstName.toLowerCase()}.${runId.slice(-6)}@example.com` },
    decision: {
      metadata: { assessment_id: `asm-${runId}`, bvn: demoBvn() },
      decision: approve
        ? {
            recommendation: 'APPROVE',
            approved_amount: DEMO_PRINCIPAL_NAIRA,
            conditions: { interest_rate: DEMO_ANNUAL_RATE_BPS / 100, tenor_days: DEMO_TENOR_DAYS, repayment_frequency: 'monthly' },
          }
        : { recommendation: 'DECLINE', reasons: ['debt-to-income above policy'] },
      confidence: approve ? 'high' : 'medium',
      risk_band: approve ? 'B' : 'E',
      trust_score: approve ? 712 : 388,
    },
    clientReference: runId,
  };
}
