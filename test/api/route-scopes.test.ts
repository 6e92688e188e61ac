import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { openDatabase } from '../../server/platform/db/database';
import { migrateToLatest } from '../../server/platform/db/migrate';
import { createApiKey, SECRET_HASH_PURPOSE } from '../../server/platform/domain/api-keys/api-key';
import { createOrganisation } from '../../server/platform/domain/organisations/organisation';
import { newId } from '../../server/platform/domain/ids';
import { Secrets } from '../../server/platform/domain/secrets';
import { Authenticator } from '../../server/platform/http/authenticate';
import { checkScope, requiredScope } from '../../server/platform/http/route-scopes';
import { apiRoutes } from '../../server/platform/http/routes';
import { buildOpenApiDocument } from '../../server/platform/http/openapi';
import { API_SCOPES, type ApiScope } from '../../server/shared/api-key-scopes';
import { client, freshDatabaseEnv, startTestApp, TEST_MASTER_KEY, type KeyPair, type TestApp } from '../support/harness';
import { lendingTenant, type LendingTenant } from '../support/lifecycle';

/** Routes no API key reaches (a checkout or borrower session's own), so they carry no key scope. */
const sessionRoute = (access: string) => access === 'checkoutSession' || access === 'expiredCheckoutSession' || access === 'borrowerSession';
const keyRoutes = apiRoutes.filter((route) => !sessionRoute(route.access));
/** A path with every parameter filled (the scope is checked before the path is parsed, so any value does). */
const concrete = (p: string) => p.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');

describe('every partner route has a scope', () => {
  it('each API-key route (/v1 and /api/v1) needs one scope of the list; GET reads, everything else writes; checkout- and borrower-session routes need none', () => {
    expect(keyRoutes.length).toBeGreaterThan(50);
    for (const route of apiRoutes) {
      const scope = requiredScope(route);
      if (sessionRoute(route.access)) {
        expect(scope, `${route.method} ${route.path}`).toBeUndefined();
        continue;
      }
      expect(API_SCOPES, `${route.method} ${route.path} has no scope`).toContain(scope);
      if (!route.scope) expect(scope!.endsWith(route.method === 'get' ? ':read' : ':write'), `${route.method} ${route.path}: ${scope}`).toBe(true);
    }
  });

  it('the API document names each operation\'s scope (x-required-scope, the description) and its 403 insufficient_scope', () => {
    const document = buildOpenApiDocument(apiRoutes, 'https://api.example.com') as any;
    for (const route of apiRoutes) {
      const operation = document.paths[route.path][route.method];
      const scope = requiredScope(route);
      expect(operation['x-required-scope'], `${route.method} ${route.path}`).toBe(scope);
      if (!scope) continue;
      expect(operation.description, `${route.method} ${route.path}`).toContain(`**Scope:** \`${scope}\``);
      expect(operation.responses['403'], `${route.method} ${route.path}`).toBeDefined();
    }
    expect(JSON.stringify(document)).toContain('"error":"insufficient_scope"');
  });

  it('a route outside every area has no scope, and the app refuses to mount it', async () => {
    const stray = { ...keyRoutes[0]!, path: '/v1/brand-new-things', operationId: 'brandNew' };
    expect(requiredScope(stray)).toBeUndefined();
    const { mountRoutes } = await import('../../server/platform/http/route');
    const express = (await import('express')).default;
    expect(() => mountRoutes(express.Router(), '/v1', [stray], {} as never)).toThrow(/no API-key scope/);
  });

  it('the areas fall where the documented rule puts them', () => {
    const scopeOf = (method: string, p: string) => requiredScope(apiRoutes.find((r) => r.method === method && r.path === p)!);
    expect(scopeOf('post', '/v1/loans/{id}/cancel')).toBe('loans:write');
    expect(scopeOf('post', '/v1/loans/{id}/checkout-sessions')).toBe('loans:write');
    expect(scopeOf('post', '/v1/loans/{id}/mandates')).toBe('mandates:write');
    expect(scopeOf('get', '/v1/loans/{id}/repayments')).toBe('repayments:read');
    expect(scopeOf('post', '/v1/test/mandates/{id}/simulate-activation')).toBe('mandates:write');
    expect(scopeOf('get', '/v1/pools/balance')).toBe('payouts:read');
    expect(scopeOf('post', '/v1/events/{id}/redeliver')).toBe('events:write');
    expect(scopeOf('post', '/api/v1/sdk/loans/initiate')).toBe('financing:write');
    expect(scopeOf('post', '/api/v1/sdk/webhook-endpoints')).toBe('webhooks:write');
    expect(scopeOf('put', '/api/v1/appointment/cancel')).toBe('appointments:write');
  });

  it('the scope check reads only what authentication holds: a full-access key passes, a restricted one needs the scope in its reach', () => {
    const auth = { scopes: new Set<ApiScope>(['loans:read']) } as never;
    expect(() => checkScope('loans:read', auth)).not.toThrow();
    expect(() => checkScope('loans:write', auth)).toThrow(/loans:write/);
    expect(() => checkScope('loans:write', {} as never)).not.toThrow();
  });
});

