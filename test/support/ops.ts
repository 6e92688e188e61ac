import { expect } from 'vitest';
import type { StaffRole } from '../../server/platform/db/schema';
import { newId } from '../../server/platform/domain/ids';
import { ensureAccount, postTransaction } from '../../server/platform/domain/ledger/ledger';
import { inviteStaff } from '../../server/platform/domain/ops/staff-accounts';
import { requestPayout } from '../../server/platform/domain/payouts/request-payout';
import { walletRef } from '../../server/platform/domain/wallets/wallet';
import { GOOD_PASSWORD, uniqueEmail } from './dashboard';
import { createTenant, type TestApp } from './harness';

export interface OpsClient {
  cookie?: string;
  csrf?: string;
  /** Other cookies the console set (the pending passkey step's). */
  jar: Record<string, string>;
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: any; headers: Headers }>;
}

/** A browser's worth of console state: keeps the `ops_session` cookie, the pending-step cookie and the CSRF token. */
export function opsClient(app: TestApp): OpsClient {
  const client: OpsClient = {
    jar: {},
    async send(method, p, body, headers = {}) {
      const cookies = [client.cookie, ...Object.entries(client.jar).map(([k, v]) => `${k}=${v}`)].filter(Boolean).join('; ');
      const res = await fetch(`${app.url}/ops/api${p}`, {
        method,
        headers: {
          ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
          ...(cookies ? { cookie: cookies } : {}),
          ...(client.csrf && method !== 'GET' ? { 'x-csrf-token': client.csrf } : {}),
          ...headers,
        },
        body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
        if (name === 'ops_session') client.cookie = value ? `ops_session=${value}` : undefined;
        else if (value) client.jar[name] = value;
        else delete client.jar[name];
      }
      const json = await res.json().catch(() => undefined);
      if (json?.data?.csrfToken) client.csrf = json.data.csrfToken;
      return { status: res.status, json, headers: res.headers };
    },
  };
  return client;
}

/** A staff member invited (as `admin staff invite` does) who accepted the link in the console: signed in. */
export async function staffMember(app: TestApp, role: StaffRole, email = uniqueEmail(role)): Promise<OpsClient & { email: string; token: string }> {
  const invitation = await inviteStaff(
    { db: app.platform.db, clock: app.platform.clock, baseUrl: app.platform.baseUrl, passkeyAlways: false },
    { email, role, invitedBy: { staffId: null, origin: { ip: null, userAgent: 'test' } } },
  );
  const token = new URL(invitation.link).searchParams.get('token')!;
  const client = opsClient(app);
  const accepted = await client.send('POST', '/accept-invitation', { token, password: GOOD_PASSWORD });
  expect(accepted.status).toBe(200);
  return Object.assign(client, { email: email.toLowerCase(), token });
}

/**
 * A payout waiting to be settled (live unless `mode` says test): a borrower whose wallet received money (posted on the live books as an
 * incoming transfer would be) and asked for part of it to be paid out. Answers the payout and its organisation.
 */
export async function livePayout(app: TestApp, options: { amountKobo?: number; mode?: 'test' | 'live' } = {}): Promise<{ organisationId: string; payoutId: string; borrowerId: string }> {
  const amountKobo = options.amountKobo ?? 25_000;
  const tenant = await createTenant(app);
  const db = app.platform.db;
  const now = app.platform.clock.now();
  const at = now.toISOString();
  const scope = { organisationId: tenant.organisationId, mode: options.mode ?? ('live' as const) };
  const borrowerId = newId();
  const payout = await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('borrowers')
      .values({ id: borrowerId, ...scope, clientReference: null, firstName: 'Ada', lastName: 'Obi', phone: '+2348030000000', email: null, bvnHash: null, ninHash: null, legacyNin: null, identityStatus: 'claimed', linkedAt: null, userId: null, preferredLocale: null, createdAt: at, updatedAt: at })
      .execute();
    const wallet = await ensureAccount(trx, walletRef({ ...scope, borrowerId }), now);
    const cash = await ensureAccount(trx, { ...scope, kind: 'settlement_cash', code: 'borrower_wallet' }, now);
    await postTransaction(trx, {
      ...scope,
      reference: `TEST-IN-${newId()}`,
      kind: 'sandbox_wallet_credit',
      description: 'test fixture: money arrived in the live wallet',
      postings: [
        { account: cash, amountKobo: amountKobo * 2 },
        { account: wallet, amountKobo: -amountKobo * 2 },
      ],
      now,
    });
    return requestPayout(trx, { scope, borrowerId, loanId: null, amountKobo, bankName: 'First Bank', bankCode: '011', accountNumber: '0000014579', accountName: 'Ada Obi', now });
  });
  return { organisationId: tenant.organisationId, payoutId: payout.id, borrowerId };
}
