import { SANDBOX_PRODUCT_TERMS } from '../../server/platform/domain/bootstrap';
import { AppError } from '../../server/platform/domain/errors';
import { createProduct } from '../../server/platform/domain/products/product';
import type { Platform } from '../../server/platform/platform';
import { DEMO_ANNUAL_RATE_BPS } from './scenarios';

/**
 * The managed-tier product the demo books applications on: tenant approval, managed KYC, and the
 * demo's price (4% a month, flat, like the pushed scenarios; the sandbox products' other economics).
 * The sandbox bootstrap's managed products use other approval modes, which no API route approves.
 * Created on first use in the sandbox organisation (operator configuration, as `admin product
 * create` would do), found by its code afterwards. The code names the terms: a sandbox that holds
 * the earlier product (36% a year, reducing balance) gets this one beside it.
 */
export const MANAGED_PRODUCT_CODE = 'DEMO_TENANT_MANAGED_4PM_FLAT';

const productIds = new Map<string, string>();

export async function ensureManagedProduct(platform: Pick<Platform, 'db' | 'clock' | 'products'>, organisationId: string): Promise<string> {
  const known = productIds.get(organisationId);
  if (known) return known;
  const find = () =>
    platform.db.selectFrom('loanProducts').select('id').where('organisationId', '=', organisationId).where('code', '=', MANAGED_PRODUCT_CODE).executeTakeFirst();
  let product = await find();
  if (!product) {
    try {
      product = await createProduct(platform.db, {
        organisationId,
        now: platform.clock.now(),
        input: {
          code: MANAGED_PRODUCT_CODE,
          name: 'Demo · managed tier, lender approval',
          description: 'Sales demo: the platform runs KYC (BVN) and the lender approves.',
          kycTier: 'managed',
          approvalMode: 'tenant',
          ...SANDBOX_PRODUCT_TERMS,
          interestModel: 'flat',
          interestRateBps: DEMO_ANNUAL_RATE_BPS,
        },
      });
    } catch (error) {
      // Another process made it first.
      if (!(error instanceof AppError && error.code === 'ALREADY_EXISTS')) throw error;
      product = await find();
    }
    // The API's product reads (GET /v1/products/{id}, which the run view makes) go through the catalogue's cache.
    platform.products.invalidate(organisationId);
  }
  productIds.set(organisationId, product!.id);
  return product!.id;
}
