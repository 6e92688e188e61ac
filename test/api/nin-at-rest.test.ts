import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/platform/db/database';
import { migrateToLatest } from '../../server/platform/db/migrate';
import { hashLegacyNins, ninHash } from '../../server/platform/domain/borrowers/nin';
import { Secrets } from '../../server/platform/domain/secrets';
import { newId } from '../../server/platform/domain/ids';
import { client, freshDatabaseEnv, pushBody, startTestApp, TEST_MASTER_KEY, type TestApp } from '../support/harness';
import { lendingTenant, operatorLoan, type LendingTenant } from '../support/lifecycle';

/** Security finding "NIN is stored in plaintext while BVN is a keyed hash": the NIN rests as a keyed hash only. */
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const uniqueNin = () => String(10_000_000_000 + Math.floor(Math.random() * 89_999_999_999)).slice(0, 11);

describe('a NIN given with KYC', () => {
  it('when a managed-tier KYC carries a NIN, then it is verified and the borrower row holds only its keyed hash', async () => {
    const nin = uniqueNin();
    const loan = await operatorLoan(app, tenant, { kycTier: 'managed' });
    const res = await client(app, tenant.test).post(`/v1/loans/${loan.id}/kyc`, { bvn: '22222222222', nin });
    expect(res.body.data).toEqual({ outcome: 'verified', loanStatus: 'kyc_completed', documents: [{ type: 'bvn', status: 'verified' }, { type: 'nin', status: 'verified' }] });
    const borrower = await app.platform.db.selectFrom('borrowers').selectAll().where('id', '=', loan.borrowerId).executeTakeFirstOrThrow();
    expect(JSON.stringify(borrower)).not.toContain(nin);
    expect(borrower.legacyNin).toBeNull();
    expect(borrower.ninHash).toBe(ninHash(app.platform.secrets, nin));
    const submissions = await app.platform.db.selectFrom('kycSubmissions').selectAll().where('loanId', '=', loan.id).execute();
    expect(JSON.stringify(submissions)).not.toContain(nin);
  });

  it('when a partner pushes a decision with a NIN, then neither the pre-approval (nor its stored payload) nor the borrower holds it in clear', async () => {
    const nin = uniqueNin();
    const body = pushBody();
    (body.decision.metadata as Record<string, unknown>).nin = nin;
    const pushed = await client(app, tenant.test).post('/v1/preapprovals', body);
    expect(pushed.status).toBe(202);
    const row = await app.platform.db.selectFrom('preapprovals').selectAll().where('id', '=', pushed.body.data.preapprovalId).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(nin);
    expect(row.ninHash).toBe(ninHash(app.platform.secrets, nin));
    const borrower = await app.platform.db.selectFrom('borrowers').selectAll().where('id', '=', row.borrowerId).executeTakeFirstOrThrow();
    expect(JSON.stringify(borrower)).not.toContain(nin);
    expect(borrower.ninHash).toBe(row.ninHash);
    // Anything that reads the pre-approval still works.
    const read = await client(app, tenant.test).get(`/v1/preapprovals/${row.id}`);
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain(nin);
  });
});

describe('NINs stored in clear before migration 0027', () => {
  it('migration 0027 moves them aside and strips them from stored push payloads; the start-up step hashes and clears them', async () => {
    const database = await freshDatabaseEnv();
    const handle = openDatabase({ databaseUrl: database.env.DATABASE_URL, sqliteFile: path.join(database.dataDir, 'old.sqlite'), pgSchema: database.pgSchema });
    try {
      // A database as it was before 0027, with a borrower and a push holding a NIN in clear.
      await migrateToLatest(handle, database.pgSchema, '0025-checkout-branding');
      const at = new Date().toISOString();
      const orgId = newId();
      const borrowerId = newId();
      const preapprovalId = newId();
      const nin = uniqueNin();
      const payload = JSON.stringify({ metadata: { source: 'old', nin }, decision: { recommendation: 'APPROVE' } });
      const yes = handle.dialect === 'postgres' ? true : 1;
      await sql`insert into organisations (id, name, loan_tenant, preapproved_lending, preapprovals_enabled, auto_issue_offers, preapproval_ttl_seconds, disabled, created_at, updated_at)
        values (${orgId}, 'Old', ${yes}, ${yes}, ${yes}, ${yes}, 3600, ${handle.dialect === 'postgres' ? false : 0}, ${at}, ${at})`.execute(handle.db);
      await sql`insert into borrowers (id, organisation_id, mode, first_name, last_name, phone, nin, identity_status, created_at, updated_at)
        values (${borrowerId}, ${orgId}, 'test', 'Ada', 'Obi', '+2348012345678', ${nin}, 'unclaimed', ${at}, ${at})`.execute(handle.db);
      const json = handle.dialect === 'postgres' ? sql`cast(${payload} as jsonb)` : sql`${payload}`;
      await sql`insert into preapprovals (id, organisation_id, mode, borrower_id, assessment_id, recommendation, approved_amount_kobo, status, nin, decision_payload, enriched_payload, created_at, updated_at)
        values (${preapprovalId}, ${orgId}, 'test', ${borrowerId}, 'asm_old', 'approve', 100000, 'received', ${nin}, ${json}, ${handle.dialect === 'postgres' ? sql`cast('null' as jsonb)` : 'null'}, ${at}, ${at})`.execute(handle.db);

      await migrateToLatest(handle, database.pgSchema);
      const before = await handle.db.selectFrom('preapprovals').selectAll().where('id', '=', preapprovalId).executeTakeFirstOrThrow();
      expect(before.legacyNin).toBe(nin);
      const stored = typeof before.decisionPayload === 'string' ? JSON.parse(before.decisionPayload) : before.decisionPayload;
      expect(stored).toEqual({ metadata: { source: 'old' }, decision: { recommendation: 'APPROVE' } });

      const secrets = new Secrets(TEST_MASTER_KEY);
      expect(await hashLegacyNins(handle.db, secrets)).toBe(2);
      expect(await hashLegacyNins(handle.db, secrets)).toBe(0);
      const borrower = await handle.db.selectFrom('borrowers').selectAll().where('id', '=', borrowerId).executeTakeFirstOrThrow();
      const preapproval = await handle.db.selectFrom('preapprovals').selectAll().where('id', '=', preapprovalId).executeTakeFirstOrThrow();
      for (const row of [borrower, preapproval]) {
        expect(JSON.stringify(row)).not.toContain(nin);
        expect(row).toMatchObject({ legacyNin: null, ninHash: ninHash(secrets, nin) });
      }
    } finally {
      await handle.close();
      await database.drop();
    }
  });

  it('the platform runs the start-up step: a row left in clear is hashed when a process starts', async () => {
    const nin = uniqueNin();
    const at = new Date().toISOString();
    const id = newId();
    await app.platform.db
      .insertInto('borrowers')
      .values({ id, organisationId: tenant.organisationId, mode: 'test', clientReference: null, firstName: 'Old', lastName: 'Row', phone: '+2348012345670', email: null, bvnHash: null, ninHash: null, legacyNin: nin, identityStatus: 'unclaimed', linkedAt: null, userId: null, createdAt: at, updatedAt: at })
      .execute();
    const { startSecondInstance } = await import('../support/harness');
    const second = await startSecondInstance(app, {});
    await second.stop();
    const row = await app.platform.db.selectFrom('borrowers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ legacyNin: null, ninHash: ninHash(app.platform.secrets, nin) });
  });
});
