import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database';
import type { LoanRepaymentsTable } from '../../db/schema';
import { AppError, notFound } from '../errors';
import type { LoanWriteContext } from '../loans/loan-context';
import type { PaymentRail, ProviderChargeStatus, RailName } from '../ports';
import type { Mode } from '../scope';
import type { Services } from '../services';
import { inUnitOfWork } from '../unit-of-work';
import { applySettledQuote } from '../borrower-loans/apply-settled-quote';
import { CHARGE_OUTCOME_UNKNOWN } from '../repayments/collect-mandates';
import { applyRepayment } from '../repayments/record-repayment';
import type { Keyset } from './queues';
import { writeStaffAudit } from './staff-audit';
import { requireStaffPermission } from './staff-permissions';
import type { StaffActor } from './four-eyes';

/**
 * Mandate charges that need a person: a charge the rail took whose application to the loan failed for a reason that
 * would come back every run (`failed`, `collected_but_not_applied: …`), and a charge whose outcome the rail left
 * unknown (`pending`, `charge_outcome_unknown`). A staff member looks the charge up at the rail by its reference (a
 * read: never a new debit), then applies a collected charge to the loan through the collector's own code
 * (idempotent: an applied charge answers `changed: false`), or releases a charge that took no money (marked failed
 * with the reason). Applying is live money: in live mode it is a four-eyes proposal (`mandate_charge_apply`).
 */
export const COLLECTED_NOT_APPLIED = 'collected_but_not_applied';
export const RELEASED_PREFIX = 'released_by_staff';

export type ChargeProblem = 'collected_not_applied' | 'outcome_unknown';

export interface ChargeQueueItem {
  id: string;
  loanId: string;
  organisationId: string;
  organisationName: string;
  mode: Mode;
  provider: string;
  amountKobo: number;
  reference: string;
  chargeReference: string | null;
  problem: ChargeProblem;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
  /** The open four-eyes proposal to apply it, if any. */
  proposalId: string | null;
}

const needsPerson = (eb: any) =>
  eb.or([
    eb.and([eb('r.status', '=', 'failed'), eb('r.failureReason', 'like', `${COLLECTED_NOT_APPLIED}%`)]),
    eb.and([eb('r.status', '=', 'pending'), eb('r.failureReason', '=', CHARGE_OUTCOME_UNKNOWN)]),
  ]);

const problemOf = (row: Pick<LoanRepaymentsTable, 'status'>): ChargeProblem => (row.status === 'failed' ? 'collected_not_applied' : 'outcome_unknown');

/** The queue, newest first, keyset-paged on `(created_at, id)`. */
export async function chargesNeedingPerson(db: Executor, options: { limit: number; after?: Keyset | undefined }): Promise<ChargeQueueItem[]> {
  let select = db
    .selectFrom('loanRepayments as r')
    .innerJoin('organisations as o', 'o.id', 'r.organisationId')
    .innerJoin('loanMandates as m', 'm.id', 'r.mandateId')
    .leftJoin('opsProposals as x', (j) => j.onRef('x.subject', '=', 'r.id').on('x.kind', '=', 'mandate_charge_apply').on('x.status', '=', 'open'))
    .select(['r.id', 'r.loanId', 'r.organisationId', 'o.name as organisationName', 'r.mode', 'm.provider', 'r.amountKobo', 'r.reference', 'r.chargeReference', 'r.status', 'r.failureReason', 'r.createdAt', 'r.updatedAt', 'x.id as proposalId'])
    .where('r.method', '=', 'mandate')
    .where(needsPerson);
  const after = options.after;
  if (after) select = select.where((eb) => eb.or([eb('r.createdAt', '<', after.at), eb.and([eb('r.createdAt', '=', after.at), eb('r.id', '<', after.id)])]));
  const rows = await select.orderBy('r.createdAt', 'desc').orderBy('r.id', 'desc').limit(options.limit).execute();
  return rows.map(({ status, ...row }) => ({ ...row, amountKobo: Number(row.amountKobo), problem: problemOf({ status }), proposalId: row.proposalId ?? null }));
}

