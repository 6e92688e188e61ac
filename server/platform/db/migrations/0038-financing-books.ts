import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Patient-financing loans on the service's books (docs/ledger.md). Before this, a financing loan's
 * receivable, its collections and its interest and fee income were posted in the partner's scope, and the repaid
 * principal never went back to the service's `FINANCING` pool. Posted rows are never edited: this migration posts one
 * correcting transaction per disbursed financing loan (`REB-<loan id>`, kind `reattribution`) that moves
 * - the receivable still open from the partner's scope to the lender's (the fixed financing lender organisation),
 * - the principal already repaid back into the lender's pool,
 * - the interest and fee income out of the partner's income accounts into the lender's,
 * - what was collected out of the partner's collections (rail, external) into the lender's, less the principal, which
 *   is now in the pool (a `cash_wallet` repayment's principal leaves the partner's wallet clearing cash for the pool),
 * and then writes off every loan already `defaulted` (lending loans in the partner's scope, financing loans in the
 * lender's: `WOF-<loan id>`, receivable → `loan_write_off`), as the arrears sweep now does when a loan defaults.
 * Guarded accounts (receivables, pools) keep their running balance equal to the sum of their postings.
 *
 * Selected columns are aliased without underscores: the result rows read the same with or without the camel-case
 * plugin. The constants are frozen copies (a migration never changes with the code that follows it).
 */
const FINANCING_LENDER_ID = '0f1a0000-0000-4000-8000-000000000001';
const FINANCING_PRODUCT_ID = '0f1a0000-0000-4000-8000-000000000002';
const GUARDED = new Set(['capital_pool', 'loan_receivable']);

interface Ref {
  organisationId: string;
  mode: string;
  kind: string;
  code: string;
}

interface Leg {
  ref: Ref;
  amountKobo: number;
}

export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  const at = new Date().toISOString();
  const bool = (value: boolean) => (t.bool === 'boolean' ? value : value ? 1 : 0);

  async function account(ref: Ref): Promise<{ id: string; guarded: boolean }> {
    const found = (
      await sql<{ id: string }>`select id from ledger_accounts
        where organisation_id = ${ref.organisationId} and mode = ${ref.mode} and kind = ${ref.kind} and code = ${ref.code}`.execute(db)
    ).rows[0];
    const guarded = GUARDED.has(ref.kind);
    if (found) return { id: found.id, guarded };
    const id = randomUUID();
    await sql`insert into ledger_accounts (id, organisation_id, mode, kind, code, currency, balance_kobo, allow_negative, created_at, updated_at)
      values (${id}, ${ref.organisationId}, ${ref.mode}, ${ref.kind}, ${ref.code}, 'NGN', 0, ${bool(!guarded)}, ${at}, ${at})`.execute(db);
    return { id, guarded };
  }

  async function balance(ref: Ref): Promise<number> {
    const row = (
      await sql<{ sum: number | string }>`select coalesce(sum(p.amount_kobo), 0) as sum from ledger_postings p
        join ledger_accounts a on a.id = p.account_id
        where a.organisation_id = ${ref.organisationId} and a.mode = ${ref.mode} and a.kind = ${ref.kind} and a.code = ${ref.code}`.execute(db)
    ).rows[0];
    return Number(row?.sum ?? 0);
  }

  async function posted(reference: string): Promise<boolean> {
    return (await sql`select 1 from ledger_transactions where reference = ${reference}`.execute(db)).rows.length > 0;
  }

  async function post(owner: { organisationId: string; mode: string }, reference: string, kind: string, description: string, legs: Leg[]): Promise<void> {
    const moving = legs.filter((l) => l.amountKobo !== 0);
    if (moving.length === 0) return;
    const total = moving.reduce((s, l) => s + l.amountKobo, 0);
    if (total !== 0) throw new Error(`0038: ${reference} would not balance (${total})`);
    const transactionId = randomUUID();
    await sql`insert into ledger_transactions (id, organisation_id, mode, reference, kind, description, created_at)
      values (${transactionId}, ${owner.organisationId}, ${owner.mode}, ${reference}, ${kind}, ${description}, ${at})`.execute(db);
    for (const leg of moving) {
      const { id, guarded } = await account(leg.ref);
      await sql`insert into ledger_postings (id, transaction_id, account_id, amount_kobo, created_at)
        values (${randomUUID()}, ${transactionId}, ${id}, ${leg.amountKobo}, ${at})`.execute(db);
      if (guarded) await sql`update ledger_accounts set balance_kobo = balance_kobo + ${leg.amountKobo}, updated_at = ${at} where id = ${id}`.execute(db);
    }
  }

  const financing = (
    await sql<{ id: string; org: string; mode: string; pool: string }>`
      select l.id, l.organisation_id as org, l.mode, l.capital_pool_code as pool from loans l
      where l.id in (select id from financing_applications)
        and exists (select 1 from ledger_transactions d where d.reference = 'DSB-' || l.id)
      order by l.id`.execute(db)
  ).rows;
  for (const loan of financing) {
    const reference = `REB-${loan.id}`;
    if (await posted(reference)) continue;
    const partner = { organisationId: loan.org, mode: loan.mode };
    const lender = { organisationId: FINANCING_LENDER_ID, mode: loan.mode };
    const open = await balance({ ...partner, kind: 'loan_receivable', code: loan.id });
    const groups = (
      await sql<{ method: string; mandate: string | null; amount: number | string; principal: number | string; interest: number | string; fee: number | string }>`
        select method, mandate_id as mandate, sum(amount_kobo) as amount, sum(principal_portion_kobo) as principal,
               sum(interest_portion_kobo) as interest, sum(fee_portion_kobo) as fee
        from loan_repayments where loan_id = ${loan.id} and status = 'completed'
        group by method, mandate_id`.execute(db)
    ).rows.map((g) => ({ method: g.method, mandateId: g.mandate, amount: Number(g.amount), principal: Number(g.principal), interest: Number(g.interest), fee: Number(g.fee) }));
    const sum = (pick: (g: (typeof groups)[number]) => number) => groups.reduce((s, g) => s + pick(g), 0);
    const legs: Leg[] = [
      { ref: { ...partner, kind: 'loan_receivable', code: loan.id }, amountKobo: -open },
      { ref: { ...lender, kind: 'loan_receivable', code: loan.id }, amountKobo: open },
      { ref: { ...lender, kind: 'capital_pool', code: loan.pool }, amountKobo: sum((g) => g.principal) },
      { ref: { ...partner, kind: 'interest_income', code: partner.organisationId }, amountKobo: sum((g) => g.interest) },
      { ref: { ...lender, kind: 'interest_income', code: FINANCING_LENDER_ID }, amountKobo: -sum((g) => g.interest) },
      { ref: { ...partner, kind: 'fee_income', code: partner.organisationId }, amountKobo: sum((g) => g.fee) },
      { ref: { ...lender, kind: 'fee_income', code: FINANCING_LENDER_ID }, amountKobo: -sum((g) => g.fee) },
    ];
    for (const g of groups) {
      if (g.method === 'mandate' || g.method === 'external') {
        const kind = g.method === 'mandate' ? 'rail_collections' : 'external_collections';
        const code = g.method === 'mandate' ? (g.mandateId ?? 'rail') : partner.organisationId;
        legs.push({ ref: { ...partner, kind, code }, amountKobo: -g.amount }, { ref: { ...lender, kind, code }, amountKobo: g.amount - g.principal });
      } else if (g.method === 'cash_wallet') {
        legs.push({ ref: { ...partner, kind: 'settlement_cash', code: 'borrower_wallet' }, amountKobo: -g.principal });
      } else {
        // `wallet` (undrawn credit) cannot happen on a loan settled to the partner; refuse rather than guess.
        throw new Error(`0038: financing loan ${loan.id} has a ${g.method} repayment; re-attribute it by hand`);
      }
    }
    await post(partner, reference, 'reattribution', `patient financing ${loan.id} re-attributed to the service's books, its lender`, legs);
  }

  const defaulted = (
    await sql<{ id: string; org: string; mode: string; product: string }>`
      select id, organisation_id as org, mode, loan_product_id as product from loans where status = 'defaulted' order by id`.execute(db)
  ).rows;
  for (const loan of defaulted) {
    const reference = `WOF-${loan.id}`;
    if (await posted(reference)) continue;
    const owner = { organisationId: loan.product === FINANCING_PRODUCT_ID ? FINANCING_LENDER_ID : loan.org, mode: loan.mode };
    const open = await balance({ ...owner, kind: 'loan_receivable', code: loan.id });
    if (open <= 0) continue;
    await post(owner, reference, 'write_off', `loan ${loan.id} defaulted: outstanding principal written off`, [
      { ref: { ...owner, kind: 'loan_receivable', code: loan.id }, amountKobo: -open },
      { ref: { ...owner, kind: 'loan_write_off', code: loan.id }, amountKobo: open },
    ]);
  }
}
