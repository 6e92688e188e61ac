import { client, type KeyPair, type TestApp, type Tenant } from './harness';
import { acceptedLoan } from './lifecycle';

/** A client that presents a borrower-session token. */
export function borrowerClient(app: TestApp, token: string) {
  const base = client(app);
  const auth = { authorization: `BorrowerSession ${token}` };
  return {
    get: (p: string, headers: Record<string, string> = {}) => base.get(p, { ...auth, ...headers }),
    post: (p: string, body: unknown = {}, headers: Record<string, string> = {}) => base.post(p, body, { ...auth, ...headers }),
  };
}

/** A disbursed loan with a confirmed sandbox mandate, for a phone. */
export async function lentLoan(app: TestApp, tenant: Tenant, phone: string, amount = '100000') {
  const api = client(app, tenant.test);
  const { loan } = await acceptedLoan(app, tenant, { amount, phone });
  const mandate = (await api.post(`/v1/loans/${loan.id}/mandates`, { email: 'ada@example.com' })).body.data;
  const activated = (await api.post(`/v1/test/mandates/${mandate.id}/simulate-activation`)).body.data;
  if (activated.status !== 'active') throw new Error(`mandate not active: ${JSON.stringify(activated)}`);
  const disbursed = await api.post(`/v1/loans/${loan.id}/disburse`);
  if (disbursed.status !== 200) throw new Error(`disburse failed: ${JSON.stringify(disbursed.body)}`);
  return { loan: disbursed.body.data as { id: string; outstandingKobo: number; principalKobo: number }, mandateId: mandate.id as string };
}

/** A borrower session the partner mints for a loan. */
export async function mintBorrowerSession(app: TestApp, key: KeyPair, loanId: string): Promise<{ id: string; token: string }> {
  const res = await client(app, key).post(`/v1/loans/${loanId}/borrower-sessions`);
  if (res.status !== 201) throw new Error(`mint failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}
