import { describe, expect, it } from 'vitest';
import { PushPreapprovalBody } from '../../server/platform/http/schemas';
import { normalisePhone } from '../../server/platform/domain/users/phone';
import { DEMO_ANNUAL_RATE_BPS, demoPhone, newRunId, pushBodyFor, scenarioOfRun, SCENARIO_IDS } from '../../demo/server/scenarios';
import { nextSteps } from '../../demo/server/demo-runs';
import { captionFor, directDebitText, moneyText, preapprovalText, termsText } from '../../demo/app/captions';
import { formatMonthlyRate } from '../../demo/app/format';
import type { DemoRun } from '../../demo/app/demo-api';

describe('demo scenarios', () => {
  it('names every run by a clientReference its scenario can be read back from, and nothing else passes for one', () => {
    for (const scenario of SCENARIO_IDS) {
      const id = newRunId(scenario);
      expect(id.length).toBeLessThanOrEqual(255);
      expect(scenarioOfRun(id)).toBe(scenario);
    }
    for (const bad of ['', 'demo-delegated-', 'demo-gold-0123456789ab', 'demo-delegated-0123456789AB', 'demo-delegated-0123456789ab-x', "demo-aml-0123456789ab' or 1=1"]) {
      expect(scenarioOfRun(bad)).toBeUndefined();
    }
  });

  it('pushes bodies the platform accepts: an approval with conditions, a decline without an amount, the AML magic surname', () => {
    for (const scenario of ['delegated', 'aml', 'decline'] as const) {
      const body = pushBodyFor(scenario, newRunId(scenario), demoPhone());
      expect(PushPreapprovalBody.safeParse(body).success).toBe(true);
      expect(body.decision.metadata.bvn).toMatch(/^\d{11}$/);
    }
    expect(pushBodyFor('decline', newRunId('decline'), demoPhone()).decision.decision).not.toHaveProperty('approved_amount');
    expect(pushBodyFor('aml', newRunId('aml'), demoPhone()).borrower.lastName).toBe('Sanctioned');
  });

  it('prices at a rate Nigerian lenders quote (4% a month, flat), under the sandbox organisation\'s cap of 60% a year', () => {
    const conditions = (pushBodyFor('delegated', newRunId('delegated'), demoPhone()).decision.decision as { conditions: { interest_rate: number } }).conditions;
    expect(conditions.interest_rate).toBe(48);
    expect(DEMO_ANNUAL_RATE_BPS).toBe(4800);
    expect(DEMO_ANNUAL_RATE_BPS).toBeLessThanOrEqual(6000);
    expect(formatMonthlyRate(DEMO_ANNUAL_RATE_BPS)).toBe('4%');
    expect(formatMonthlyRate(4500)).toBe('3.75%');
  });

  it('gives every borrower a valid Nigerian mobile number in E.164', () => {
    for (let i = 0; i < 50; i += 1) {
      const phone = demoPhone();
      expect(normalisePhone(phone)).toBe(phone);
    }
  });
});

