import { describe, expect, it } from 'vitest';
import { PushPreapprovalBody } from '../../server/platform/http/schemas';
import { normalisePhone } from '../../server/platform/domain/users/phone';
import { demoPhone, newRunId, pushBodyFor, scenarioOfRun, SCENARIO_IDS } from '../../demo/server/scenarios';
import { captionFor } from '../../demo/app/captions';
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

  it('gives every borrower a valid Nigerian mobile number in E.164', () => {
    for (let i = 0; i < 50; i += 1) {
      const phone = demoPhone();
      expect(normalisePhone(phone)).toBe(phone);
    }
  });
});

describe('demo captions', () => {
  const run = (scenario: DemoRun['scenario'], status: string, hasActiveMandate = false): DemoRun => ({
    id: newRunId(scenario),
    scenario,
    title: '',
    borrower: { name: 'A B', phone: '+2348000000000' },
    preapproval: null,
    loan: { id: 'l', status, kycTier: 'delegated', principalKobo: 1, outstandingKobo: 1, amountPaidKobo: 0, hasActiveMandate, instalmentCount: 0, instalmentsPaid: 0, nextInstalment: null },
    checkoutPath: null,
    actions: [],
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
});
