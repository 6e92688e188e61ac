import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { createProduct, updateProduct } from '../../server/platform/domain/products/product';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { productInput } from '../support/factories';

let app: TestApp;
let tenant: Tenant;
const clock = new FakeClock(new Date());

beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await createTenant(app);
});
afterAll(() => app.stop());

describe('products', () => {
  it('lists and gets the organisation\'s products with every LoanProduct field', async () => {
    const product = await createProduct(app.platform.db, {
      organisationId: tenant.organisationId,
      input: productInput({ code: 'LIST_ME', interestModel: 'reducing_balance', insuranceMode: 'automatic', insurancePremiumBps: 75 }),
      now: clock.now(),
    });
    const api = client(app, tenant.test);
    const list = await api.get('/v1/products');
    expect(list.body.data).toEqual([expect.objectContaining({ id: product.id, code: 'LIST_ME', interestModel: 'reducing_balance' })]);
    const one = await api.get(`/v1/products/${product.id}`);
    expect(one.body.data).toEqual(list.body.data[0]);
    expect(Object.keys(one.body.data).sort()).toEqual(
      [
        'id', 'organisationId', 'code', 'name', 'description', 'currency', 'isActive', 'kycTier', 'approvalMode', 'interestModel',
        'interestRateBps', 'lateFeeBps', 'processingFeeBps', 'processingFeeFlatKobo', 'minAmountKobo', 'maxAmountKobo',
        'minTenorDays', 'maxTenorDays', 'repaymentFrequency', 'insuranceMode', 'insurancePremiumBearer', 'insurancePremiumBps',
        'settlementDestination', 'settlementCatalogEnabled', 'capitalPoolCode', 'recoveryEnabled', 'recoveryPolicyId', 'recoveryDefaultAfterDaysOverdue', 'guarantorsRequired', 'rateDisplay', 'nameMismatchPolicy', 'earlySettlement', 'reminders', 'createdAt', 'updatedAt',
      ].sort(),
    );
    expect(one.body.data.isActive).toBe(true);
    // Reminders by text: on, three days before each debit, unless the product says otherwise.
    expect(one.body.data.reminders).toEqual({ enabled: true, leadDays: 3 });
  });

  it('shows a product an operator adds once the cache lifetime has passed, not before', async () => {
    const api = client(app, tenant.live);
    const before = (await api.get('/v1/products')).body.data.length;
    await createProduct(app.platform.db, { organisationId: tenant.organisationId, input: productInput(), now: clock.now() });
    expect((await api.get('/v1/products')).body.data).toHaveLength(before);
    clock.advance(app.platform.config.PRODUCT_CACHE_TTL_MS + 1);
    expect((await api.get('/v1/products')).body.data).toHaveLength(before + 1);
  });

  it('takes a reminders rule of 0 to 14 days, on or off; a lead outside it is refused under reminders.leadDays and changes nothing', async () => {
    const product = await createProduct(app.platform.db, { organisationId: tenant.organisationId, input: productInput({ code: 'REMIND_OFF', reminders: { enabled: false, leadDays: 0 } }), now: clock.now() });
    expect(product.reminders).toEqual({ enabled: false, leadDays: 0 });
    const refused = updateProduct(app.platform.db, { organisationId: tenant.organisationId, id: product.id, changes: { reminders: { enabled: true, leadDays: 15 } }, now: clock.now() });
    await expect(refused).rejects.toMatchObject({ code: 'invalid_request', data: { field: 'reminders.leadDays' } });
    const { after } = await updateProduct(app.platform.db, { organisationId: tenant.organisationId, id: product.id, changes: { reminders: { enabled: true, leadDays: 14 } }, now: clock.now() });
    expect(after.reminders).toEqual({ enabled: true, leadDays: 14 });
  });

  it('answers an unknown product id with 404', async () => {
    const res = await client(app, tenant.test).get('/v1/products/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
  });
});
