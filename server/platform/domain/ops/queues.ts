import type { Executor } from '../../db/database';
import type { Mode } from '../scope';
import { countChargesNeedingPerson } from './charges';
import { countPoliciesToRecord } from './insurance-policies';
import { countFailedSettlements } from './settlements';
import { countOrganisationsForLive } from './live-readiness';

/**
 * The console's work queues across every organisation, each newest first and keyset-paged on `(created_at, id)`:
 * payouts still holding their reservation (to settle with the bank reference, or reject), pool-funding notices
 * waiting for their transfer, open loan reviews, webhook endpoints switched off after failing. `queueCounts` feeds the console's home.
 */
export interface Keyset {
  at: string;
  id: string;
}

const after = <T extends { where: (...args: never[]) => T }>(select: T, column: string, idColumn: string, key: Keyset | undefined): T =>
  key ? (select.where as (f: (eb: any) => unknown) => T)((eb: any) => eb.or([eb(column, '<', key.at), eb.and([eb(column, '=', key.at), eb(idColumn, '<', key.id)])])) : select;

export interface PayoutQueueItem {
  id: string;
  organisationId: string;
  organisationName: string;
  mode: Mode;
  amountKobo: number;
  bankName: string;
  accountNumberLast4: string;
  accountName: string | null;
  status: string;
  createdAt: string;
  /** The open four-eyes proposal to settle it, if any. */
  proposalId: string | null;
}

export async function payoutsToSettle(db: Executor, options: { limit: number; after?: Keyset | undefined }): Promise<PayoutQueueItem[]> {
  const select = db
    .selectFrom('payoutRequests as p')
    .innerJoin('organisations as o', 'o.id', 'p.organisationId')
    .leftJoin('opsProposals as x', (j) => j.onRef('x.subject', '=', 'p.id').on('x.kind', '=', 'payout_settle').on('x.status', '=', 'open'))
    .select(['p.id', 'p.organisationId', 'o.name as organisationName', 'p.mode', 'p.amountKobo', 'p.bankName', 'p.accountNumber', 'p.accountName', 'p.status', 'p.createdAt', 'x.id as proposalId'])
    .where('p.status', 'in', ['requested', 'settling']);
  const rows = await after(select, 'p.createdAt', 'p.id', options.after).orderBy('p.createdAt', 'desc').orderBy('p.id', 'desc').limit(options.limit).execute();
  // The full account number stays in the database: the queue shows its last four digits.
  return rows.map(({ accountNumber, ...row }) => ({ ...row, amountKobo: Number(row.amountKobo), accountNumberLast4: accountNumber.slice(-4), proposalId: row.proposalId ?? null }));
}

export interface FundingNoticeQueueItem {
  id: string;
  reference: string;
  organisationId: string;
  organisationName: string;
  mode: Mode;
  poolCode: string;
  amountKobo: number;
  createdAt: string;
  proposalId: string | null;
}

export async function fundingNoticesToConfirm(db: Executor, options: { limit: number; after?: Keyset | undefined }): Promise<FundingNoticeQueueItem[]> {
  const select = db
    .selectFrom('poolFundingNotices as n')
    .innerJoin('organisations as o', 'o.id', 'n.organisationId')
    .leftJoin('opsProposals as x', (j) => j.onRef('x.subject', '=', 'n.reference').on('x.kind', '=', 'pool_funding_confirm').on('x.status', '=', 'open'))
    .select(['n.id', 'n.reference', 'n.organisationId', 'o.name as organisationName', 'n.mode', 'n.poolCode', 'n.amountKobo', 'n.createdAt', 'x.id as proposalId'])
    .where('n.status', '=', 'pending');
  const rows = await after(select, 'n.createdAt', 'n.id', options.after).orderBy('n.createdAt', 'desc').orderBy('n.id', 'desc').limit(options.limit).execute();
  return rows.map((row) => ({ ...row, amountKobo: Number(row.amountKobo), proposalId: row.proposalId ?? null }));
}

export interface ReviewQueueItem {
  id: string;
  loanId: string;
  organisationId: string;
  organisationName: string;
  mode: Mode;
  decidedBy: 'partner' | 'service';
  openedReason: string;
  principalKobo: number;
  openedAt: string;
}

