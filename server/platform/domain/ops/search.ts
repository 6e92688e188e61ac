import type { Executor } from '../../db/database';
import { isUuid } from '../ids';

/** One thing the console's search found: what it is, its id, a line for people, where it belongs. */
export interface SearchHit {
  kind: 'loan' | 'payout' | 'funding_notice' | 'organisation';
  id: string;
  label: string;
  organisationId: string;
  organisationName: string;
  mode: 'test' | 'live' | null;
  status: string | null;
}

const LIMIT = 20;

/** A Nigerian phone as the borrowers table stores it (`+234…`), from what a person types (`0803…`, `234…`). */
export function phoneForms(q: string): string[] {
  const digits = q.replace(/\D/g, '');
  if (digits.length < 10) return [];
  if (digits.startsWith('0') && digits.length === 11) return [`+234${digits.slice(1)}`];
  if (digits.startsWith('234')) return [`+${digits}`];
  return [`+${digits}`, `+234${digits}`];
}

/**
 * The console's search across organisations: a UUID finds the loan, payout or organisation with that id; a funding
 * reference (`PF-…`) or a payout's bank reference finds it; a phone finds its borrowers' loans; anything else matches
 * organisation names. At most 20 hits, newest first within each kind. Read-only.
 */
export async function searchOps(db: Executor, query: string): Promise<SearchHit[]> {
  const q = query.trim();
  const hits: SearchHit[] = [];
  if (isUuid(q)) {
    const loan = await db.selectFrom('loans as l').innerJoin('organisations as o', 'o.id', 'l.organisationId').select(['l.id', 'l.mode', 'l.status', 'l.principalKobo', 'l.organisationId', 'o.name']).where('l.id', '=', q).executeTakeFirst();
    if (loan) hits.push({ kind: 'loan', id: loan.id, label: `Loan of ${Number(loan.principalKobo)} kobo`, organisationId: loan.organisationId, organisationName: loan.name, mode: loan.mode, status: loan.status });
    const payout = await db.selectFrom('payoutRequests as p').innerJoin('organisations as o', 'o.id', 'p.organisationId').select(['p.id', 'p.mode', 'p.status', 'p.amountKobo', 'p.organisationId', 'o.name']).where('p.id', '=', q).executeTakeFirst();
    if (payout) hits.push({ kind: 'payout', id: payout.id, label: `Payout of ${Number(payout.amountKobo)} kobo`, organisationId: payout.organisationId, organisationName: payout.name, mode: payout.mode, status: payout.status });
    const organisation = await db.selectFrom('organisations').select(['id', 'name']).where('id', '=', q).executeTakeFirst();
    if (organisation) hits.push({ kind: 'organisation', id: organisation.id, label: organisation.name, organisationId: organisation.id, organisationName: organisation.name, mode: null, status: null });
    return hits;
  }
  const notices = await db
    .selectFrom('poolFundingNotices as n')
    .innerJoin('organisations as o', 'o.id', 'n.organisationId')
    .select(['n.id', 'n.reference', 'n.mode', 'n.status', 'n.organisationId', 'o.name'])
    .where('n.reference', '=', q.toUpperCase())
    .execute();
  for (const n of notices) hits.push({ kind: 'funding_notice', id: n.id, label: `Funding ${n.reference}`, organisationId: n.organisationId, organisationName: n.name, mode: n.mode, status: n.status });
  const payouts = await db
    .selectFrom('payoutRequests as p')
    .innerJoin('organisations as o', 'o.id', 'p.organisationId')
    .select(['p.id', 'p.mode', 'p.status', 'p.settlementReference', 'p.organisationId', 'o.name'])
    .where('p.settlementReference', '=', q)
    .limit(LIMIT)
    .execute();
  for (const p of payouts) hits.push({ kind: 'payout', id: p.id, label: `Payout settled under ${p.settlementReference}`, organisationId: p.organisationId, organisationName: p.name, mode: p.mode, status: p.status });
  const phones = phoneForms(q);
  if (phones.length > 0) {
    const loans = await db
      .selectFrom('loans as l')
      .innerJoin('borrowers as b', 'b.id', 'l.borrowerId')
      .innerJoin('organisations as o', 'o.id', 'l.organisationId')
      .select(['l.id', 'l.mode', 'l.status', 'l.principalKobo', 'l.organisationId', 'o.name', 'l.createdAt'])
      .where('b.phone', 'in', phones)
      .orderBy('l.createdAt', 'desc')
      .limit(LIMIT)
      .execute();
    for (const l of loans) hits.push({ kind: 'loan', id: l.id, label: `Loan of ${Number(l.principalKobo)} kobo (borrower's phone)`, organisationId: l.organisationId, organisationName: l.name, mode: l.mode, status: l.status });
  }
  if (hits.length === 0 && q.length >= 2) {
    // Wildcards typed by a person are dropped (no ESCAPE clause works the same on both databases).
    const like = `%${q.toLowerCase().replace(/[\\%_]/g, '')}%`;
    const organisations = await db
      .selectFrom('organisations')
      .select(['id', 'name'])
      .where((eb) => eb(eb.fn('lower', ['name']), 'like', like))
      .orderBy('name')
      .limit(LIMIT)
      .execute();
    for (const o of organisations) hits.push({ kind: 'organisation', id: o.id, label: o.name, organisationId: o.id, organisationName: o.name, mode: null, status: null });
  }
  return hits.slice(0, LIMIT);
}
