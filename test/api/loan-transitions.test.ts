import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestApp, type TestApp } from '../support/harness';
import { consentFor, lendingTenant, operatorLoan, type LendingTenant } from '../support/lifecycle';

/**
 * Every action against every loan state the API can reach, with the answer a lending core gives:
 * allowed (2xx, the listed status afterwards) or refused (the listed 4xx, the loan unchanged).
 */
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app, { poolKobo: 10_000_000_000 });
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
/** A fresh BVN each time: one BVN belongs to one borrower of an organisation (test mode verifies any). */
const freshBvn = () => String(30_000_000_000 + Math.floor(Math.random() * 60_000_000_000));
type State = 'pending' | 'kyc_required' | 'kyc_completed' | 'attested' | 'under_review' | 'awaiting_acceptance' | 'terms_accepted' | 'terms_declined' | 'active' | 'rejected' | 'cancelled';

async function loanIn(state: State): Promise<{ id: string; documentReference: string | null }> {
  const managed = state === 'kyc_required' || state === 'kyc_completed';
  const sanctioned = state === 'under_review';
  const loan = await operatorLoan(app, tenant, { kycTier: managed ? 'managed' : 'delegated' }, sanctioned ? { borrower: { firstName: 'Ivan', lastName: 'Sanctioned', phone: '+2348030000002' } } : {});
  const post = (action: string, body?: unknown) => api().post(`/v1/loans/${loan.id}/${action}`, body);
  if (state === 'kyc_completed') await post('kyc', { bvn: freshBvn() });
  if (state === 'attested' || state === 'under_review') await post('attestation', { attestedChecks: {} });
  if (['awaiting_acceptance', 'terms_accepted', 'terms_declined', 'active'].includes(state)) await post('approve', {});
  const current = (await api().get(`/v1/loans/${loan.id}`)).body.data;
  if (state === 'terms_accepted' || state === 'active') await post('accept-terms', { consent: consentFor(current.documentReference) });
  if (state === 'terms_declined') await post('decline-terms', { consent: consentFor(current.documentReference) });
  if (state === 'active') await post('disburse');
  if (state === 'rejected') await post('reject', {});
  if (state === 'cancelled') await post('cancel', {});
  const after = (await api().get(`/v1/loans/${loan.id}`)).body.data;
  expect(after.status).toBe(state);
  return { id: loan.id, documentReference: after.documentReference };
}

const actions = {
  approve: () => ({}),
  reject: () => ({ reason: 'no' }),
  attestation: () => ({ attestedChecks: { bvnVerified: true } }),
  kyc: () => ({ bvn: freshBvn() }),
  'accept-terms': (ref: string | null) => ({ consent: consentFor(ref ?? 'OFR-none') }),
  'decline-terms': (ref: string | null) => ({ consent: consentFor(ref ?? 'OFR-none') }),
  cancel: () => ({ reason: 'no' }),
  disburse: () => undefined,
} as const;
type Action = keyof typeof actions;