describe('every route refuses a key without its scope, over HTTP', { timeout: 120_000 }, () => {
  let app: TestApp;
  let tenant: LendingTenant;
  const keys = new Map<string, KeyPair>();
  beforeAll(async () => {
    app = await startTestApp();
    tenant = await lendingTenant(app);
  });
  afterAll(() => app?.stop());

  /** A test key of the tenant with exactly `scopes`, made once per list. */
  async function keyWith(scopes: ApiScope[]): Promise<KeyPair> {
    const name = scopes.join(' ');
    let key = keys.get(name);
    if (!key) {
      key = await createApiKey(app.platform.db, app.platform.secrets, { organisationId: tenant.organisationId, mode: 'test', now: new Date(), scopes });
      keys.set(name, key);
    }
    return key;
  }

  it('a key with every scope but the route\'s answers 403 insufficient_scope naming it; a key with only that scope gets past the check', async () => {
    for (const route of keyRoutes) {
      const needed = requiredScope(route)!;
      const area = needed.split(':')[0];
      // Without the scope: a read route loses the whole area (write would include it), a write route only the write.
      const others = API_SCOPES.filter((s) => (needed.endsWith(':read') ? !s.startsWith(`${area}:`) : s !== needed));
      const refused = await client(app, await keyWith(others)).call(route.method.toUpperCase(), concrete(route.path));
      expect(refused.status, `${route.method} ${route.path}`).toBe(403);
      expect(refused.body, `${route.method} ${route.path}`).toMatchObject({ error: 'insufficient_scope', data: { requiredScope: needed } });

      const allowed = await client(app, await keyWith([needed])).call(route.method.toUpperCase(), concrete(route.path));
      expect(allowed.body?.error, `${route.method} ${route.path}`).not.toBe('insufficient_scope');
    }
  });
});

describe('keys made before scopes existed', () => {
  it('migration 0042 leaves every existing key with full access', async () => {
    const database = await freshDatabaseEnv();
    const handle = openDatabase({ databaseUrl: database.env.DATABASE_URL, sqliteFile: path.join(database.dataDir, 'old.sqlite'), pgSchema: database.pgSchema });
    try {
      await migrateToLatest(handle, database.pgSchema, '0041-account-gates');
      const now = new Date();
      const org = await createOrganisation(handle.db, { name: 'Old Lender', now });
      const secrets = new Secrets(TEST_MASTER_KEY);
      const publicKey = `pk_test_${'A'.repeat(24)}`;
      const secretKey = `sk_test_${'B'.repeat(40)}`;
      await sql`insert into api_keys (id, organisation_id, mode, public_key, secret_hash, secret_last4, revoked_at, created_at)
        values (${newId()}, ${org.id}, 'test', ${publicKey}, ${secrets.hmac(SECRET_HASH_PURPOSE, secretKey)}, ${secretKey.slice(-4)}, ${null}, ${now.toISOString()})`.execute(handle.db);

      await migrateToLatest(handle, database.pgSchema);

      const row = await handle.db.selectFrom('apiKeys').select('scopes').where('publicKey', '=', publicKey).executeTakeFirstOrThrow();
      expect(row.scopes).toBeNull();
      const auth = await new Authenticator(handle.db, secrets, new FakeClock(now.toISOString()), 0).authenticate(publicKey, secretKey);
      expect(auth.scopes).toBeUndefined();
      for (const scope of API_SCOPES) expect(() => checkScope(scope, auth)).not.toThrow();
    } finally {
      await handle.close();
      await database.drop();
    }
  });
});
