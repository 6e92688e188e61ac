import { z } from 'zod';
import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import type { ProvidersTable } from '../../db/schema';
import { AppError } from '../errors';
import { newId } from '../ids';
import { isUniqueViolation } from '../../db/database';

export const PROVIDER_TYPES = ['laboratory', 'pharmacy', 'laboratory_pharmacy'] as const;

/** Public directory entry: no permissions, contacts or configuration. */
export interface ProviderDirectoryItem {
  id: string;
  code: string;
  name: string;
  slug: string;
  description: string | null;
  providerType: (typeof PROVIDER_TYPES)[number];
  organisationType: string;
  receivesDrugs: boolean;
  receivesTests: boolean;
  isActive: boolean;
  address: string | null;
  city: string | null;
  state: string | null;
  localGovernment: string | null;
  country: string | null;
  organisationLogoUrl: string | null;
  createdAt: string;
}

const text = (max: number) => z.string().trim().min(1).max(max);

export const ProviderInputSchema = z
  .object({
    code: text(50),
    name: text(150),
    slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lower-case words joined by -').max(150).optional(),
    description: z.string().max(2000).nullable().default(null),
    providerType: z.enum(PROVIDER_TYPES),
    organisationType: text(50).default('healthcare_provider'),
    receivesDrugs: z.boolean().optional(),
    receivesTests: z.boolean().optional(),
    isActive: z.boolean().default(true),
    address: text(255).nullable().default(null),
    city: text(100).nullable().default(null),
    state: text(100).nullable().default(null),
    localGovernment: text(100).nullable().default(null),
    country: text(100).nullable().default('Nigeria'),
    organisationLogoUrl: z.url().max(1000).nullable().default(null),
  })
  .strict();

function slugify(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'provider';
}

export function toProvider(row: ProvidersTable): ProviderDirectoryItem {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    slug: row.slug,
    description: row.description,
    providerType: row.providerType as ProviderDirectoryItem['providerType'],
    organisationType: row.organisationType,
    receivesDrugs: Boolean(row.receivesDrugs),
    receivesTests: Boolean(row.receivesTests),
    isActive: Boolean(row.isActive),
    address: row.address,
    city: row.city,
    state: row.state,
    localGovernment: row.localGovernment,
    country: row.country,
    organisationLogoUrl: row.organisationLogoUrl,
    createdAt: row.createdAt,
  };
}

export async function createProvider(db: Executor, input: unknown, now: Date): Promise<ProviderDirectoryItem> {
  const parsed = ProviderInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError('invalid_request', `${issue.path.join('.') || 'input'}: ${issue.message}`);
  }
  const p = parsed.data;
  const at = now.toISOString();
  const row: ProvidersTable = {
    id: newId(),
    ...p,
    slug: p.slug ?? slugify(`${p.name}-${p.code}`),
    // What a provider receives follows from its type unless stated.
    receivesTests: p.receivesTests ?? p.providerType !== 'pharmacy',
    receivesDrugs: p.receivesDrugs ?? p.providerType !== 'laboratory',
    createdAt: at,
    updatedAt: at,
  };
  try {
    await db.insertInto('providers').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS', 'a provider with this code or slug exists already');
    throw error;
  }
  return toProvider(row);
}

export const PROVIDER_SORT_COLUMNS = { name: 'name', code: 'code', created_at: 'createdAt', updated_at: 'updatedAt' } as const;

export interface ProviderQuery {
  receiveTest?: boolean;
  receiveDrug?: boolean;
  name?: string;
  location?: string;
  sortBy: keyof typeof PROVIDER_SORT_COLUMNS;
  sortOrder: 'asc' | 'desc';
  page: number;
  limit: number;
}

const likePattern = (value: string) => `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The cross-tenant directory: active providers only, the same rows for every partner. */
export async function listProviders(db: Executor, query: ProviderQuery) {
  let base = db.selectFrom('providers').where('isActive', '=', true);
  if (query.receiveTest === true) base = base.where('receivesTests', '=', true);
  if (query.receiveDrug === true) base = base.where('receivesDrugs', '=', true);
  if (query.name) {
    const pattern = likePattern(query.name);
    base = base.where(sql<boolean>`lower(name) like ${pattern} escape '\\'`);
  }
  if (query.location) {
    const pattern = likePattern(query.location);
    base = base.where((eb) =>
      eb.or(
        ['state', 'local_government', 'city', 'address'].map((column) =>
          sql<boolean>`lower(coalesce(${sql.ref(column)}, '')) like ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy(PROVIDER_SORT_COLUMNS[query.sortBy], query.sortOrder)
    .orderBy('id', 'asc')
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  const count = Number(total);
  return {
    providers: rows.map(toProvider),
    pagination: {
      total: count,
      page: query.page,
      limit: query.limit,
      totalPages: Math.ceil(count / query.limit),
      hasNext: query.page * query.limit < count,
    },
  };
}