/** [status code, loan status afterwards (allowed) | error code (refused)] */
const expected: Record<State, Record<Action, [number, string]>> = {
  pending: { approve: [200, 'awaiting_acceptance'], reject: [200, 'rejected'], attestation: [201, 'attested'], kyc: [400, 'wrong_kyc_tier'], 'accept-terms': [409, 'invalid_loan_state'], 'decline-terms': [409, 'invalid_loan_state'], cancel: [200, 'cancelled'], disburse: [409, 'invalid_loan_state'] },
  kyc_required: { approve: [409, 'invalid_loan_state'], reject: [200, 'rejected'], attestation: [400, 'wrong_kyc_tier'], kyc: [200, 'kyc_completed'], 'accept-terms': [409, 'invalid_loan_state'], 'decline-terms': [409, 'invalid_loan_state'], cancel: [200, 'cancelled'], disburse: [409, 'invalid_loan_state'] },
  kyc_completed: { approve: [200, 'awaiting_acceptance'], reject: [200, 'rejected'], attestation: [400, 'wrong_kyc_tier'], kyc: [409, 'invalid_loan_state'], 'accept-terms': [409, 'invalid_loan_state'], 'decline-terms': [409, 'invalid_loan_state'], cancel: [200, 'cancelled'], disburse: [409, 'invalid_loan_state'] },
  attested: { approve: [200, 'awaiting_acceptance'], reject: [200, 'rejected'], attestation: [201, 'attested'], kyc: [400, 'wrong_kyc_tier'], 'accept-terms': [409, 'invalid_loan_state'], 'decline-terms': [409, 'invalid_loan_state'], cancel: [200, 'cancelled'], disburse: [409, 'invalid_loan_state'] },
  under_review: { approve: [409, 'invalid_loan_state'], reject: [200, 'rejected'], attestation: [409, 'invalid_loan_state'], kyc: [400, 'wrong_kyc_tier'], 'accept-terms': [409, 'invalid_loan_state'], 'decline-terms': [409, 'invalid_loan_state'], cancel: [200, 'cancelled'], disburse: [409, 'invalid_loan_state'] },
  awaiting_acceptance: { approve: [409, 'invalid_loan_state'], reject: [200, 'rejected'], attestation: [409, 'invalid_loan_state'], kyc: [400, 'wrong_kyc_tier'], 'accept-terms': [200, 'terms_accepted'], 'decline-terms': [200, 'terms_declined'], cancel: [200, 'cancelled'], disburse: [409, 'invalid_loan_state'] },
  terms_accepted: { approve: [409, 'invalid_loan_state'], reject: [409, 'invalid_loan_state'], attestation: [409, 'invalid_loan_state'], kyc: [400, 'wrong_kyc_tier'], 'accept-terms': [200, 'terms_accepted'], 'decline-terms': [409, 'invalid_loan_state'], cancel: [200, 'cancelled'], disburse: [200, 'active'] },
  terms_declined: { approve: [409, 'invalid_loan_state'], reject: [409, 'invalid_loan_state'], attestation: [409, 'invalid_loan_state'], kyc: [400, 'wrong_kyc_tier'], 'accept-terms': [409, 'invalid_loan_state'], 'decline-terms': [200, 'terms_declined'], cancel: [409, 'invalid_loan_state'], disburse: [409, 'invalid_loan_state'] },
  active: { approve: [409, 'invalid_loan_state'], reject: [409, 'invalid_loan_state'], attestation: [409, 'invalid_loan_state'], kyc: [400, 'wrong_kyc_tier'], 'accept-terms': [409, 'invalid_loan_state'], 'decline-terms': [409, 'invalid_loan_state'], cancel: [400, 'loan_already_disbursed'], disburse: [409, 'invalid_loan_state'] },
  rejected: { approve: [409, 'invalid_loan_state'], reject: [200, 'rejected'], attestation: [409, 'invalid_loan_state'], kyc: [400, 'wrong_kyc_tier'], 'accept-terms': [409, 'invalid_loan_state'], 'decline-terms': [409, 'invalid_loan_state'], cancel: [409, 'invalid_loan_state'], disburse: [409, 'invalid_loan_state'] },
  cancelled: { approve: [409, 'invalid_loan_state'], reject: [409, 'invalid_loan_state'], attestation: [409, 'invalid_loan_state'], kyc: [400, 'wrong_kyc_tier'], 'accept-terms': [409, 'invalid_loan_state'], 'decline-terms': [409, 'invalid_loan_state'], cancel: [200, 'cancelled'], disburse: [409, 'invalid_loan_state'] },
};

const cases = Object.entries(expected).flatMap(([state, row]) =>
  Object.entries(row).map(([action, outcome]) => [state as State, action as Action, outcome[0], outcome[1]] as const),
);

describe('loan transitions', () => {
  it.each(cases)('from %s, %s answers %i (%s)', async (state, action, status, outcome) => {
    const loan = await loanIn(state);
    const before = (await api().get(`/v1/loans/${loan.id}`)).body.data;
    const res = await api().post(`/v1/loans/${loan.id}/${action}`, actions[action](loan.documentReference));
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    const after = (await api().get(`/v1/loans/${loan.id}`)).body.data;
    if (status < 300) {
      expect(after.status).toBe(outcome);
    } else {
      expect(res.body.error).toBe(outcome);
      expect(after).toEqual(before);
    }
  });
});
