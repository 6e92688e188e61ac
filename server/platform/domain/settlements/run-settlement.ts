import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema';
import type { Db, Executor } from '../../db/database';
import { toJson } from '../../db/database';
import type { Mode, Scope } from '../scope';
import { AppError } from '../errors';
import { newId } from '../ids';
import { ensureAccount, postTransaction, type Posting } from '../ledger/ledger';
import { FINANCING_LENDER_ID } from '../financing/financing-lender';
import { getOrganisation } from '../organisations/organisation';
import { toStatement, type SettlementLine, type SettlementStatement } from './settlement';
import { inUnitOfWork } from '../unit-of-work';

export interface RunSettlementOptions {
  organisationId: string;
  mode: Mode;
  /** End of the period (exclusive); the start is the previous statement's end (or the beginning). */
  until: Date;
  now: Date;
}

const EPOCH = '1970-01-01T00:00:00.000Z';

/**
 * The repayments a statement for the period sweeps. One definition for the rows summed and the rows
 * stamped, which must be the same rows: completed before `until`, not swept yet, not `wallet` (undrawn
 * credit is not a collection), and not patient financing (those loans are the service's own: their
 * interest and fees are not the partner's to be settled).
 */
const unsettled = (scope: Scope, until: string) => (eb: ExpressionBuilder<Database, 'loanRepayments'>) =>
  eb.and([
    ...(isLender(scope)
      ? [eb('loanId', 'in', eb.selectFrom('financingApplications').select('id'))]
      : [eb('organisationId', '=', scope.organisationId), eb('loanId', 'not in', eb.selectFrom('financingApplications').select('id'))]),
    eb('mode', '=', scope.mode),
    eb('status', '=', 'completed'),
    eb('settlementId', 'is', null),
    eb('completedAt', '<', until),
    eb('method', '<>', 'wallet'),
  ]);

/**
 * The service's own settlement (the fixed financing lender): its statement sweeps the interest and fees of every
 * patient-financing loan (whichever partner's) to the service's revenue; a partner's never includes them.
 */
const isLender = (scope: Scope) => scope.organisationId === FINANCING_LENDER_ID;

/** Where a statement's income goes: the partner's organisation wallet, or the service's revenue lines. */
async function destinations(trx: Executor, scope: Scope, fee: number, interest: number, now: Date): Promise<Posting[]> {
  if (isLender(scope)) {
    return [
      { account: await ensureAccount(trx, { ...scope, kind: 'platform_revenue', code: FINANCING_FEE_REVENUE }, now), amountKobo: -fee },
      { account: await ensureAccount(trx, { ...scope, kind: 'platform_revenue', code: FINANCING_INTEREST_REVENUE }, now), amountKobo: -interest },
    ];
  }
  return [{ account: await ensureAccount(trx, { ...scope, kind: 'organisation_wallet', code: scope.organisationId }, now), amountKobo: -(fee + interest) }];
}

/** The service's revenue lines (`platform_revenue` codes in the lender's scope) a lender statement sweeps to. */
export const FINANCING_INTEREST_REVENUE = 'financing_interest';
export const FINANCING_FEE_REVENUE = 'financing_fees';

/**
 * For the service (`--org` the financing lender): the same, over every patient-financing loan's repayments, from the
 * service's income accounts to its revenue (`platform_revenue` financing_interest / financing_fees); run by the daily
 * settlement worker like any partner's, or `admin settlement run --org <lender id>`.
 *
 * Sweeps the fee and interest the partner earned from repayments completed before `until` (and
 * not swept yet) from the income accounts to its organisation wallet, and writes a statement with
 * one line per loan. Idempotent for a period: a run whose period is already covered returns the
 * existing statement, and a repayment is swept at most once (it is stamped with the statement).
 * A period with nothing to sweep gets a `skipped` statement. Method `wallet` (undrawn credit swept
 * back to the pool) is not a collection: it earns nothing, is not counted and is never stamped.
 */
