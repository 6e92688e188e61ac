import path from 'node:path';
import { expect } from 'vitest';
import { readSandboxInbox } from '../../server/integrations/mailer';
import type { TestApp } from './harness';

export const GOOD_PASSWORD = 'plum orchard under winter light';
let counter = 0;
export const uniqueEmail = (tag = 'owner') => `${tag}-${Date.now().toString(36)}-${(counter += 1)}@Clinic.example`;

export interface DashboardClient {
  cookie?: string;
  csrf?: string;
  /** Sent as `X-Dashboard-Mode` on every request when set. */
  mode?: 'test' | 'live';
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; json: any; headers: Headers }>;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; json: any; headers: Headers }>;
  /** Any method (PATCH, DELETE, PUT…) with a JSON body, cookie, CSRF token and mode. */
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: any; headers: Headers; text: string }>;
}

/** A browser's worth of state: keeps the session cookie and the CSRF token it is given. */
export function dashboardClient(app: TestApp): DashboardClient {
  const client: DashboardClient = {
    async post(p, body, headers = {}) {
      const res = await fetch(`${app.url}/dashboard/api${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(client.cookie ? { cookie: client.cookie } : {}), ...(client.csrf ? { 'x-csrf-token': client.csrf } : {}), ...(client.mode ? { 'x-dashboard-mode': client.mode } : {}), ...headers },
        body: JSON.stringify(body),
      });
      const setCookie = res.headers.get('set-cookie');
      if (setCookie?.startsWith('dashboard_session=')) {
        const value = setCookie.split(';')[0]!;
        client.cookie = value === 'dashboard_session=' ? undefined : value;
      }
      return { status: res.status, json: await res.json(), headers: res.headers };
    },
    async get(p, headers = {}) {
      const res = await fetch(`${app.url}/dashboard/api${p}`, { headers: { ...(client.cookie ? { cookie: client.cookie } : {}), ...(client.mode ? { 'x-dashboard-mode': client.mode } : {}), ...headers } });
      return { status: res.status, json: await res.json(), headers: res.headers };
    },
    async send(method, p, body = {}, headers = {}) {
      const res = await fetch(`${app.url}/dashboard/api${p}`, {
        method,
        headers: {
          'content-type': 'application/json',
          ...(client.cookie ? { cookie: client.cookie } : {}),
          ...(client.csrf ? { 'x-csrf-token': client.csrf } : {}),
          ...(client.mode ? { 'x-dashboard-mode': client.mode } : {}),
          ...headers,
        },
        body: method === 'GET' || method === 'HEAD' ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let json: any;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, json, headers: res.headers, text };
    },
  };
  return client;
}

const mailDir = (app: TestApp) => path.join(app.dataDir, 'mail');

/** Waits for the newest message to `to` whose body holds a dashboard link to `page`, and answers the link's token. */
export async function tokenFromInbox(app: TestApp, to: string, page: string, after = 0): Promise<string> {
  const pattern = new RegExp(`/dashboard/${page}\\?token=([A-Za-z0-9_%-]+)`);
  for (let i = 0; i < 100; i += 1) {
    const messages = readSandboxInbox(mailDir(app)).filter((m) => m.to === to.toLowerCase()).slice(after);
    const match = messages.map((m) => pattern.exec(m.text)).filter(Boolean).pop();
    if (match) return decodeURIComponent(match[1]!);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no ${page} e-mail to ${to}`);
}

/** The cookies a response sets, by name (the value only). */
export const cookiesOf = (headers: Headers): Record<string, string> => Object.fromEntries(headers.getSetCookie().map((c) => c.split(';')[0]!.split('=') as [string, string]));

export const inboxCount = (app: TestApp, to: string) => readSandboxInbox(mailDir(app)).filter((m) => m.to === to.toLowerCase()).length;

/** Signs up, verifies from the sandbox inbox and signs in: a client with a session. */
export async function signedInOwner(app: TestApp, email = uniqueEmail()): Promise<DashboardClient & { email: string; organisationId: string }> {
  const client = dashboardClient(app);
  expect((await client.post('/sign-up', { email, password: GOOD_PASSWORD, organisationName: 'Ikeja Clinic' })).status).toBe(202);
  const token = await tokenFromInbox(app, email, 'verify-email');
  expect((await client.post('/verify-email', { token })).status).toBe(200);
  const signIn = await client.post('/sign-in', { email, password: GOOD_PASSWORD });
  expect(signIn.status).toBe(200);
  client.csrf = signIn.json.data.csrfToken;
  return Object.assign(client, { email, organisationId: signIn.json.data.organisationId as string });
}
