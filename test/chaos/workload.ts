import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { PartnerClient } from './http-client';

/**
 * The seeded random workload. Each client runs loan stories one after the other (its loans are its
 * own, so it knows what they owe); the clients run at once, so stories contend for the pool, the
 * organisation's rows and the workers. A story: push a decision, issue the offer, accept it (most),
 * then one of
 * - `collect`: a mandate (activated in the sandbox), disburse, and the first instalment made due:
 *   the workers' collector charges it through the sandbox rail;
 * - `repay`: disburse, then external repayments (one sent twice with its externalReference), a
 *   mandate repayment on some, and two payouts at once that together may exceed the payable;
 * - `disburse`: disburse only.
 * A refusal the story expects (an empty pool, an overdrawn payable) ends or skips that step.
 */
export type Rng = ReturnType<typeof xoroshiro128plus>;
export const rngFor = (seed: number) => xoroshiro128plus(seed);
export const pick = (rng: Rng, from: number, to: number) => uniformInt(rng, from, to);

export interface Tally {
  operations: Map<string, number>;
  /** Loans whose first instalment the harness makes due for the collector (method `mandate` only). */
  collectLoans: string[];
  /** Loans the clients repaid themselves (external / mandate repayments they sent). */
  repaidLoans: string[];
  /** Expected refusals, by error code. */
  refusals: Map<string, number>;
  /** Answers no story expected (a bug, or a broken invariant): reported and failed. */
  unexpected: string[];
}

export const newTally = (): Tally => ({ operations: new Map(), collectLoans: [], repaidLoans: [], refusals: new Map(), unexpected: [] });

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

/** A BVN-shaped number and a valid NUBAN for bank 011 (the check digit of 000001457 is 9). */
const bvn = (rng: Rng) => String(22_000_000_000 + pick(rng, 0, 999_999_999));
const BANK = { bankName: 'First Bank', bankCode: '011', accountNumber: '0000014579', accountName: 'Ada Obi' };

export interface StoryHooks {
  /** Makes the loan's first instalment due now (the harness writes it to the database). */
  makeDue(loanId: string): Promise<void>;
}

export async function runClient(api: PartnerClient, rng: Rng, tally: Tally, hooks: StoryHooks, until: () => boolean): Promise<void> {
  const op = (name: string) => bump(tally.operations, name);
  const ok = (name: string, status: number, answer: { status: number; text: string }, expected: string[] = []) => {
    if (answer.status === status) {
      op(name);
      return true;
    }
    const code = (() => {
      try {
        return JSON.parse(answer.text).error as string;
      } catch {
        return undefined;
      }
    })();
    if (code && expected.includes(code)) bump(tally.refusals, `${name}: ${code}`);
    else tally.unexpected.push(`${name}: ${answer.status} ${answer.text.slice(0, 300)}`);
    return false;
  };

  while (!until()) {
    const naira = pick(rng, 50, 400) * 100;
    const pushed = await api.write('/v1/preapprovals', {
      borrower: { firstName: 'Chaos', lastName: `Borrower`, phone: '+2348012345678', email: 'chaos@example.com' },
      decision: {
        metadata: { assessment_id: `chaos_${pick(rng, 0, 2 ** 30)}_${Date.now()}`, bvn: bvn(rng) },
        decision: { recommendation: 'APPROVE', approved_amount: naira, conditions: { interest_rate: 4.5, tenor_days: 90, repayment_frequency: 'monthly' } },
      },
    });
    if (!ok('push', 202, pushed)) continue;
    const offered = await api.write(`/v1/preapprovals/${pushed.json.data.preapprovalId}/issue-offer`, {});
    if (!ok('issue-offer', 200, offered)) continue;
    const loan = offered.json.data;
    if (pick(rng, 1, 10) === 1) continue; // left at the offer
    const accepted = await api.write(`/v1/loans/${loan.id}/accept-terms`, {
      consent: { signatureFullName: 'Chaos Borrower', ipAddress: '102.89.1.1', userAgent: 'chaos', signedAt: new Date().toISOString(), documentReference: loan.documentReference },
    });
    if (!ok('accept-terms', 200, accepted)) continue;

    const roll = pick(rng, 1, 10);
    const story = roll <= 3 ? 'collect' : roll <= 8 ? 'repay' : 'disburse';
    let mandated = false;
    if (story === 'collect' || pick(rng, 1, 3) === 1) {
      const mandate = await api.write(`/v1/loans/${loan.id}/mandates`, { email: 'chaos@example.com' });
      if (ok('mandate', 201, mandate)) {
        const activated = await api.write(`/v1/test/mandates/${mandate.json.data.id}/simulate-activation`, {});
        mandated = ok('mandate-activation', 200, activated);
      }
    }
    const disbursed = await api.write(`/v1/loans/${loan.id}/disburse`, {});
    if (!ok('disburse', 200, disbursed, ['insufficient_pool_funds'])) continue;

    if (story === 'collect' && mandated) {
      await hooks.makeDue(loan.id);
      tally.collectLoans.push(loan.id);
      op('instalment-made-due');
      continue;
    }
    if (story !== 'repay') continue;
    tally.repaidLoans.push(loan.id);
    const schedule = await api.read(`/v1/loans/${loan.id}`);
    let outstanding = Number(schedule.json?.data?.outstandingKobo ?? 0);
    const repayments = pick(rng, 1, 3);
    for (let i = 0; i < repayments && outstanding > 0; i += 1) {
      const amount = Math.min(outstanding, pick(rng, 1, 4) * pick(rng, 1_000, 9_999) * 10);
      const reference = `ext_${loan.id}_${i}`;
      const paid = await api.write(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo: amount, externalReference: reference });
      if (!ok('external-repayment', 201, paid)) break;
      outstanding -= paid.json.data.amountKobo;
      if (i === 0) {
        // The partner's own retry under a new key: the externalReference answers with the original movement.
        const again = await api.write(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo: amount, externalReference: reference });
        if (ok('external-repayment-resent', 200, again) && again.json.data.id !== paid.json.data.id) {
          tally.unexpected.push(`externalReference ${reference} answered another repayment: ${again.json.data.id} != ${paid.json.data.id}`);
        }
      }
    }
    if (mandated && outstanding > 0) {
      const amount = Math.min(outstanding, pick(rng, 100, 2_000) * 100);
      const charged = await api.write(`/v1/loans/${loan.id}/repayments`, { method: 'mandate', amountKobo: amount });
      ok('mandate-repayment', 201, charged);
    }
    // Two payouts at once that may together exceed the disbursed principal waiting in the payable.
    const principal = Number(loan.principalKobo ?? loan.amountKobo ?? naira * 100);
    const share = () => pick(rng, 40, 70) * Math.floor(principal / 100);
    const payouts = await Promise.all([share(), share()].map((amountKobo) => api.write('/v1/payouts', { borrowerId: loan.borrowerId, loanId: loan.id, amountKobo, ...BANK })));
    for (const p of payouts) ok('payout', 201, p, ['insufficient_wallet_balance']);
  }
}
