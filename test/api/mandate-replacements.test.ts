import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { makeNextInstalmentDue } from '../../server/platform/domain/borrower-loans/make-due';
import { sweepMandateReplacements } from '../../server/platform/domain/mandates/take-over-mandate';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { getLoanTimeline } from '../../server/platform/domain/loans/loan-timeline';
import { startTestApp, type TestApp } from '../support/harness';
import { eventsOf, lendingTenant, type LendingTenant } from '../support/lifecycle';
import { nubanCheckDigit, uniquePhone } from '../support/checkout';
import { borrowerClient, lentLoan, mintBorrowerSession } from '../support/borrower-loans';

/**
 * "Change my bank account": a new mandate on the account the borrower gives takes over from the loan's active one only
 * once the rail has made it active, in one transaction with `loan.mandate.replaced`; a refusal at the rail leaves the old
 * one; a debit in flight on the old one defers the takeover, so no instalment is charged on both.
 * The sandbox rail keeps its default lags (confirmation 3 s, charges 1 s) on the fake clock, so a debit can be in flight.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
let other: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
  other = await lendingTenant(app);
});
afterAll(() => app.stop());

const nuban = (bank: string, serial: string) => `${serial}${nubanCheckDigit(bank, serial)}`;
const RETURN = 'https://loans.example/my-loan';
const decide = (authorizationUrl: string, decision: 'approve' | 'refuse') => fetch(authorizationUrl, { method: 'POST', body: new URLSearchParams({ decision }), redirect: 'manual' });
const confirmAtRail = () => clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1);
const collect = async () => {
  await runCollections(app.platform, clock.now());
  clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
  return runCollections(app.platform, clock.now());
};
const db = () => app.platform.db;
const mandateRepayments = (loanId: string) =>
  db().selectFrom('loanRepayments').select(['mandateId', 'status', 'amountKobo']).where('loanId', '=', loanId).where('method', '=', 'mandate').orderBy('createdAt').orderBy('id').execute();
const railStatusOf = async (mandateId: string) => {
  const row = await db().selectFrom('loanMandates').select(['providerReference', 'mode', 'provider']).where('id', '=', mandateId).executeTakeFirstOrThrow();
  return (await app.platform.rails.railFor(row.mode, row.provider as 'rail_a')!.readAuthorisation(row.providerReference!)).status;
};

async function signedIn(loanTenant = tenant) {
  const { loan, mandateId } = await lentLoan(app, loanTenant, uniquePhone());
  const session = await mintBorrowerSession(app, loanTenant.test, loan.id);
  return { loan, mandateId, borrower: borrowerClient(app, session.token) };
}

describe('changing the account a loan is debited from', () => {
  it('the new mandate takes over once active: the old one is cancelled here and at the rail, the event is written, and the next instalment is charged on the new one only', async () => {
    const { loan, mandateId: oldId, borrower } = await signedIn();
    const banks = await borrower.get('/v1/borrower/banks');
    expect(banks.status).toBe(200);
    expect(banks.body.data.some((b: { code: string }) => b.code === '057')).toBe(true);
    const accountNumber = nuban('057', '123456789');
    const resolved = await borrower.post(`/v1/borrower/loans/${loan.id}/bank-account/resolve`, { bankCode: '057', accountNumber });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({ bankCode: '057', accountNumber, nameMatch: { status: 'match' } });

    const started = await borrower.post(`/v1/borrower/loans/${loan.id}/mandate-replacements`, { bankCode: '057', accountNumber, returnUrl: RETURN });
    expect(started.status).toBe(201);
    const replacement = started.body.data;
    expect(replacement).toMatchObject({ status: 'pending', stage: 'awaiting_authorisation', bankName: resolved.body.data.bankName, accountNumberLast4: accountNumber.slice(-4), authorizationUrl: expect.any(String) });
    // The same account again answers the pending change, never a second mandate.
    const again = await borrower.post(`/v1/borrower/loans/${loan.id}/mandate-replacements`, { bankCode: '057', accountNumber, returnUrl: RETURN });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(replacement.id);
    const shown = (await borrower.get(`/v1/borrower/loans/${loan.id}`)).body.data;
    expect(shown.mandate).toMatchObject({ id: oldId, status: 'active' });
    expect(shown.mandateReplacement).toMatchObject({ id: replacement.id, status: 'pending' });

    const back = (await decide(replacement.authorizationUrl, 'approve')).headers.get('location')!;
    expect(new URL(back).searchParams.get('replacement')).toBe(replacement.id);
    expect(new URL(back).searchParams.get('loan')).toBe(loan.id);
    // Approved but not yet confirmed by the rail: still pending, the old mandate collects.
    expect((await borrower.post(`/v1/borrower/loans/${loan.id}/mandate-replacements/${replacement.id}/activate`)).body.data.status).toBe('pending');
    confirmAtRail();
    const activated = await borrower.post(`/v1/borrower/loans/${loan.id}/mandate-replacements/${replacement.id}/activate`);
    expect(activated.status).toBe(200);
    expect(activated.body.data).toMatchObject({ status: 'active', previousMandateId: oldId, replacedAt: expect.any(String) });

    const row = await db().selectFrom('loans').select(['activeMandateId', 'hasActiveMandate']).where('id', '=', loan.id).executeTakeFirstOrThrow();
    expect(row.activeMandateId).toBe(replacement.mandateId);
    expect((await db().selectFrom('loanMandates').select('status').where('id', '=', oldId).executeTakeFirstOrThrow()).status).toBe('cancelled');
    expect(await railStatusOf(oldId)).toBe('cancelled');
    const replaced = (await eventsOf(app, tenant.organisationId)).filter((e) => e.name === 'loan.mandate.replaced' && e.data.loanId === loan.id);
    expect(replaced).toHaveLength(1);
    expect(replaced[0]!.data).toMatchObject({ loanId: loan.id, previousMandateId: oldId, mandateId: replacement.mandateId });
    const after = (await borrower.get(`/v1/borrower/loans/${loan.id}`)).body.data;
    expect(after.mandate).toMatchObject({ id: replacement.mandateId, bankCode: '057', accountNumberLast4: accountNumber.slice(-4) });
    expect(after.mandateReplacement).toMatchObject({ id: replacement.id, status: 'active' });
    // The account debited now is not a change.
    expect((await borrower.post(`/v1/borrower/loans/${loan.id}/mandate-replacements`, { bankCode: '057', accountNumber })).body.error).toBe('bank_account_unchanged');

    await makeNextInstalmentDue(db(), loan.id, clock.now());
    await collect();
    const charges = await mandateRepayments(loan.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ mandateId: replacement.mandateId, status: 'completed' });
  });

  it('when the borrower refuses at the bank, then the change fails, the old mandate stays, and they can try again', async () => {
    const { loan, mandateId: oldId, borrower } = await signedIn();
    const started = (await borrower.post(`/v1/borrower/loans/${loan.id}/mandate-replacements`, { bankCode: '058', accountNumber: nuban('058', '222333444') })).body.data;
    await decide(started.authorizationUrl, 'refuse');
    const refused = await borrower.post(`/v1/borrower/loans/${loan.id}/mandate-replacements/${started.id}/activate`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'mandate_declined', data: { replacementId: started.id, status: 'failed', reason: 'declined' } });
    const shown = (await borrower.get(`/v1/borrower/loans/${loan.id}`)).body.data;
    expect(shown.mandate).toMatchObject({ id: oldId, status: 'active' });
    expect(shown.mandateReplacement).toMatchObject({ id: started.id, status: 'failed', failureReason: 'declined' });
    expect((await db().selectFrom('loans').select('activeMandateId').where('id', '=', loan.id).executeTakeFirstOrThrow()).activeMandateId).toBe(oldId);

    const retry = await borrower.post(`/v1/borrower/loans/${loan.id}/mandate-replacements`, { bankCode: '058', accountNumber: nuban('058', '222333444') });
    expect(retry.status).toBe(201);
    expect(retry.body.data.id).not.toBe(started.id);
    // The lender's loan page lists both changes among the borrower's actions, the refused one with why.
    const timeline = await getLoanTimeline(db(), app.platform.dialect, app.platform, { organisationId: tenant.organisationId, mode: 'test' }, loan.id, clock.now());
    expect(timeline.borrowerActions).toEqual([
      expect.objectContaining({ kind: 'debit_account_change', status: 'failed', failureReason: 'declined', accountNumberLast4: nuban('058', '222333444').slice(-4) }),
      expect.objectContaining({ kind: 'debit_account_change', status: 'pending' }),
    ]);
  });

  it('another account while one is pending withdraws the pending one (at the rail too) and sets up a fresh one', async () => {
    const { loan, borrower } = await signedIn();
    const first = (await borrower.post(`/v1/borrower/loans/${loan.id}/mandate-replacements`, { bankCode: '057', accountNumber: nuban('057', '300000001') })).body.data;
    const second = await borrower.post(`/v1/borrower/loans/${loan.id}/mandate-replacements`, { bankCode: '057', accountNumber: nuban('057', '300000002') });
    expect(second.status).toBe(201);
    const rows = await db().selectFrom('mandateReplacements').select(['id', 'status', 'failureReason']).where('loanId', '=', loan.id).orderBy('createdAt').execute();
    expect(rows).toEqual([
      { id: first.id, status: 'cancelled', failureReason: 'withdrawn' },
      { id: second.body.data.id, status: 'pending', failureReason: null },
    ]);
    expect(await railStatusOf(first.mandateId)).toBe('cancelled');
  });

  it('when the account is in someone else\'s name, then 409 account_name_mismatch and nothing is set up', async () => {
    const { loan, borrower } = await signedIn();
    const accountNumber = nuban('057', '777777777');
    expect((await borrower.post(`/v1/borrower/loans/${loan.id}/bank-account/resolve`, { bankCode: '057', accountNumber })).body.data.nameMatch.status).toBe('mismatch');
    const before = (await db().selectFrom('loanMandates').select('id').where('loanId', '=', loan.id).execute()).length;
    const res = await borrower.post(`/v1/borrower/loans/${loan.id}/mandate-replacements`, { bankCode: '057', accountNumber });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'account_name_mismatch', data: { nameMatch: { status: 'mismatch' } } });
    expect((await db().selectFrom('loanMandates').select('id').where('loanId', '=', loan.id).execute()).length).toBe(before);
    expect(await db().selectFrom('mandateReplacements').select('id').where('loanId', '=', loan.id).execute()).toHaveLength(0);
  });

  it('when a scheduled debit is in flight on the old mandate, then the takeover waits for it: that instalment is charged once, the next one on the new mandate', async () => {
    const { loan, mandateId: oldId, borrower } = await signedIn();
    const started = (await borrower.post(`/v1/borrower/loans/${loan.id}/mandate-replacements`, { bankCode: '057', accountNumber: nuban('057', '400000004') })).body.data;
    await makeNextInstalmentDue(db(), loan.id, clock.now());
    // The collector sends the debit on the old mandate; the rail has not decided it yet.
    await runCollections(app.platform, clock.now());
    expect(await mandateRepayments(loan.id)).toEqual([expect.objectContaining({ mandateId: oldId, status: 'pending' })]);

    await decide(started.authorizationUrl, 'approve');
    confirmAtRail();
    const waiting = await borrower.post(`/v1/borrower/loans/${loan.id}/mandate-replacements/${started.id}/activate`);
    expect(waiting.status).toBe(200);
    expect(waiting.body.data).toMatchObject({ status: 'pending', stage: 'awaiting_charge' });
    expect((await db().selectFrom('loans').select('activeMandateId').where('id', '=', loan.id).executeTakeFirstOrThrow()).activeMandateId).toBe(oldId);
    expect((await eventsOf(app, tenant.organisationId)).filter((e) => e.name === 'loan.mandate.replaced' && e.data.loanId === loan.id)).toHaveLength(0);

    // The debit is decided on the old mandate; the sweep then completes the takeover and cancels the old one at the rail.
    await runCollections(app.platform, clock.now());
    expect(await mandateRepayments(loan.id)).toEqual([expect.objectContaining({ mandateId: oldId, status: 'completed' })]);
    expect(await sweepMandateReplacements(db(), app.platform, clock.now())).toEqual({ replaced: 1, cancelledAtRail: 1 });
    expect((await db().selectFrom('loans').select('activeMandateId').where('id', '=', loan.id).executeTakeFirstOrThrow()).activeMandateId).toBe(started.mandateId);
    expect(await railStatusOf(oldId)).toBe('cancelled');

    // Nothing else is owed yet: no second charge for the instalment paid on the old mandate.
    await collect();
    expect(await mandateRepayments(loan.id)).toHaveLength(1);
    await makeNextInstalmentDue(db(), loan.id, clock.now());
    await collect();
    const charges = await mandateRepayments(loan.id);
    expect(charges.map((c) => [c.mandateId, c.status])).toEqual([
      [oldId, 'completed'],
      [started.mandateId, 'completed'],
    ]);
  });

  it('another lender\'s session, or another loan\'s change, answers 404 and changes nothing', async () => {
    const mine = await signedIn();
    const theirs = await signedIn(other);
    const started = (await mine.borrower.post(`/v1/borrower/loans/${mine.loan.id}/mandate-replacements`, { bankCode: '057', accountNumber: nuban('057', '500000005') })).body.data;
    const body = { bankCode: '057', accountNumber: nuban('057', '500000006') };
    expect((await theirs.borrower.post(`/v1/borrower/loans/${mine.loan.id}/bank-account/resolve`, body)).status).toBe(404);
    expect((await theirs.borrower.post(`/v1/borrower/loans/${mine.loan.id}/mandate-replacements`, body)).status).toBe(404);
    expect((await theirs.borrower.post(`/v1/borrower/loans/${mine.loan.id}/mandate-replacements/${started.id}/activate`)).status).toBe(404);
    expect((await theirs.borrower.post(`/v1/borrower/loans/${theirs.loan.id}/mandate-replacements/${started.id}/activate`)).status).toBe(404);
    expect(await db().selectFrom('mandateReplacements').select('status').where('loanId', '=', mine.loan.id).execute()).toEqual([{ status: 'pending' }]);
  });

  it('bad input is a 4xx and sets nothing up', async () => {
    const { loan, borrower } = await signedIn();
    const path = `/v1/borrower/loans/${loan.id}/mandate-replacements`;
    expect((await borrower.post(path, { bankCode: '057', accountNumber: '12345' })).body.error).toBe('invalid_request');
    expect((await borrower.post(path, { bankCode: '999', accountNumber: nuban('057', '600000006') })).body.error).toBe('bank_not_found');
    expect((await borrower.post(path, { bankCode: '057', accountNumber: '1234567890', returnUrl: 'javascript:alert(1)' })).status).toBe(400);
    const badDigit = nuban('057', '600000006').slice(0, 9) + String((Number(nuban('057', '600000006')[9]) + 1) % 10);
    expect((await borrower.post(path, { bankCode: '057', accountNumber: badDigit })).body.error).toBe('account_number_invalid');
    expect((await borrower.post(`${path}/00000000-0000-4000-8000-000000000000/activate`)).status).toBe(404);
    expect((await borrower.post(`${path}/not-an-id/activate`)).body.error).toBe('INVALID_ID');
    expect(await db().selectFrom('mandateReplacements').select('id').where('loanId', '=', loan.id).execute()).toHaveLength(0);
  });
});
