import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import type { Scope } from './loan';

export interface PreapprovalFunnel {
  pushed: number;
  awaitingOffer: number;
  offerIssued: number;
  acceptedByBorrower: number;
  declinedByBorrower: number;
  declinedByPartner: number;
  expired: number;
  disbursed: number;
  approvedAmountKobo: number;
  disbursedAmountKobo: number;
  repaidAmountKobo: number;
  outstandingKobo: number;
}

/**
 * The pre-approval funnel in one aggregate query over pre-approvals joined to their loans (no rows
 * are loaded). Counters are cumulative by the furthest stage reached: a disbursed pre-approval also
 * counts as offered and accepted. Amounts count only loans that came from pushed decisions.
 */
export async function preapprovalFunnel(db: Executor, scope: Scope): Promise<PreapprovalFunnel> {
  const row = await db
    .selectFrom('preapprovals as p')
    .leftJoin('loans as l', 'l.id', 'p.loanId')
    .where('p.organisationId', '=', scope.organisationId)
    .where('p.mode', '=', scope.mode)
    .select([
      sql<number>`count(*)`.as('pushed'),
      sql<number>`coalesce(sum(case when p.status = 'received' and p.loan_id is null then 1 else 0 end), 0)`.as('awaitingOffer'),
      sql<number>`coalesce(sum(case when p.status in ('offer_issued', 'accepted', 'disbursed') or (p.status = 'declined' and p.recommendation <> 'decline') then 1 else 0 end), 0)`.as('offerIssued'),
      sql<number>`coalesce(sum(case when p.status in ('accepted', 'disbursed') then 1 else 0 end), 0)`.as('acceptedByBorrower'),
      sql<number>`coalesce(sum(case when p.status = 'declined' and p.recommendation <> 'decline' then 1 else 0 end), 0)`.as('declinedByBorrower'),
      sql<number>`coalesce(sum(case when p.recommendation = 'decline' then 1 else 0 end), 0)`.as('declinedByPartner'),
      sql<number>`coalesce(sum(case when p.status = 'expired' then 1 else 0 end), 0)`.as('expired'),
      sql<number>`coalesce(sum(case when p.status = 'disbursed' then 1 else 0 end), 0)`.as('disbursed'),
      sql<number>`coalesce(sum(case when p.recommendation <> 'decline' then p.approved_amount_kobo else 0 end), 0)`.as('approvedAmountKobo'),
      sql<number>`coalesce(sum(l.disbursed_amount_kobo), 0)`.as('disbursedAmountKobo'),
      sql<number>`coalesce(sum(l.amount_paid_kobo), 0)`.as('repaidAmountKobo'),
      sql<number>`coalesce(sum(case when l.disbursed_at is not null then l.outstanding_kobo else 0 end), 0)`.as('outstandingKobo'),
    ])
    .executeTakeFirstOrThrow();
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as unknown as PreapprovalFunnel;
}
