import { DEFAULT_CREDIT_POLICY } from './financing/credit-policy';
import { ensureFinancingLender, FINANCING_LENDER_ID, FINANCING_POOL_CODE } from './financing/financing-lender';
import type { Db } from '../db/database';
import { fromJson, toJson } from '../db/database';
import type { Secrets } from './secrets';
import { createApiKey } from './api-keys/api-key';
import { configureOrganisation, createOrganisation } from './organisations/organisation';
import { fundPool, poolBalances } from './pools/pool';
import { createProduct, type ProductInput } from './products/product';
import { createProvider } from './providers/provider';
import { inUnitOfWork } from './unit-of-work';

export const SANDBOX_POOL_CODE = 'MAIN';
const SANDBOX_POOL_FUNDING_KOBO = 50_000_000_00; // ₦50,000,000

export interface BootstrapResult {
  organisationId: string;
  organisationName: string;
  keys: { publicKey: string; secretKey: string; mode: 'test' };
  products: Array<{ id: string; code: string; approvalMode: string; interestModel: string; kycTier: string }>;
  pool: { code: string; balanceKobo: number; balanceNaira: number };
  providers: Array<{ id: string; code: string; name: string }>;
}

interface StoredBootstrap extends Omit<BootstrapResult, 'keys' | 'pool'> {
  publicKey: string;
  sealedSecretKey: string;
}

const STATE_KEY = 'sandbox-bootstrap';
const SEAL_PURPOSE = 'sandbox-bootstrap-secret';

const APPROVAL_MODES = ['tenant', 'auto_credit_score', 'myitura_analyst', 'partner_pushed'] as const;
const INTEREST_MODELS = ['flat', 'reducing_balance'] as const;

/** The economics every sandbox product shares (the sales demo's own product reuses them). */
export const SANDBOX_PRODUCT_TERMS = {
  interestRateBps: 3600,
  lateFeeBps: 500,
  processingFeeBps: 100,
  processingFeeFlatKobo: 50_000,
  minAmountKobo: 500_000,
  maxAmountKobo: 500_000_000,
  minTenorDays: 7,
  maxTenorDays: 365,
  repaymentFrequency: 'monthly',
  insuranceMode: 'automatic',
  insurancePremiumBearer: 'borrower',
  insurancePremiumBps: 50,
  settlementDestination: 'borrower_bank_account',
  capitalPoolCode: SANDBOX_POOL_CODE,
  // Nigerian consumer lenders quote a rate a month: the checkout's offer shows it that way (pricing is unchanged).
  rateDisplay: 'monthly',
} as const satisfies Partial<ProductInput>;

function sandboxProduct(approvalMode: (typeof APPROVAL_MODES)[number], interestModel: (typeof INTEREST_MODELS)[number]): ProductInput {
  const code = `${approvalMode}_${interestModel}`.toUpperCase();
  return {
    code,
    name: `${approvalMode.replace(/_/g, ' ')} · ${interestModel.replace('_', ' ')}`.replace(/^\w/, (c) => c.toUpperCase()),
    description: `Sandbox product: ${approvalMode} approval, ${interestModel} interest.`,
    kycTier: approvalMode === 'partner_pushed' || approvalMode === 'tenant' ? 'delegated' : 'managed',
    approvalMode,
    interestModel,
    ...SANDBOX_PRODUCT_TERMS,
  };
}

const SANDBOX_PROVIDERS = [
  { code: 'LAB-IKEJA', name: 'Ikeja Diagnostics', providerType: 'laboratory', city: 'Ikeja', state: 'Lagos', localGovernment: 'Ikeja', address: '12 Allen Avenue' },
  { code: 'PHARM-WUSE', name: 'Wuse Pharmacy', providerType: 'pharmacy', city: 'Abuja', state: 'FCT', localGovernment: 'Municipal', address: '4 Aminu Kano Crescent' },
  { code: 'LABPH-KANO', name: 'Kano Lab & Pharmacy', providerType: 'laboratory_pharmacy', city: 'Kano', state: 'Kano', localGovernment: 'Nassarawa', address: '21 Murtala Mohammed Way' },
] as const;