export async function runSettlement(db: Db, options: RunSettlementOptions): Promise<{ statement: SettlementStatement; created: boolean }> {
  await getOrganisation(db, options.organisationId);
  const scope = { organisationId: options.organisationId, mode: options.mode };
  const until = options.until.toISOString();
  if (until > options.now.toISOString()) throw new AppError('invalid_request', 'until: cannot be in the future');
  return inUnitOfWork(db, async (trx) => {
    // One run per organisation at a time: the row lock makes a concurrent run wait, then see this
    // run's statement as the start of its period (PostgreSQL; SQLite serialises writers anyway).
    await trx.updateTable('organisations').set({ updatedAt: sql`updated_at` }).where('id', '=', scope.organisationId).execute();
    const last = await trx
      .selectFrom('settlementStatements')
      .selectAll()
      .where('organisationId', '=', scope.organisationId)
      .where('mode', '=', scope.mode)
      // A failed run's record covers nothing: the next run's period starts where the last good statement ended.
      .where('status', '!=', 'failed')
      .orderBy('periodEnd', 'desc')
      .executeTakeFirst();
    if (last && last.periodEnd >= until) return { statement: toStatement(last), created: false };
    // The failed run of this very period, if any, becomes this statement (its id kept: the retry is its own run).
    const failed = await trx
      .selectFrom('settlementStatements')
      .select(['id', 'createdAt'])
      .where('organisationId', '=', scope.organisationId)
      .where('mode', '=', scope.mode)
      .where('periodEnd', '=', until)
      .where('status', '=', 'failed')
      .executeTakeFirst();
    const periodStart = last?.periodEnd ?? EPOCH;

    const lines = await trx
      .selectFrom('loanRepayments')
      .select([
        'loanId',
        sql<number>`sum(fee_portion_kobo)`.as('feeKobo'),
        sql<number>`sum(interest_portion_kobo)`.as('interestKobo'),
        sql<number>`count(*)`.as('repayments'),
      ])
      .where(unsettled(scope, until))
      .groupBy('loanId')
      .orderBy('loanId')
      .execute();
    const swept: SettlementLine[] = lines
      .map((l) => ({ loanId: l.loanId, feeKobo: Number(l.feeKobo), interestKobo: Number(l.interestKobo), repayments: Number(l.repayments) }))
      .filter((l) => l.feeKobo + l.interestKobo > 0);
    const fee = swept.reduce((s, l) => s + l.feeKobo, 0);
    const interest = swept.reduce((s, l) => s + l.interestKobo, 0);
    const id = failed?.id ?? newId();
    const at = options.now.toISOString();
    let transferReference: string | null = null;
    if (fee + interest > 0) {
      transferReference = `STL-${id}`;
      const feeIncome = await ensureAccount(trx, { ...scope, kind: 'fee_income', code: scope.organisationId }, options.now);
      const interestIncome = await ensureAccount(trx, { ...scope, kind: 'interest_income', code: scope.organisationId }, options.now);
      await postTransaction(trx, {
        ...scope,
        reference: transferReference,
        kind: 'settlement',
        description: `settlement ${periodStart} – ${until}`,
        postings: [
          { account: feeIncome, amountKobo: fee },
          { account: interestIncome, amountKobo: interest },
          ...(await destinations(trx, scope, fee, interest, options.now)),
        ].filter((p) => p.amountKobo !== 0),
        now: options.now,
      });
    }
    const row = {
      id,
      ...scope,
      periodStart,
      periodEnd: until,
      feeSweptKobo: fee,
      interestSweptKobo: interest,
      totalSweptKobo: fee + interest,
      status: fee + interest > 0 ? 'completed' : 'skipped',
      failureReason: null,
      transferReference,
      lines: toJson(swept),
      createdAt: failed?.createdAt ?? at,
      updatedAt: at,
    };
    if (failed) await trx.updateTable('settlementStatements').set(row).where('id', '=', failed.id).execute();
    else await trx.insertInto('settlementStatements').values(row).execute();
    // Stamp every repayment of the period, zero-income ones too, so none is considered again.
    await trx
      .updateTable('loanRepayments')
      .set({ settlementId: id })
      .where(unsettled(scope, until))
      .execute();
    return { statement: toStatement(row), created: true };
  });
}

/**
 * Records that the run of a period failed (the daily worker, or a retry from the operations console): a `failed`
 * statement for `(organisation, mode, until)` with the reason and no amounts, which the console's queue lists and
 * the partner's statements show. Nothing was swept. A later run of the same period replaces it (same id); a later
 * day's run covers its repayments (the record stays, as history). A period already settled records nothing.
 */
export async function recordSettlementFailure(db: Db, options: RunSettlementOptions & { reason: string }): Promise<void> {
  const scope = { organisationId: options.organisationId, mode: options.mode };
  const until = options.until.toISOString();
  const at = options.now.toISOString();
  const reason = options.reason.slice(0, 500);
  await inUnitOfWork(db, async (trx) => {
    const existing = await trx
      .selectFrom('settlementStatements')
      .select(['id', 'status'])
      .where('organisationId', '=', scope.organisationId)
      .where('mode', '=', scope.mode)
      .where('periodEnd', '=', until)
      .executeTakeFirst();
    if (existing) {
      if (existing.status === 'failed') await trx.updateTable('settlementStatements').set({ failureReason: reason, updatedAt: at }).where('id', '=', existing.id).execute();
      return;
    }
    const last = await trx
      .selectFrom('settlementStatements')
      .select('periodEnd')
      .where('organisationId', '=', scope.organisationId)
      .where('mode', '=', scope.mode)
      .where('status', '!=', 'failed')
      .orderBy('periodEnd', 'desc')
      .executeTakeFirst();
    if (last && last.periodEnd >= until) return;
    await trx
      .insertInto('settlementStatements')
      .values({
        id: newId(),
        ...scope,
        periodStart: last?.periodEnd ?? EPOCH,
        periodEnd: until,
        feeSweptKobo: 0,
        interestSweptKobo: 0,
        totalSweptKobo: 0,
        status: 'failed',
        failureReason: reason,
        transferReference: null,
        lines: toJson([]),
        createdAt: at,
        updatedAt: at,
      })
      .execute();
  });
}

/**
 * The statements a periodic run owes for the period ending `until`: every organisation and mode with unswept repayments
 * of its own loans, and the service (the financing lender) for every mode with unswept patient-financing repayments,
 * which settle on the service's statement, never the partner's.
 */
export async function settlementsDue(db: Executor, until: Date): Promise<Scope[]> {
  const unswept = db
    .selectFrom('loanRepayments')
    .where('settlementId', 'is', null)
    .where('status', '=', 'completed')
    .where('completedAt', '<', until.toISOString());
  const financing = db.selectFrom('financingApplications').select('id');
  const partners = await unswept.select(['organisationId', 'mode']).distinct().where('loanId', 'not in', financing).execute();
  const lender = await unswept.select('mode').distinct().where('loanId', 'in', financing).execute();
  return [...partners, ...lender.map(({ mode }) => ({ organisationId: FINANCING_LENDER_ID, mode }))];
}
