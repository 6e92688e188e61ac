import { createProduct, type ProductInput } from '../../server/platform/domain/products/product';
import { fundPool } from '../../server/platform/domain/pools/pool';
import { configureOrganisation } from '../../server/platform/domain/organisations/organisation';
import { createOperatorLoan, type OperatorLoanInput } from '../../server/platform/domain/loans/create-operator-loan';
import { client, createTenant, pushBody, type Tenant, type TestApp } from './harness';
import { productInput } from './factories';

export interface LendingTenant extends Tenant {
  pushedProductId: string;
}

/** A tenant ready to lend in test mode: a partner_pushed default product, a tenant cap, a funded pool. */
export async function lendingTenant(
  app: TestApp,
  options: { poolKobo?: number; product?: Partial<ProductInput>; capBps?: number | null; autoIssue?: boolean } = {},
): Promise<LendingTenant> {
  const tenant = await createTenant(app);
  const now = new Date();
  const product = await createProduct(app.platform.db, {
    organisationId: tenant.organisationId,
    input: productInput({ approvalMode: 'partner_pushed', insuranceMode: 'automatic', insurancePremiumBps: 50, processingFeeBps: 100, ...options.product }),
    now,
  });
  await configureOrganisation(
    app.platform.db,
    tenant.organisationId,
    { defaultPreapprovalProductId: product.id, maxInterestRateBps: options.capBps === undefined ? 6000 : options.capBps, autoIssueOffers: options.autoIssue ?? false },
    now,
  );
  app.platform.authenticator.invalidate();
  await app.platform.db.transaction().execute((trx) =>
    fundPool(trx, { organisationId: tenant.organisationId, mode: 'test', code: 'MAIN', amountKobo: options.poolKobo ?? 1_000_000_000, now }),
  );
  return { ...tenant, pushedProductId: product.id };
}

/** Pushes a decision and issues its offer; returns the loan (data of the issue-offer answer). */
export async function offeredLoan(app: TestApp, tenant: Tenant, push: Parameters<typeof pushBody>[0] = {}) {
  const api = client(app, tenant.test);
  const pushed = await api.post('/v1/preapprovals', pushBody(push));
  if (pushed.status !== 202) throw new Error(`push failed: ${JSON.stringify(pushed.body)}`);
  const issued = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
  if (issued.status !== 200) throw new Error(`issue-offer failed: ${JSON.stringify(issued.body)}`);
  return { loan: issued.body.data, preapprovalId: pushed.body.data.preapprovalId as string };
}

export function consentFor(documentReference: string, overrides: Record<string, unknown> = {}) {
  return {
    signatureFullName: 'Ada Obi',
    ipAddress: '102.89.34.7',
    userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36',
    signedAt: new Date().toISOString(),
    documentReference,
    ...overrides,
  };
}

export async function acceptedLoan(app: TestApp, tenant: Tenant, push: Parameters<typeof pushBody>[0] = {}) {
  const { loan, preapprovalId } = await offeredLoan(app, tenant, push);
  const res = await client(app, tenant.test).post(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(loan.documentReference) });
  if (res.status !== 200) throw new Error(`accept failed: ${JSON.stringify(res.body)}`);
  return { loan: res.body.data, preapprovalId };
}

/**
 * A disbursed loan with an active sandbox mandate and a pending mandate repayment of its first instalment, not yet
 * charged (the collector's next run sends it).
 */
export async function pendingMandateRepayment(app: TestApp, tenant: Tenant) {
  const api = client(app, tenant.test);
  const { loan } = await acceptedLoan(app, tenant, { amount: '100000' });
  const mandate = (await api.post(`/v1/loans/${loan.id}/mandates`, { email: 'ada@example.com' })).body.data;
  const activated = (await api.post(`/v1/test/mandates/${mandate.id}/simulate-activation`)).body.data;
  if (activated.status !== 'active') throw new Error(`mandate not active: ${JSON.stringify(activated)}`);
  const disbursed = await api.post(`/v1/loans/${loan.id}/disburse`);
  if (disbursed.status !== 200) throw new Error(`disburse failed: ${JSON.stringify(disbursed.body)}`);
  const schedule = (await api.get(`/v1/loans/${loan.id}/schedule`)).body.data;
  const repayment = (await api.post(`/v1/loans/${loan.id}/repayments`, { method: 'mandate', amountKobo: schedule[0].totalKobo })).body.data;
  return { loanId: loan.id as string, repaymentId: repayment.id as string, amountKobo: schedule[0].totalKobo as number };
}

/** A loan originated elsewhere on a tenant-approval product (the `admin loan create` path). */
export async function operatorLoan(app: TestApp, tenant: Tenant, product: Partial<ProductInput>, input: Partial<OperatorLoanInput> = {}) {
  const now = new Date();
  const created = await createProduct(app.platform.db, {
    organisationId: tenant.organisationId,
    input: productInput({ approvalMode: 'tenant', ...product }),
    now,
  });
  const scope = { organisationId: tenant.organisationId, mode: 'test' as const };
  const row = await app.platform.db.transaction().execute((trx) =>
    createOperatorLoan(
      { db: trx, platform: app.platform, now, scope, actor: 'test' },
      { borrower: { firstName: 'Tunde', lastName: 'Bello', phone: '+2348030000000' }, productId: created.id, amountKobo: 5_000_000, tenorDays: 60, ...input },
    ),
  );
  return row;
}

export async function eventsOf(app: TestApp, organisationId: string) {
  const rows = await app.platform.db.selectFrom('events').select(['name', 'payload']).where('organisationId', '=', organisationId).orderBy('id').execute();
  return rows.map((r) => ({ name: r.name, data: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, any> }));
}
