import type { Db } from '../../db/database';
import type { Clock } from '../ports';
import { notFound } from '../errors';
import { listProducts, type LoanProduct } from './product';

interface CatalogueEntry {
  expiresAt: number;
  products: LoanProduct[];
  byId: Map<string, LoanProduct>;
  /** `products` as JSON, made on first use; the products are never mutated once cached. */
  json?: string;
}

/**
 * Read-through cache of each organisation's products. Products are operator configuration that
 * changes rarely and never through the API, so reads may be up to `ttlMs` old (5 s by default):
 * an operator's new product shows within that time in every process. Writes never read from here.
 */
export class ProductCatalogue {
  private readonly entries = new Map<string, CatalogueEntry>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  async list(organisationId: string): Promise<LoanProduct[]> {
    return (await this.entry(organisationId)).products;
  }

  /** The list as JSON, serialised once per cached list (the list answer's whole `data`). */
  async listJson(organisationId: string): Promise<string> {
    const entry = await this.entry(organisationId);
    return (entry.json ??= JSON.stringify(entry.products));
  }

  async get(organisationId: string, id: string): Promise<LoanProduct> {
    const product = (await this.entry(organisationId)).byId.get(id);
    if (!product) throw notFound('loan product');
    return product;
  }

  invalidate(organisationId?: string): void {
    if (organisationId) this.entries.delete(organisationId);
    else this.entries.clear();
  }

  private async entry(organisationId: string) {
    const now = this.clock.now().getTime();
    const cached = this.entries.get(organisationId);
    if (cached && cached.expiresAt > now) return cached;
    const products = await listProducts(this.db, organisationId);
    const entry: CatalogueEntry = { expiresAt: now + this.ttlMs, products, byId: new Map(products.map((p) => [p.id, p])) };
    if (this.ttlMs > 0) this.entries.set(organisationId, entry);
    return entry;
  }
}
