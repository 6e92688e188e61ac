import { pushBody } from './harness';

const consent = {
  signatureFullName: 'Ada Obi',
  ipAddress: '102.89.34.7',
  userAgent: 'Mozilla/5.0',
  signedAt: '2026-11-26T10:00:00Z',
  documentReference: 'OFR-x-1',
};
/** A valid body for every POST route; add one when you add a route (the bad-input and tenancy suites use it). */
export const validBodies: Record<string, () => Record<string, unknown> | undefined> = {
  '/v1/preapprovals': () => pushBody(),
  '/v1/preapprovals/{id}/issue-offer': () => ({}),
  '/v1/loans/{id}/approve': () => ({ notes: 'ok', attestation: { schemaVersion: 1, attestedChecks: { bvnVerified: true } } }),
  '/v1/loans/{id}/reject': () => ({ reason: 'no' }),
  '/v1/loans/{id}/attestation': () => ({ attestedChecks: { bvnVerified: true }, schemaVersion: 1 }),
  '/v1/loans/{id}/kyc': () => ({ bvn: '22222222222', nin: '12345678901', dateOfBirth: '1990-01-01', address: '1 Marina' }),
  '/v1/loans/{id}/accept-terms': () => ({ consent }),
  '/v1/loans/{id}/decline-terms': () => ({ consent, reason: 'no' }),
  '/v1/loans/{id}/cancel': () => ({ reason: 'no' }),
  '/v1/loans/{id}/disburse': () => undefined,
  '/v1/loans/{id}/insurance': () => undefined,
  '/v1/loans/{id}/repayments': () => ({ method: 'external', amountKobo: 1000, externalReference: 'ext-1' }),
  '/v1/loans/{id}/mandates': () => ({ email: 'ada@example.com', accountNumber: '0123456789', bankCode: '058', callbackUrl: 'https://partner.example/r', provider: 'rail_a' }),
  '/v1/mandates/{id}/activate': () => undefined,
  '/v1/test/mandates/{id}/simulate-activation': () => undefined,
  '/v1/payouts': () => ({
    borrowerId: '00000000-0000-4000-8000-000000000000',
    amountKobo: 1000,
    bankName: 'First Bank',
    bankCode: '011',
    accountNumber: '0000014579',
    accountName: 'Ada Obi',
    loanId: null,
  }),
  '/v1/webhook-endpoints': () => ({ url: 'https://partner.example/hooks', description: 'main', events: ['loan.approved'], mode: 'test' }),
  '/v1/webhook-endpoints/{id}/rotate-secret': () => undefined,
  '/v1/events/{id}/redeliver': () => undefined,
};

