import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../server/platform/domain/ledger/check-ledger';
import { keyHeaders, pushBody, startTestApp, type TestApp } from '../support/harness';
import { consentFor, lendingTenant, type LendingTenant } from '../support/lifecycle';
import { PartnerClient } from '../chaos/http-client';
import { checkInvariants, type Check } from '../chaos/invariants';
import type { Receiver } from '../chaos/receiver';
import { newTally, type Tally } from '../chaos/workload';

/**
 * The chaos suite's checks bite: on sound books every check passes; each kind of damage the suite
 * looks for, written into the database (or the client's and receiver's records), fails its check.
 */
let app: TestApp;
let tenant: LendingTenant;
let client: PartnerClient;
let tally: Tally;
let receiver: Receiver;
let loanId: string;

beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
  client = new PartnerClient(app.url, keyHeaders(tenant.test));
  const pushed = await client.write('/v1/preapprovals', pushBody({ amount: 20000 }));
  const offered = await client.write(`/v1/preapprovals/${pushed.json.data.preapprovalId}/issue-offer`, {});
  loanId = offered.json.data.id;
  await client.write(`/v1/loans/${loanId}/accept-terms`, { consent: consentFor(offered.json.data.documentReference) });
  expect((await client.write(`/v1/loans/${loanId}/disburse`, {})).status).toBe(200);
  expect((await client.write(`/v1/loans/${loanId}/repayments`, { method: 'external', amountKobo: 300_000, externalReference: 'chk-1' })).status).toBe(201);
  expect((await client.write('/v1/payouts', { borrowerId: offered.json.data.borrowerId, loanId, amountKobo: 500_000, bankName: 'First Bank', bankCode: '011', accountNumber: '0000014579' })).status).toBe(201);
  tally = newTally();
  tally.repaidLoans.push(loanId);
  // The receiver's record: every event delivered once (no dispatcher runs in this app).
  const events = await app.platform.db.selectFrom('events').select('id').where('organisationId', '=', tenant.organisationId).execute();
  receiver = {
    url: '',
    attempts: events.map((e, i) => ({ eventId: e.id, deliveryId: `d${i}`, attempt: 1, event: 'x', answered: 200 })),
    delivered: new Set(events.map((e) => e.id)),
    acceptAll: () => undefined,
    close: async () => undefined,
  };
});
afterAll(async () => {
  client?.close();
  await app?.stop();
});

const run = async (): Promise<Map<string, Check>> => {
  const checks = await checkInvariants({
    db: app.platform.db,
    organisationId: tenant.organisationId,
    clients: [client],
    tally,
    receiver,
    ledgerCheck: await checkLedger(app.platform.db),
    guardSamples: 1,
    guardBreachesSeen: [],
    settledRepaymentIds: [],
  });
  return new Map(checks.map((c) => [c.name, c]));
};
const failing = async () => [...(await run()).values()].filter((c) => !c.ok).map((c) => c.name);

describe('the chaos checks', () => {
  it('pass on sound books', async () => {
    const checks = await run();
    expect([...checks.values()].filter((c) => !c.ok)).toEqual([]);
    expect(checks.size).toBeGreaterThanOrEqual(11);
  });

  it('a loan disbursed twice fails "no loan disbursed twice"', async () => {
    const db = app.platform.db;
    const id = crypto.randomUUID();
    await db.insertInto('ledgerTransactions').values({ id, organisationId: tenant.organisationId, mode: 'test', reference: `DSB-${loanId}-again`, kind: 'disbursement', description: null, createdAt: new Date().toISOString() }).execute();
    try {
      expect(await failing()).toContain('no loan disbursed twice');
    } finally {
      await db.deleteFrom('ledgerTransactions').where('id', '=', id).execute();
    }
  });

  it('an over-allocated instalment fails "no instalment over-allocated"', async () => {
    const db = app.platform.db;
    const item = await db.selectFrom('loanScheduleItems').selectAll().where('loanId', '=', loanId).where('installmentNumber', '=', 1).executeTakeFirstOrThrow();
    await db.updateTable('loanScheduleItems').set({ paidInterestKobo: item.interestKobo + 1 }).where('id', '=', item.id).execute();
    try {
      expect(await failing()).toContain('no instalment over-allocated');
    } finally {
      await db.updateTable('loanScheduleItems').set({ paidInterestKobo: item.paidInterestKobo }).where('id', '=', item.id).execute();
    }
  });

  it('a payable beyond its guard fails the guard check and the ledger check', async () => {
    const db = app.platform.db;
    const payable = await db.selectFrom('ledgerAccounts').selectAll().where('organisationId', '=', tenant.organisationId).where('kind', '=', 'borrower_payable').executeTakeFirstOrThrow();
    await db.updateTable('ledgerAccounts').set({ balanceKobo: 1 }).where('id', '=', payable.id).execute();
    try {
      expect(await failing()).toEqual(expect.arrayContaining(['no pool, wallet or payable ever beyond its guard', 'admin ledger check balanced']));
    } finally {
      await db.updateTable('ledgerAccounts').set({ balanceKobo: payable.balanceKobo }).where('id', '=', payable.id).execute();
    }
  });

  it('a repayment recorded twice fails "no write done twice by a retry"', async () => {
    const db = app.platform.db;
    const original = await db.selectFrom('loanRepayments').selectAll().where('loanId', '=', loanId).executeTakeFirstOrThrow();
    const id = crypto.randomUUID();
    await db.insertInto('loanRepayments').values({ ...original, id, reference: `${original.reference}-twice`, externalReference: null, status: 'failed' }).execute();
    try {
      expect(await failing()).toContain('no write done twice by a retry');
    } finally {
      await db.deleteFrom('loanRepayments').where('id', '=', id).execute();
    }
  });

  it('a retry answered differently fails "every retried request got the original answer"', async () => {
    const record = client.writes.find((w) => w.path.endsWith('/disburse'))!;
    const kept = record.answer;
    record.answer = { ...kept, text: kept.text.replace('"success":true', '"success":true ') };
    try {
      expect(await failing()).toContain('every retried request got the original answer');
    } finally {
      record.answer = kept;
    }
  });

  it('an event never delivered, or an attempt sent twice, fails its check', async () => {
    const [first] = receiver.attempts;
    receiver.delivered.delete(first!.eventId);
    receiver.attempts.push({ ...first! });
    try {
      expect(await failing()).toEqual(expect.arrayContaining(['every committed event delivered at least once', 'no (delivery, attempt) pair sent twice']));
    } finally {
      receiver.delivered.add(first!.eventId);
      receiver.attempts.pop();
    }
    expect(await failing()).toEqual([]);
  });
});
