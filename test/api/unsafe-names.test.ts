import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperatorLoanInputSchema } from '../../server/platform/domain/loans/create-operator-loan';
import { ProductInputSchema } from '../../server/platform/domain/products/product';
import { tokenOf, uniquePhone } from '../support/checkout';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan } from '../support/lifecycle';
import { validBodies } from '../support/valid-bodies';
import { bookAppointment } from '../support/appointments';
import { openMeetingLink } from '../support/meeting';

/**
 * Names refuse control characters (NUL reaches PostgreSQL, which rejects it in text) and bidi
 * formatting characters (they make a name in an SMS or a PDF read differently than it is stored):
 * 400 `invalid_request` naming the field, nothing stored. One field of every name family per route.
 */
let app: TestApp;
let tenant: Tenant;
let financingTenant: Tenant;
let sessionHeaders: Record<string, string>;

beforeAll(async () => {
  app = await startTestApp();
  tenant = await createTenant(app);
  financingTenant = await createTenant(app, { loanTenant: false });
  const lender = await lendingTenant(app);
  const { loan } = await offeredLoan(app, lender, { phone: uniquePhone() });
  sessionHeaders = { authorization: `CheckoutSession ${tokenOf(loan.applicationUrl)}` };
});
afterAll(() => app.stop());

const UNSAFE = {
  NUL: 'Ada\u0000Obi',
  'a C1 control (U+0085)': 'Ada\u0085Obi',
  'U+202E (right-to-left override)': 'Ada\u202eiboO',
  'U+2066 (left-to-right isolate)': '\u2066Ada Obi',
  'U+200F (right-to-left mark)': 'Ada\u200fObi',
  'U+061C (Arabic letter mark)': 'Ada\u061cObi',
  'a tab at the edge': '\tAda Obi',
};

/** [route, field path in the body, who calls it]. */
const FIELDS: Array<[string, string, 'tenant' | 'financing' | 'session']> = [
  ['/v1/preapprovals', 'borrower.firstName', 'tenant'],
  ['/v1/preapprovals', 'borrower.lastName', 'tenant'],
  ['/api/v1/appointment/create', 'participants.0.firstName', 'tenant'],
  ['/api/v1/appointment/create', 'participants.1.lastName', 'tenant'],
  ['/v1/loans/{id}/accept-terms', 'consent.signatureFullName', 'tenant'],
  ['/v1/loans/{id}/decline-terms', 'consent.signatureFullName', 'tenant'],
  ['/v1/payouts', 'accountName', 'tenant'],
  ['/v1/payouts', 'bankName', 'tenant'],
  ['/api/v1/sdk/loans/initiate', 'firstName', 'financing'],
  ['/api/v1/sdk/loans/{loanId}/mandate', 'accountName', 'financing'],
  ['/v1/checkout/accept', 'signatureFullName', 'session'],
  ['/v1/checkout/decline', 'signatureFullName', 'session'],
  ['/v1/checkout/guarantors', 'fullName', 'session'],
  ['/v1/checkout/financing/identity', 'fullName', 'session'],
];

function withField(body: Record<string, unknown>, path: string, value: string): Record<string, unknown> {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let at: any = copy;
  for (const key of keys.slice(0, -1)) at = at[key];
  at[keys.at(-1)!] = value;
  return copy;
}

async function rowCounts() {
  const tables = ['preapprovals', 'borrowers', 'events', 'loans', 'loanConsents', 'payoutRequests', 'loanGuarantors', 'appointments', 'users'] as const;
  const counts: Record<string, number> = {};
  for (const t of tables) counts[t] = (await app.platform.db.selectFrom(t).select('id').execute()).length;
  return counts;
}

describe('names with control or bidi characters', () => {
  for (const [route, field, caller] of FIELDS) {
    it.each(Object.entries(UNSAFE))(`POST ${route} with ${field} holding %s answers 400 naming the field and stores nothing`, async (_what, value) => {
      const path = route.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
      const body = withField(validBodies[route]!()!, field, value);
      const before = await rowCounts();
      const res =
        caller === 'session'
          ? await client(app).post(path, body, sessionHeaders)
          : await client(app, caller === 'financing' ? financingTenant.test : tenant.test).post(path, body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(`body.${field}`);
      expect(JSON.stringify(res.body)).toMatch(/control characters or bidirectional/);
      expect(await rowCounts()).toEqual(before);
    });
  }

  it('the doctor\'s signature on consultation notes (it is printed on the prescription PDF) refuses them too', async () => {
    const booked = await bookAppointment(app, tenant.test, { startInMs: 5 * 60_000 });
    const cookie = (await openMeetingLink(app, booked.participants[1]!.participantMeetingLink)).cookie!;
    const note = { symptomsandIllnesses: 'Fever', diagnosis: 'Malaria', treatmentandRecommendation: 'Rest', doctorSignature: 'Dr T.\u202eBakare' };
    const res = await fetch(`${app.url}/meet/api/notes`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(note) });
    const body = (await res.json()) as any;
    expect(res.status).toBe(400);
    expect(body.message).toMatch(/^body\.doctorSignature: must not contain control characters/);
    expect((await fetch(`${app.url}/meet/api/notes`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ ...note, doctorSignature: 'Dr T. Bakare' }) })).status).toBe(201);
    // Only the valid note was stored.
    const read = await client(app, tenant.test).get(`/api/v1/appointment?appointmentId=${booked.appointmentId}`);
    expect(read.body.doctorNotes.map((n: any) => n.doctorSignature)).toEqual(['Dr T. Bakare']);
  });

  it('a provider search by a name with NUL answers 400 naming the parameter (not a database error)', async () => {
    const res = await client(app, tenant.test).get('/v1/providers?name=Ada%00Obi');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(res.body.message).toMatch(/^query\.name: /);
  });

  it('names with accents, apostrophes, hyphens and non-Latin scripts are still accepted', async () => {
    const body = withField(withField(validBodies['/v1/preapprovals']!()!, 'borrower.firstName', 'Ọláolúwa'), 'borrower.lastName', "O'Neil-Adébáyọ̀ محمد");
    const res = await client(app, tenant.test).post('/v1/preapprovals', body);
    expect(res.status).toBe(202);
  });

  it('operator-defined product names and operator loans refuse them too', () => {
    const product = ProductInputSchema.safeParse({ code: 'P1', name: 'Cash\u202eloan', kycTier: 'none', approvalMode: 'manual', interestModel: 'flat', interestRateBps: 100 });
    expect(product.success).toBe(false);
    expect(product.error!.issues.map((i) => i.path.join('.'))).toContain('name');
    const loan = OperatorLoanInputSchema.safeParse({
      borrower: { firstName: 'Ada\u0000', lastName: 'Obi', phone: '08031234567' },
      productId: '00000000-0000-4000-8000-000000000000',
      amountKobo: 100,
      tenorDays: 30,
    });
    expect(loan.success).toBe(false);
    expect(loan.error!.issues[0]!.path.join('.')).toBe('borrower.firstName');
  });
});