export async function countChargesNeedingPerson(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('loanRepayments as r')
    .select(sql<number | string>`count(*)`.as('count'))
    .where('r.method', '=', 'mandate')
    .where(needsPerson)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

type ChargeServices = Pick<Services, 'db' | 'clock' | 'rails'>;

async function chargeRow(db: Executor, id: string): Promise<LoanRepaymentsTable & { provider: string }> {
  const row = await db
    .selectFrom('loanRepayments as r')
    .innerJoin('loanMandates as m', 'm.id', 'r.mandateId')
    .selectAll('r')
    .select('m.provider')
    .where('r.id', '=', id)
    .where('r.method', '=', 'mandate')
    .executeTakeFirst();
  if (!row) throw notFound('mandate charge');
  return { ...row, amountKobo: Number(row.amountKobo) };
}

function railOf(services: Pick<Services, 'rails'>, row: { mode: Mode; provider: string }): PaymentRail {
  const rail = services.rails.railFor(row.mode, row.provider as RailName);
  if (!rail) throw new AppError('charge_rail_unavailable', `No ${row.mode} rail is configured for ${row.provider}: the charge cannot be looked up from here.`);
  return rail;
}

export interface RailReading {
  /** `not_found`: the rail never took a charge with this reference. */
  status: ProviderChargeStatus | 'not_found';
  chargeReference: string | null;
  failureReason: string | null;
}

/** Reads the charge at its rail: by its charge reference when it has one, else by the platform's reference. A read only. */
async function readAtRail(rail: PaymentRail, row: Pick<LoanRepaymentsTable, 'reference' | 'chargeReference'>): Promise<RailReading> {
  if (row.chargeReference) {
    const read = await rail.readCharge(row.chargeReference);
    return { status: read.status, chargeReference: row.chargeReference, failureReason: read.failureReason };
  }
  const found = await rail.findCharge(row.reference);
  return found ? { status: found.status, chargeReference: found.chargeReference, failureReason: found.failureReason } : { status: 'not_found', chargeReference: null, failureReason: null };
}

async function readOrUnavailable(rail: PaymentRail, row: Pick<LoanRepaymentsTable, 'reference' | 'chargeReference'>): Promise<RailReading> {
  try {
    return await readAtRail(rail, row);
  } catch (error) {
    throw new AppError('charge_rail_unavailable', `The rail did not answer (${(error as Error).message.slice(0, 120)}); try again shortly. Nothing changed.`);
  }
}

/** "Look up at the rail": what the rail says of this charge; nothing is sent and nothing changes but the audit log. */
export async function lookUpCharge(services: ChargeServices, actor: StaffActor, id: string): Promise<{ charge: ChargeQueueItem['id']; problem: ChargeProblem | null; rail: RailReading }> {
  requireStaffPermission(actor, 'money');
  const row = await chargeRow(services.db, id);
  const rail = await readOrUnavailable(railOf(services, row), row);
  const now = services.clock.now();
  await writeStaffAudit(services.db, { staffId: actor.staffId, action: 'charge_looked_up', target: `charge:${row.id} ${row.mode} ${row.reference}: ${rail.status}`, origin: actor.origin, now });
  const open = row.status === 'failed' ? row.failureReason?.startsWith(COLLECTED_NOT_APPLIED) : row.status === 'pending' && row.failureReason === CHARGE_OUTCOME_UNKNOWN;
  return { charge: row.id, problem: open ? problemOf(row) : null, rail };
}

/** The charge's subject for four eyes: its id, organisation and mode. */
export async function chargeSubject(db: Executor, id: string): Promise<{ subject: string; organisationId: string; mode: Mode; stillOpen: boolean }> {
  const row = await chargeRow(db, id);
  return { subject: row.id, organisationId: row.organisationId, mode: row.mode, stillOpen: row.status !== 'completed' };
}

/**
 * Before "apply" on a charge whose outcome is unknown, outside any transaction: reads it at the rail and, only when
 * the rail says it succeeded, records its charge reference on the row (it stays in the queue; the collector's
 * read-back would apply it too, conditionally, so the two never apply it twice). Anything else: 409
 * `charge_not_collected`, nothing changed. A charge collected but not applied needs no reading (the collector read it).
 */
export async function confirmCollectedAtRail(services: Pick<Services, 'db' | 'clock' | 'rails'>, id: string): Promise<void> {
  const row = await chargeRow(services.db, id);
  if (row.status !== 'pending' || row.failureReason !== CHARGE_OUTCOME_UNKNOWN) return;
  const reading = await readOrUnavailable(railOf(services, row), row);
  if (reading.status !== 'succeeded') {
    throw new AppError('charge_not_collected', `The rail says this charge is ${reading.status.replace('_', ' ')}: nothing was applied.`, undefined, { railStatus: reading.status });
  }
  await services.db
    .updateTable('loanRepayments')
    .set({ chargeReference: reading.chargeReference, updatedAt: services.clock.now().toISOString() })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('chargeReference', 'is', null), eb('chargeReference', '=', reading.chargeReference!)]))
    .execute();
}

