import { ownedBy } from '../find-owned';
import type { Executor } from '../../db/database';
import type { FinancingApplicationsTable } from '../../db/schema';
import { notFound } from '../errors';
import type { Scope } from '../scope';
import type { FinancingStatus } from './financing-application';
import { financingView, type FinancingView } from './financing-view';

/**
 * The organisation dashboard's patient-financing applications: the partner API's `FinancingView` plus the
 * clinic's own references and the patient's first name as the clinic gave it. Never the BVN (only its hash is
 * stored), the date of birth, the declared income or the phone beyond its last digits.
 */
export type DashboardFinancing = FinancingView & {
  clientReference: string;
  invoiceReference: string | null;
  firstName: string;
  phoneLast4: string;
  createdAt: string;
  updatedAt: string;
};

/** One step of an application's status history, with when it happened. */
export interface FinancingHistoryEntry {
  status: FinancingStatus;
  at: string;
}

export interface DashboardFinancingDetail extends DashboardFinancing {
  submittedAt: string | null;
  decidedAt: string | null;
  history: FinancingHistoryEntry[];
}

export interface FinancingListQuery {
  status?: FinancingStatus;
  /** An exact reference: the `sdkReference`, the clinic's `clientReference` or its `invoiceReference`. */
  reference?: string;
  after?: { at: string; id: string };
  limit: number;
}

const toDashboard = (row: FinancingApplicationsTable): DashboardFinancing => ({
  ...financingView(row),
  clientReference: row.clientReference,
  invoiceReference: row.invoiceReference,
  firstName: row.firstName,
  phoneLast4: row.phone.slice(-4),
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** Newest first, keyset-paged on `(created_at, id)` (index `financing_applications_keyset_idx`): no OFFSET, no COUNT. */
export async function listDashboardFinancing(db: Executor, scope: Scope, query: FinancingListQuery): Promise<DashboardFinancing[]> {
  let select = db.selectFrom('financingApplications').selectAll().where('organisationId', '=', scope.organisationId).where('mode', '=', scope.mode);
  if (query.status) select = select.where('status', '=', query.status);
  const reference = query.reference;
  if (reference) select = select.where((eb) => eb.or([eb('id', '=', reference), eb('clientReference', '=', reference), eb('invoiceReference', '=', reference)]));
  const after = query.after;
  if (after) select = select.where((eb) => eb.or([eb('createdAt', '<', after.at), eb.and([eb('createdAt', '=', after.at), eb('id', '<', after.id)])]));
  const rows = await select.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
  return rows.map(toDashboard);
}

/**
 * One application of the organisation in this mode (another organisation's or mode's id answers 404), with its status
 * history as the recorded times tell it: initiated, submitted, decided (approved or rejected), and the loan's
 * acceptance, disbursement or cancellation; a later status without its own time (completed, defaulted, expired, offer
 * rejected) is dated by the application's last change.
 */
export async function dashboardFinancing(db: Executor, scope: Scope, id: string): Promise<DashboardFinancingDetail> {
  const row = await db
    .selectFrom('financingApplications')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
    // By primary key alone, the owner checked after (`ownedBy` says why).
    .then((found) => ownedBy(found, scope));
  if (!row) throw notFound('financing application');
  const loan = await db
    .selectFrom('loans')
    .select(['termsAcceptedAt', 'disbursedAt', 'cancelledAt'])
    .where('id', '=', row.id)
    .where('organisationId', '=', scope.organisationId)
    .executeTakeFirst();
  const history: FinancingHistoryEntry[] = [{ status: 'initiated', at: row.createdAt }];
  const add = (status: FinancingStatus, at: string | null | undefined) => {
    if (at) history.push({ status, at });
  };
  add('application_submitted', row.submittedAt);
  add(row.rejectionReason ? 'rejected' : 'approved', row.decidedAt);
  add('offer_accepted', loan?.termsAcceptedAt);
  add('disbursed', loan?.disbursedAt);
  if (row.status === 'cancelled') add('cancelled', loan?.cancelledAt ?? row.updatedAt);
  if (!history.some((h) => h.status === row.status)) history.push({ status: row.status as FinancingStatus, at: row.updatedAt });
  history.sort((a, b) => a.at.localeCompare(b.at));
  return { ...toDashboard(row), submittedAt: row.submittedAt, decidedAt: row.decidedAt, history };
}
