import http from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddingCors, ORGANISATION_ORIGINS_TTL_MS } from '../../server/checkout/embedding-cors';

/** The organisation-origins cache of the embedding CORS check, on a fake clock and a fake platform. */
const SHOP = 'https://shop.example';
const TOKEN = `cs_test_${'a'.repeat(40)}`;
let now = 1_000_000;
let listed: string[] = [SHOP];
const lookups: string[] = [];
let server: http.Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(
    embeddingCors({
      allowedOrigins: new Set(),
      organisationOrigins: true,
      now: () => now,
      settings: async (token) => {
        lookups.push(token);
        return { status: 200, body: { status: 200, success: true, message: 'ok', data: { allowedOrigins: listed, returnUrl: null } } };
      },
    }),
  );
  app.get('/state', (_req, res) => void res.json({ ok: true }));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const call = async (origin: string) => (await fetch(`${base}/state`, { headers: { origin, authorization: `CheckoutSession ${TOKEN}` } })).status;

describe('the organisation origins cache', () => {
  it('trusts an allowed origin for a minute, then looks again (a removed origin is refused within a minute); a refusal is looked at again after five seconds', async () => {
    expect(await call(SHOP)).toBe(200);
    expect(lookups).toHaveLength(1);
    now += ORGANISATION_ORIGINS_TTL_MS - 1;
    expect(await call(SHOP)).toBe(200);
    expect(lookups).toHaveLength(1);

    listed = [];
    now += 2;
    expect(await call(SHOP)).toBe(403);
    expect(lookups).toHaveLength(2);
    // A refusal within five seconds costs no lookup, even after the organisation adds the origin…
    listed = [SHOP];
    now += 4_000;
    expect(await call(SHOP)).toBe(403);
    expect(lookups).toHaveLength(2);
    // …after that, the next call looks again and gets in.
    now += 1_001;
    expect(await call(SHOP)).toBe(200);
    expect(lookups).toHaveLength(3);
    // Each lookup asks with the session's own token (the platform answers for that session's organisation).
    expect(lookups.every((t) => t === TOKEN)).toBe(true);
  });
});
