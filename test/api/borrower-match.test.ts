import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, type LendingTenant } from '../support/lifecycle';
import { latestOtp, sessionClient, tokenOf, uniquePhone } from '../support/checkout';

/**
 * A push whose BVN the organisation knows already: the answer says how the pushed borrower compares with the one on
 * record (`borrowerMatch`), a different name is refused, and a different phone is where this push's checkout texts
 * its code — never the older number without saying so — becoming the phone on record once the borrower verifies it.
 */
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
const newBvn = () => String(10_000_000_000 + crypto.randomInt(0, 89_999_999_999)).slice(0, 11);

function push(bvn: string, borrower: { firstName: string; lastName: string; phone: string }, assessmentId = `asm_${crypto.randomBytes(5).toString('hex')}`) {
  const body = pushBody({ bvn, assessmentId, phone: borrower.phone });
  return api().post('/v1/preapprovals', { ...body, borrower: { ...body.borrower, firstName: borrower.firstName, lastName: borrower.lastName } });
}

const sandboxTexts = async (phone: string) => (await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.data.messages as Array<{ body: string }>;

describe('a push with a BVN on record', () => {
  it('a first push answers borrower new, nothing differs', async () => {
    const pushed = await push(newBvn(), { firstName: 'Ada', lastName: 'Obi', phone: uniquePhone() });
    expect(pushed.status).toBe(202);
    expect(pushed.body.data.borrowerMatch).toEqual({ borrower: 'new', differs: [], codesTo: 'phone_on_record' });
  });

  it('another person’s name with a known BVN is refused with 409 borrower_conflict, and nothing is recorded', async () => {
    const bvn = newBvn();
    const first = await push(bvn, { firstName: 'Ada', lastName: 'Obi', phone: uniquePhone() });
    const before = await app.platform.db.selectFrom('preapprovals').select('id').where('borrowerId', '=', first.body.data.borrowerId).execute();
    const other = await push(bvn, { firstName: 'Amaka', lastName: 'Okafor', phone: uniquePhone() });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ error: 'borrower_conflict', data: { differs: ['name', 'phone'], borrowerId: first.body.data.borrowerId } });
    const after = await app.platform.db.selectFrom('preapprovals').select('id').where('borrowerId', '=', first.body.data.borrowerId).execute();
    expect(after).toHaveLength(before.length);
  });

  it('a different phone: the answer says so, the code goes to the pushed phone only, and once verified it is the phone on record', async () => {
    const bvn = newBvn();
    const oldPhone = uniquePhone();
    const newPhone = uniquePhone();
    const first = await push(bvn, { firstName: 'Ada', lastName: 'Obi', phone: oldPhone });
    const assessmentId = `asm_${crypto.randomBytes(5).toString('hex')}`;
    const second = await push(bvn, { firstName: 'ADA', lastName: 'obi', phone: newPhone }, assessmentId);
    expect(second.status).toBe(202);
    expect(second.body.data.borrowerId).toBe(first.body.data.borrowerId);
    expect(second.body.data.borrowerMatch).toEqual({ borrower: 'existing', differs: ['phone'], codesTo: 'pushed_phone' });
    // A replay answers the same.
    const replay = await push(bvn, { firstName: 'ADA', lastName: 'obi', phone: newPhone }, assessmentId);
    expect(replay.status).toBe(200);
    expect(replay.body.data.borrowerMatch).toEqual(second.body.data.borrowerMatch);
    expect((await api().get(`/v1/preapprovals/${second.body.data.preapprovalId}`)).body.data.borrowerMatch).toEqual(second.body.data.borrowerMatch);

    const issued = await api().post(`/v1/preapprovals/${second.body.data.preapprovalId}/issue-offer`, {});
    const session = sessionClient(app, tokenOf(issued.body.data.applicationUrl));
    expect((await session.get('/v1/checkout/session')).body.data.phoneHint).toBe(`•••• ${newPhone.slice(-4)}`);
    const sent = await session.post('/v1/checkout/otp/send');
    expect(sent.status).toBe(200);
    expect(sent.body.data.sentTo).toBe(`•••• ${newPhone.slice(-4)}`);
    expect(await sandboxTexts(oldPhone)).toEqual([]);
    expect(await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, newPhone) })).toMatchObject({ status: 200 });

    const borrower = await app.platform.db.selectFrom('borrowers').select('phone').where('id', '=', first.body.data.borrowerId).executeTakeFirstOrThrow();
    expect(borrower.phone).toBe(newPhone);
    const kept = await app.platform.db.selectFrom('preapprovals').select('contactPhone').where('id', '=', second.body.data.preapprovalId).executeTakeFirstOrThrow();
    expect(kept.contactPhone).toBeNull();
    // The first push's checkout now texts the newest verified phone too.
    const firstIssued = await api().post(`/v1/preapprovals/${first.body.data.preapprovalId}/issue-offer`, {});
    const firstSession = sessionClient(app, tokenOf(firstIssued.body.data.applicationUrl));
    expect((await firstSession.post('/v1/checkout/otp/send')).body.data.sentTo).toBe(`•••• ${newPhone.slice(-4)}`);
    expect(await sandboxTexts(oldPhone)).toEqual([]);
  });

  it('until the pushed phone is verified, the earlier push’s checkout keeps texting the phone on record', async () => {
    const bvn = newBvn();
    const oldPhone = uniquePhone();
    const first = await push(bvn, { firstName: 'Ngozi', lastName: 'Adeyemi', phone: oldPhone });
    await push(bvn, { firstName: 'Ngozi', lastName: 'Adeyemi', phone: uniquePhone() });
    const issued = await api().post(`/v1/preapprovals/${first.body.data.preapprovalId}/issue-offer`, {});
    const session = sessionClient(app, tokenOf(issued.body.data.applicationUrl));
    expect((await session.post('/v1/checkout/otp/send')).body.data.sentTo).toBe(`•••• ${oldPhone.slice(-4)}`);
  });

  it('a spelling or form of the name on record is accepted and reported; the name on record stays', async () => {
    const bvn = newBvn();
    const phone = uniquePhone();
    const first = await push(bvn, { firstName: 'Ngozi', lastName: 'Adeyemi', phone });
    const variant = await push(bvn, { firstName: 'Ngozi Chioma', lastName: 'Adeyemi', phone });
    expect(variant.status).toBe(202);
    expect(variant.body.data.borrowerMatch).toEqual({ borrower: 'existing', differs: ['name'], codesTo: 'phone_on_record' });
    const borrower = await app.platform.db.selectFrom('borrowers').select(['firstName', 'lastName']).where('id', '=', first.body.data.borrowerId).executeTakeFirstOrThrow();
    expect(borrower).toEqual({ firstName: 'Ngozi', lastName: 'Adeyemi' });
  });
});
