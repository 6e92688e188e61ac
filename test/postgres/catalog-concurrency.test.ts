import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAccount, accountBalance } from '../../server/platform/domain/ledger/ledger';
import { createProvider } from '../../server/platform/domain/providers/provider';
import { client, startSecondInstance, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, type LendingTenant } from '../support/lifecycle';
import { verifiedSession } from '../support/checkout';

/**
 * PostgreSQL only: a borrower changing the merchant while the partner disburses, on two processes.
 * Whatever wins, the merchant recorded on the loan is the one whose wallet was paid, and a change
 * that answers 200 is never lost.
 */
let app: TestApp;
let second: { url: string; stop(): Promise<void> };
let lender: LendingTenant;
const env = { DATABASE_POOL_SIZE: '20', RATE_LIMIT_WRITES: '100000' };
const ids: string[] = [];

beforeAll(async () => {
  app = await startTestApp({ env });
  second = await startSecondInstance(app, env);
  lender = await lendingTenant(app, { product: { settlementDestination: 'merchant_wallet', settlementCatalogEnabled: true } });
  for (const name of ['First Pharmacy', 'Second Pharmacy']) {
    ids.push((await createProvider(app.platform.db, { code: `${name[0]}-${crypto.randomBytes(3).toString('hex')}`, name, providerType: 'pharmacy' }, new Date())).id);
  }
});
afterAll(async () => {
  await second.stop();
  await app.stop();
});

describe('choosing the merchant while the loan is disbursed', () => {
  it('pays the merchant recorded on the loan, every time', async () => {
    const [first, changed] = ids as [string, string];
    for (let round = 0; round < 8; round++) {
      const { session, loan, token } = await verifiedSession(app, lender);
      await session.post('/v1/checkout/merchant', { providerId: first });
      await session.post('/v1/checkout/accept', {
        signatureFullName: 'Ada Obi',
        documentReference: loan.documentReference,
        ipAddress: '102.89.34.7',
        userAgent: 'Mozilla/5.0',
      });
      const [choice, disbursed] = await Promise.all([
        fetch(`${second.url}/v1/checkout/merchant`, {
          method: 'POST',
          headers: { authorization: `CheckoutSession ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ providerId: changed }),
        }).then((r) => r.status),
        client(app, lender.test).post(`/v1/loans/${loan.id}/disburse`).then((r) => r.status),
      ]);
      expect(disbursed).toBe(200);
      expect([200, 409]).toContain(choice);
      const row = await app.platform.db.selectFrom('loans').select('settlementProviderId').where('id', '=', loan.id).executeTakeFirstOrThrow();
      expect(row.settlementProviderId).toBe(choice === 200 ? changed : first);
      const postings = await app.platform.db
        .selectFrom('ledgerPostings')
        .innerJoin('ledgerAccounts', 'ledgerAccounts.id', 'ledgerPostings.accountId')
        .select(['ledgerAccounts.code', 'ledgerPostings.amountKobo'])
        .where('ledgerAccounts.kind', '=', 'merchant_wallet')
        .where('ledgerAccounts.organisationId', '=', lender.organisationId)
        .where('ledgerPostings.transactionId', 'in', (eb) => eb.selectFrom('ledgerTransactions').select('id').where('reference', '=', `DSB-${loan.id}`))
        .execute();
      expect(postings).toEqual([{ code: row.settlementProviderId, amountKobo: -loan.principalKobo }]);
    }
    const wallet = await findAccount(app.platform.db, { organisationId: lender.organisationId, mode: 'test', kind: 'merchant_wallet', code: ids[0]! });
    if (wallet) expect(await accountBalance(app.platform.db, wallet.id)).toBeLessThanOrEqual(0);
  }, 120_000);
});