/**
 * Applies a collected charge to its loan through the collector's code (a settlement quote's waiver first, then the
 * allocation), in `tx`, on the database's evidence only (no rail call inside a transaction): a charge marked
 * `collected_but_not_applied` (the collector read it as successful), or a pending one whose charge reference
 * `confirmCollectedAtRail` recorded after the rail said it succeeded. An applied charge answers `changed: false`.
 */
export async function applyChargeInTx(
  services: LoanWriteContext['platform'],
  tx: Tx,
  actor: { email: string },
  id: string,
  now: Date,
): Promise<{ id: string; loanId: string; amountKobo: number; status: 'completed'; changed: boolean }> {
  const row = await chargeRow(tx, id);
  const answer = (changed: boolean) => ({ id: row.id, loanId: row.loanId, amountKobo: row.amountKobo, status: 'completed' as const, changed });
  if (row.status === 'completed') return answer(false);
  const collected = row.status === 'failed' && Boolean(row.failureReason?.startsWith(COLLECTED_NOT_APPLIED));
  const confirmed = row.status === 'pending' && row.chargeReference !== null;
  if (!collected && !confirmed) {
    throw new AppError('charge_not_collected', `This charge is ${row.status} (${row.failureReason ?? 'no reason'}) with no collection on record: nothing was applied.`);
  }
  const at = now.toISOString();
  const reopened = await tx
    .updateTable('loanRepayments')
    .set({ status: 'pending', failureReason: null, updatedAt: at })
    .where('id', '=', row.id)
    .where('status', '=', row.status)
    .executeTakeFirst();
  if (Number(reopened.numUpdatedRows) !== 1) throw new AppError('charge_not_collected', 'This charge changed meanwhile; re-read the queue.');
  const ctx: LoanWriteContext = { db: tx, platform: services, now, scope: { organisationId: row.organisationId, mode: row.mode }, actor: `staff:${actor.email}` };
  await applySettledQuote(ctx, row.id);
  await applyRepayment(ctx, { loanId: row.loanId, method: 'mandate', amountKobo: row.amountKobo, externalReference: null, existingId: row.id, mandateId: row.mandateId });
  return answer(true);
}

/**
 * "Release": a charge whose outcome was unknown and that took no money (the rail has no charge by its reference, or
 * says it failed) is marked failed with the staff member's reason, so the collector never sends it again. A charge
 * the rail took, or may still take, is refused (409 `charge_collected`). One person, in either mode: no money moves.
 */
export async function releaseCharge(services: ChargeServices, actor: StaffActor, options: { id: string; reason: string }) {
  requireStaffPermission(actor, 'money');
  const row = await chargeRow(services.db, options.id);
  if (!(row.status === 'pending' && row.failureReason === CHARGE_OUTCOME_UNKNOWN)) {
    if (row.status === 'failed' && row.failureReason?.startsWith(RELEASED_PREFIX)) return { id: row.id, status: 'failed' as const, failureReason: row.failureReason, changed: false };
    throw new AppError('charge_collected', `Only a charge whose outcome is unknown may be released; this one is ${row.status} (${row.failureReason ?? 'no reason'}).`);
  }
  const reading = await readOrUnavailable(railOf(services, row), row);
  if (reading.status !== 'not_found' && reading.status !== 'failed') {
    throw new AppError('charge_collected', `The rail says this charge is ${reading.status}: it took (or may still take) money, so it cannot be released. Apply it once it succeeds.`, undefined, { railStatus: reading.status });
  }
  const now = services.clock.now();
  const failureReason = `${RELEASED_PREFIX}: ${options.reason}`.slice(0, 300);
  return inUnitOfWork(services.db, async (tx) => {
    const moved = await tx
      .updateTable('loanRepayments')
      .set({ status: 'failed', failureReason, updatedAt: now.toISOString() })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('failureReason', '=', CHARGE_OUTCOME_UNKNOWN)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new AppError('charge_collected', 'This charge changed meanwhile (a collector picked it up); re-read the queue.');
    await writeStaffAudit(tx, { staffId: actor.staffId, action: 'charge_released', target: `charge:${row.id} ${row.mode} ${row.reference} rail:${reading.status} (${options.reason.slice(0, 120)})`, origin: actor.origin, now });
    return { id: row.id, status: 'failed' as const, failureReason, changed: true };
  });
}