/**
 * Creates the sandbox organisation, its test key pair, one product for every approval mode and
 * interest model, a funded capital pool and a few directory providers: once. Later calls return
 * what the first one made (the test secret is kept sealed under the master key for this purpose).
 */
export async function bootstrapSandbox(db: Db, secrets: Secrets, now: Date): Promise<{ created: boolean; result: BootstrapResult }> {
  const existing = await readBootstrap(db, secrets);
  if (existing) return { created: false, result: existing };

  const stored = await inUnitOfWork(db, async (trx) => {
    const org = await createOrganisation(trx, { name: 'Sandbox Lending Partner', now });
    const keys = await createApiKey(trx, secrets, { organisationId: org.id, mode: 'test', now });
    const products = [];
    for (const approvalMode of APPROVAL_MODES) {
      for (const interestModel of INTEREST_MODELS) {
        products.push(await createProduct(trx, { organisationId: org.id, input: sandboxProduct(approvalMode, interestModel), now }));
      }
    }
    const pushed = products.find((p) => p.approvalMode === 'partner_pushed' && p.interestModel === 'flat')!;
    await configureOrganisation(trx, org.id, { defaultPreapprovalProductId: pushed.id, maxInterestRateBps: 6000 }, now);
    await fundPool(trx, { organisationId: org.id, mode: 'test', code: SANDBOX_POOL_CODE, amountKobo: SANDBOX_POOL_FUNDING_KOBO, now });
    // Patient financing lends from the service's own pool: funded for the sandbox, like the partner's.
    await ensureFinancingLender(trx, DEFAULT_CREDIT_POLICY, now);
    await fundPool(trx, { organisationId: FINANCING_LENDER_ID, mode: 'test', code: FINANCING_POOL_CODE, amountKobo: SANDBOX_POOL_FUNDING_KOBO, now });
    const providers = [];
    for (const p of SANDBOX_PROVIDERS) {
      const existingProvider = await trx.selectFrom('providers').select(['id', 'code', 'name']).where('code', '=', p.code).executeTakeFirst();
      providers.push(existingProvider ?? (await createProvider(trx, p, now)));
    }
    const value: StoredBootstrap = {
      organisationId: org.id,
      organisationName: org.name,
      publicKey: keys.publicKey,
      sealedSecretKey: secrets.encrypt(SEAL_PURPOSE, keys.secretKey),
      products: products.map((p) => ({ id: p.id, code: p.code, approvalMode: p.approvalMode, interestModel: p.interestModel, kycTier: p.kycTier })),
      providers: providers.map((p) => ({ id: p.id, code: p.code, name: p.name })),
    };
    // The primary key makes a concurrent second bootstrap fail and roll back instead of duplicating.
    await trx.insertInto('platformState').values({ key: STATE_KEY, value: toJson(value), updatedAt: now.toISOString() }).execute();
    return value;
  });
  return { created: true, result: (await expand(db, secrets, stored))! };
}

export async function readBootstrap(db: Db, secrets: Secrets): Promise<BootstrapResult | undefined> {
  const row = await db.selectFrom('platformState').select('value').where('key', '=', STATE_KEY).executeTakeFirst();
  const stored = row && fromJson<StoredBootstrap>(row.value);
  return stored ? expand(db, secrets, stored) : undefined;
}

async function expand(db: Db, secrets: Secrets, stored: StoredBootstrap): Promise<BootstrapResult> {
  const pools = await poolBalances(db, stored.organisationId, 'test');
  const pool = pools.find((p) => p.code === SANDBOX_POOL_CODE) ?? { code: SANDBOX_POOL_CODE, balanceKobo: 0, balanceNaira: 0 };
  return {
    organisationId: stored.organisationId,
    organisationName: stored.organisationName,
    keys: { mode: 'test', publicKey: stored.publicKey, secretKey: secrets.decrypt(SEAL_PURPOSE, stored.sealedSecretKey) },
    products: stored.products,
    pool: { code: pool.code, balanceKobo: pool.balanceKobo, balanceNaira: pool.balanceNaira },
    providers: stored.providers,
  };
}