export async function openReviews(db: Executor, options: { limit: number; after?: Keyset | undefined }): Promise<ReviewQueueItem[]> {
  const select = db
    .selectFrom('loanReviews as r')
    .innerJoin('organisations as o', 'o.id', 'r.organisationId')
    .innerJoin('loans as l', 'l.id', 'r.loanId')
    .select(['r.id', 'r.loanId', 'r.organisationId', 'o.name as organisationName', 'r.mode', 'r.decidedBy', 'r.openedReason', 'l.principalKobo', 'r.openedAt'])
    .where('r.status', '=', 'open');
  const rows = await after(select, 'r.openedAt', 'r.id', options.after).orderBy('r.openedAt', 'desc').orderBy('r.id', 'desc').limit(options.limit).execute();
  return rows.map((row) => ({ ...row, principalKobo: Number(row.principalKobo) }));
}

export interface DisabledEndpointItem {
  id: string;
  organisationId: string;
  organisationName: string;
  mode: Mode;
  url: string;
  consecutiveFails: number;
  lastFailureAt: string | null;
  updatedAt: string;
}

/** Webhook endpoints the dispatcher switched off after failing for too long (disabled with failures on record). */
export async function disabledEndpoints(db: Executor, options: { limit: number; after?: Keyset | undefined }): Promise<DisabledEndpointItem[]> {
  const select = db
    .selectFrom('webhookEndpoints as w')
    .innerJoin('organisations as o', 'o.id', 'w.organisationId')
    .select(['w.id', 'w.organisationId', 'o.name as organisationName', 'w.mode', 'w.url', 'w.consecutiveFails', 'w.lastFailureAt', 'w.updatedAt'])
    .where('w.status', '=', 'disabled')
    .where('w.consecutiveFails', '>', 0);
  const rows = await after(select, 'w.updatedAt', 'w.id', options.after).orderBy('w.updatedAt', 'desc').orderBy('w.id', 'desc').limit(options.limit).execute();
  return rows.map((row) => ({ ...row, consecutiveFails: Number(row.consecutiveFails) }));
}

export interface QueueCounts {
  payouts: number;
  fundingNotices: number;
  reviews: number;
  proposals: number;
  disabledEndpoints: number;
  /** Mandate charges collected but not applied, or whose outcome is unknown (`charges.ts`). */
  charges: number;
  /** Settlements whose run failed (`settlements.ts`). */
  failedSettlements: number;
  /** Organisations not yet live with a verified owner (`live-readiness.ts`). */
  liveReadiness: number;
  /** Insurance policies bound by hand still to record (`insurance-policies.ts`). */
  insurancePolicies: number;
}

export async function queueCounts(db: Executor): Promise<QueueCounts> {
  const count = async (query: Promise<{ count: number | string } | undefined>) => Number((await query)?.count ?? 0);
  const [payouts, fundingNotices, reviews, proposals, disabledEndpoints, charges, failedSettlements, liveReadiness, insurancePolicies] = await Promise.all([
    count(db.selectFrom('payoutRequests').select((eb) => eb.fn.countAll<number | string>().as('count')).where('status', 'in', ['requested', 'settling']).executeTakeFirst()),
    count(db.selectFrom('poolFundingNotices').select((eb) => eb.fn.countAll<number | string>().as('count')).where('status', '=', 'pending').executeTakeFirst()),
    count(db.selectFrom('loanReviews').select((eb) => eb.fn.countAll<number | string>().as('count')).where('status', '=', 'open').executeTakeFirst()),
    count(db.selectFrom('opsProposals').select((eb) => eb.fn.countAll<number | string>().as('count')).where('status', '=', 'open').executeTakeFirst()),
    count(db.selectFrom('webhookEndpoints').select((eb) => eb.fn.countAll<number | string>().as('count')).where('status', '=', 'disabled').where('consecutiveFails', '>', 0).executeTakeFirst()),
    countChargesNeedingPerson(db),
    countFailedSettlements(db),
    countOrganisationsForLive(db),
    countPoliciesToRecord(db),
  ]);
  return { payouts, fundingNotices, reviews, proposals, disabledEndpoints, charges, failedSettlements, liveReadiness, insurancePolicies };
}
