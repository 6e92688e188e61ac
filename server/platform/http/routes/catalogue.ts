import { z } from 'zod';
import { getBorrower } from '../../domain/borrowers/borrower';
import { koboToNaira } from '../../domain/money';
import { poolBalances } from '../../domain/pools/pool';
import { PROVIDER_SORT_COLUMNS, listProviders } from '../../domain/providers/provider';
import { defineRoute } from '../route';
import {
  BorrowerSchema,
  CapitalPositionSchema,
  IdParams,
  LoanProductSchema,
  PaginationSchema,
  ProviderDirectoryItemSchema,
  UsageRollupSchema,
  limitParam,
  queryBoolean,
  safeName,
} from '../schemas';

/** Read routes of the foundation: products, borrowers, the provider directory, pools and usage. */
export const catalogueRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/products',
    operationId: 'listProducts',
    tag: 'Products',
    summary: 'List loan products',
    description:
      'Products are defined by an operator (dashboard or `admin product create`); they are read-only over the API. ' +
      'A product an operator adds or changes shows within a few seconds (each process caches the list for `PRODUCT_CACHE_TTL_MS`).',
    access: 'tenant',
    response: { status: 200, description: 'The organisation\'s loan products.', data: z.array(LoanProductSchema) },
    async handle({ auth, platform }) {
      return { message: 'Products retrieved', dataJson: await platform.products.listJson(auth.organisationId) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/products/{id}',
    operationId: 'getProduct',
    tag: 'Products',
    summary: 'Get a loan product',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'The product.', data: LoanProductSchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ auth, params, platform }) {
      return { message: 'Product retrieved', data: await platform.products.get(auth.organisationId, params.id) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/borrowers/{id}',
    operationId: 'getBorrower',
    tag: 'Borrowers',
    summary: 'Get a borrower',
    description: 'Borrowers are created from pushed decisions; there is no route to create one directly.',
    access: 'tenant',
    params: IdParams,
    response: { status: 200, description: 'The borrower.', data: BorrowerSchema },
    errors: ['NOT_FOUND', 'INVALID_ID'],
    async handle({ db, auth, params }) {
      return { message: 'Borrower retrieved', data: await getBorrower(db, auth, params.id) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/providers',
    operationId: 'listProviders',
    tag: 'Providers',
    summary: 'Search the provider directory',
    description:
      'The one cross-tenant read: active patient-serving providers, the same rows for every partner. ' +
      '`receiveTest=true` narrows to providers that receive tests (laboratories), `receiveDrug=true` to those that receive drugs (pharmacies); `false` is accepted and ignored. ' +
      '`name` matches part of the name, `location` part of the state, LGA, city or address (both case-insensitive). ' +
      'Ties in the sort order are broken by id, so pages are stable.',
    access: 'tenant',
    query: z.object({
      receiveTest: queryBoolean.optional(),
      receiveDrug: queryBoolean.optional(),
      name: safeName({ max: 100 }).optional(),
      location: z.string().trim().min(1).max(100).optional(),
      sort_by: z.enum(Object.keys(PROVIDER_SORT_COLUMNS) as [keyof typeof PROVIDER_SORT_COLUMNS]).default('name'),
      sort_order: z.enum(['asc', 'desc']).default('asc'),
      page: z.coerce.number().int().min(1).max(1_000_000).default(1),
      limit: limitParam(20),
    }),
    response: {
      status: 200,
      description: 'One page of providers.',
      paginated: true,
      data: z.object({ pagination: PaginationSchema, providers: z.array(ProviderDirectoryItemSchema) }),
    },
    async handle({ db, query }) {
      const result = await listProviders(db, {
        receiveTest: query.receiveTest,
        receiveDrug: query.receiveDrug,
        name: query.name,
        location: query.location,
        sortBy: query.sort_by,
        sortOrder: query.sort_order,
        page: query.page,
        limit: query.limit,
      });
      const { total, page, limit, hasNext } = result.pagination;
      return { message: 'Providers retrieved', data: result, meta: { total, page, limit, hasNext } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/pools/balance',
    operationId: 'getPoolBalance',
    tag: 'Pools',
    summary: 'Capital position',
    description:
      'Balance of each capital pool of the organisation in the credential\'s mode (test pools hold sandbox money), in kobo, ' +
      'with a display-only naira mirror. A pool can never be overdrawn. Pools are funded by an operator, never over the API.',
    access: 'tenant',
    response: { status: 200, description: 'The capital position.', data: CapitalPositionSchema },
    async handle({ db, auth }) {
      const pools = await poolBalances(db, auth.organisationId, auth.mode);
      const totalBalanceKobo = pools.reduce((sum, p) => sum + p.balanceKobo, 0);
      return {
        message: 'Capital position retrieved',
        data: { pools, totalBalanceKobo, totalBalanceNaira: koboToNaira(totalBalanceKobo) },
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/usage',
    operationId: 'getUsage',
    tag: 'Usage',
    summary: 'API usage per day',
    description:
      'Every authenticated call of the credential\'s mode, per UTC day, oldest first, one entry per day of the window (zeros included). ' +
      'Counted in memory and written in batches, so the newest figures may lag by a few seconds in other processes.',
    access: 'tenant',
    query: z.object({ days: z.coerce.number().int().min(1).max(366).default(30) }),
    response: { status: 200, description: 'Daily rollups.', data: z.array(UsageRollupSchema) },
    async handle({ auth, query, platform }) {
      return { message: 'Usage retrieved', data: await platform.usage.rollups(auth.organisationId, auth.mode, query.days) };
    },
  }),
];