describe('demo captions', () => {
  const run = (scenario: DemoRun['scenario'], status: string, hasActiveMandate = false, overrides: Partial<NonNullable<DemoRun['loan']>> = {}): DemoRun => ({
    id: newRunId(scenario),
    scenario,
    title: '',
    borrower: { name: 'A B', phone: '+2348000000000' },
    preapproval: null,
    loan: {
      id: 'l',
      status,
      kycTier: 'delegated',
      tenorDays: 90,
      repaymentFrequency: 'monthly',
      interestRateBps: 4800,
      interestModel: 'flat',
      principalKobo: 25_000_000,
      disbursedAmountKobo: null,
      outstandingKobo: 25_000_000,
      amountPaidKobo: 0,
      hasActiveMandate,
      instalmentCount: 0,
      instalmentsPaid: 0,
      instalmentKobo: null,
      totalRepayableKobo: null,
      nextInstalment: null,
      ...overrides,
    },
    mandate: hasActiveMandate ? { provider: 'rail_a', status: 'active' } : null,
    checkoutPath: null,
    actions: [],
    waiting: null,
  });

  it('tells each scenario as numbered steps that only move forward', () => {
    const story = (scenario: DemoRun['scenario'], steps: Array<[string, boolean?]>) =>
      steps.map(([status, mandate]) => Number(captionFor(run(scenario, status, mandate), '40000000000').step.replace('Step ', '')));
    const delegated = story('delegated', [['awaiting_acceptance'], ['terms_accepted'], ['terms_accepted', true], ['active', true], ['completed', true]]);
    expect(delegated).toEqual([1, 2, 3, 4, 5]);
    const managed = story('managed', [['kyc_required'], ['kyc_completed'], ['awaiting_acceptance'], ['terms_accepted'], ['terms_accepted', true], ['active', true], ['completed', true]]);
    expect(managed).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(captionFor(run('managed', 'kyc_required'), '40000000000').text).toContain('40000000000');
  });

  it('promises no webhook the API does not send: a rejection is told by the review\'s close', () => {
    const rejected = captionFor(run('aml', 'rejected'), '40000000000');
    expect(rejected.title).toBe('Rejected by compliance');
    expect(rejected.text).toContain('“review.closed”');
    expect(captionFor(run('delegated', 'completed', true), '40000000000').text).not.toMatch(/every step a webhook/i);
  });

  it('a loan never disbursed owes nothing; a disbursed one owes what the platform says', () => {
    expect(moneyText(run('aml', 'rejected').loan!)).toEqual({ lent: 'Nothing', outstanding: '₦0.00 — nothing was lent' });
    expect(moneyText(run('delegated', 'terms_declined').loan!).outstanding).toBe('₦0.00 — nothing was lent');
    expect(moneyText(run('delegated', 'awaiting_acceptance').loan!)).toEqual({ lent: 'Nothing yet', outstanding: null });
    const active = run('delegated', 'active', true, { disbursedAmountKobo: 25_000_000, outstandingKobo: 12_345_678 }).loan!;
    expect(moneyText(active)).toEqual({ lent: '₦250,000.00', outstanding: '₦123,456.78' });
  });

  it('the pre-approval an AML hit held reads as such, not as "Received"', () => {
    const held = { ...run('aml', 'rejected'), preapproval: { id: 'p', status: 'received', hasLoan: true } };
    expect(preapprovalText(held)).toBe('No offer issued (AML hold)');
    expect(preapprovalText({ ...held, preapproval: { id: 'p', status: 'disbursed', hasLoan: true } })).toBe('Disbursed');
  });

  it('the direct debit follows the mandate and the loan: never "Active" on a repaid loan', () => {
    expect(directDebitText(run('delegated', 'terms_accepted'))).toBe('Not set up yet');
    expect(directDebitText({ ...run('delegated', 'terms_accepted'), mandate: { provider: 'rail_a', status: 'initiated' } })).toBe('Waiting for the borrower’s approval at the bank');
    expect(directDebitText({ ...run('delegated', 'terms_accepted'), mandate: { provider: 'rail_a', status: 'failed' } })).toBe('Refused by the borrower');
    expect(directDebitText(run('delegated', 'terms_accepted', true))).toBe('Active — first debit after the payout');
    expect(directDebitText(run('delegated', 'active', true))).toBe('Active — debits each instalment when due');
    expect(directDebitText(run('delegated', 'completed', true))).toBe('Completed — no more debits');
    expect(directDebitText(run('aml', 'rejected'))).toBe('None');
  });

  it('shows the price the way the checkout does: a rate a month, the instalments, the total', () => {
    expect(termsText(run('delegated', 'awaiting_acceptance', false, { instalmentCount: 3, instalmentKobo: 9_333_333, totalRepayableKobo: 28_000_000 }).loan!)).toEqual({
      rate: '4% a month (flat) · 48% a year',
      repayment: '3 × ₦93,333.33 monthly (last ₦93,333.34)',
      total: '₦280,000.00',
    });
    expect(termsText(run('delegated', 'awaiting_acceptance', false, { instalmentCount: 2, instalmentKobo: 100, totalRepayableKobo: 200 }).loan!).repayment).toBe('2 × ₦1.00 monthly');
    expect(termsText(run('aml', 'under_review').loan!)).toEqual({ rate: '4% a month (flat) · 48% a year', repayment: null, total: null });
  });
});

describe('demo next steps', () => {
  it('offers Disburse only once the offer is signed and the direct debit is active, and says what it waits for', () => {
    expect(nextSteps({ status: 'awaiting_acceptance', hasActiveMandate: false }, false)).toMatchObject({ actions: [], waiting: { action: 'disburse' } });
    expect(nextSteps({ status: 'terms_accepted', hasActiveMandate: false }, false)).toEqual({
      actions: [],
      waiting: { action: 'disburse', needs: 'the borrower’s direct debit is active (“mandate.active”)' },
    });
    expect(nextSteps({ status: 'terms_accepted', hasActiveMandate: true }, false)).toEqual({ actions: ['disburse'], waiting: null });
    expect(nextSteps({ status: 'kyc_pending', hasActiveMandate: false }, false)).toMatchObject({ actions: [], waiting: { action: 'approve' } });
    expect(nextSteps({ status: 'kyc_completed', hasActiveMandate: false }, false)).toEqual({ actions: ['approve'], waiting: null });
    expect(nextSteps({ status: 'under_review', hasActiveMandate: false }, false)).toEqual({ actions: ['reject'], waiting: null });
    expect(nextSteps({ status: 'active', hasActiveMandate: true }, true)).toEqual({ actions: ['repay'], waiting: null });
    for (const status of ['rejected', 'completed', 'cancelled', 'terms_declined']) expect(nextSteps({ status, hasActiveMandate: true }, false)).toEqual({ actions: [], waiting: null });
  });
});
