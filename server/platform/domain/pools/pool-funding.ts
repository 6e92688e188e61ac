import type { Db, Executor } from '../../db/database';
import type { PoolFundingNoticesTable } from '../../db/schema';
import type { Mode, Scope } from '../scope';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import { randomBytes } from '../random';
import { koboToNaira } from '../money';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from '../dashboard/audit';
import { getOrganisation } from '../organisations/organisation';
import { POOL_CODE } from '../products/product';
import { fundPool, type PoolBalance } from './pool';

/**
 * Funding a capital pool from the dashboard (issue 18). Test mode is sandbox money: the pool is credited at once
 * (`fundPool`, the CLI's `pool fund`). Live mode is real money, which we only know has arrived once it is in our bank
 * account: the dashboard records a funding notice (amount, a bank-transfer reference generated here, `pending`); the
 * partner transfers quoting the reference; an operator who sees the transfer runs
 * `admin pool confirm-funding --reference REF`, which marks the notice `confirmed` and credits the pool in one
 * transaction. Every step writes its audit row in the transaction of the change: `pool_funded` (test, and with the
 * confirmation), `pool_funding_requested`, `pool_funding_confirmed`. Funding only ever credits a pool.
 */
export interface FundingNotice {
  id: string;
  mode: Mode;
  poolCode: string;
  amountKobo: number;
  /** Display mirror of `amountKobo`. */
  amountNaira: number;
  reference: string;
  status: 'pending' | 'confirmed';
  createdAt: string;
  confirmedAt: string | null;
}

export type DashboardFunding = { kind: 'funded'; balance: PoolBalance } | { kind: 'notice'; notice: FundingNotice };

export interface FundingActor {
  userId: string;
  origin: RequestOrigin;
}

/** Who the audit log names for an operator's CLI confirmation. */
const OPERATOR_ORIGIN: RequestOrigin = { ip: null, userAgent: 'admin CLI (pool confirm-funding)' };

function toNotice(row: PoolFundingNoticesTable): FundingNotice {
  const amountKobo = Number(row.amountKobo);
  return {
    id: row.id,
    mode: row.mode,
    poolCode: row.poolCode,
    amountKobo,
    amountNaira: koboToNaira(amountKobo),
    reference: row.reference,
    status: row.status as FundingNotice['status'],
    createdAt: row.createdAt,
    confirmedAt: row.confirmedAt,
  };
}

/** Crockford base32 without I, L, O, U: unambiguous when read over the phone or typed into a banking app. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export function fundingReference(): string {
  const bytes = randomBytes(10);
  return `PF-${Array.from(bytes, (b) => ALPHABET[b & 31]).join('')}`;
}

function checkFunding(code: string, amountKobo: number): void {
  if (!POOL_CODE.test(code)) throw new AppError('invalid_request', 'pool: letters, digits, _ and -, at most 50');
  if (!Number.isSafeInteger(amountKobo) || amountKobo <= 0) throw new AppError('invalid_request', 'amountKobo: must be a positive whole number of kobo');
}

/** The dashboard's "Fund": instant in test mode, a pending funding notice in live mode. */
export async function fundFromDashboard(
  db: Db,
  options: Scope & { code: string; amountKobo: number; actor: FundingActor; now: Date },
): Promise<DashboardFunding> {
  checkFunding(options.code, options.amountKobo);
  const { organisationId, mode, code, amountKobo, actor, now } = options;
  return inUnitOfWork(db, async (tx) => {
    if (mode === 'test') {
      const balance = await fundPool(tx, { organisationId, mode, code, amountKobo, now });
      await writeAudit(tx, { userId: actor.userId, organisationId, action: 'pool_funded', target: `${mode}:${code}:${amountKobo}`, origin: actor.origin, now });
      return { kind: 'funded', balance } as const;
    }
    await getOrganisation(tx, organisationId);
    const row: PoolFundingNoticesTable = {
      id: newId(),
      organisationId,
      mode,
      poolCode: code,
      amountKobo,
      reference: fundingReference(),
      status: 'pending',
      requestedBy: actor.userId,
      createdAt: now.toISOString(),
      confirmedAt: null,
    };
    await tx.insertInto('poolFundingNotices').values(row).execute();
    await writeAudit(tx, { userId: actor.userId, organisationId, action: 'pool_funding_requested', target: row.reference, origin: actor.origin, now });
    return { kind: 'notice', notice: toNotice(row) } as const;
  });
}

/**
 * An operator saw the transfer quoting `reference` arrive: credits the pool and marks the notice confirmed, once.
 * The notice moves from `pending` in a conditional UPDATE, so two confirmations at once credit the pool once; a
 * repeat answers `changed: false` and credits nothing.
 */
export async function confirmPoolFunding(
  db: Db,
  options: { reference: string; now: Date },
): Promise<{ notice: FundingNotice; balance: PoolBalance | null; changed: boolean }> {
  const reference = options.reference.trim().toUpperCase();
  return inUnitOfWork(db, async (tx) => {
    const confirmedAt = options.now.toISOString();
    const moved = await tx
      .updateTable('poolFundingNotices')
      .set({ status: 'confirmed', confirmedAt })
      .where('reference', '=', reference)
      .where('status', '=', 'pending')
      .returningAll()
      .executeTakeFirst();
    if (!moved) {
      const existing = await tx.selectFrom('poolFundingNotices').selectAll().where('reference', '=', reference).executeTakeFirst();
      if (!existing) throw notFound('pool funding notice');
      return { notice: toNotice(existing), balance: null, changed: false };
    }
    const notice = toNotice(moved);
    const balance = await fundPool(tx, {
      organisationId: moved.organisationId,
      mode: moved.mode,
      code: moved.poolCode,
      amountKobo: notice.amountKobo,
      now: options.now,
    });
    const audit = { userId: null, organisationId: moved.organisationId, origin: OPERATOR_ORIGIN, now: options.now };
    await writeAudit(tx, { ...audit, action: 'pool_funding_confirmed', target: reference });
    await writeAudit(tx, { ...audit, action: 'pool_funded', target: `${moved.mode}:${moved.poolCode}:${notice.amountKobo}` });
    return { notice, balance, changed: true };
  });
}

/** The newest funding notices of the organisation in `mode` (pending and confirmed). */
export async function listFundingNotices(db: Executor, scope: Scope, limit: number): Promise<FundingNotice[]> {
  const rows = await db
    .selectFrom('poolFundingNotices')
    .selectAll()
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toNotice);
}

export interface PoolMovement {
  id: string;
  poolCode: string;
  /** Signed: positive credits the pool (funding, repaid principal), negative debits it (a disbursement). */
  amountKobo: number;
  amountNaira: number;
  kind: string;
  reference: string;
  description: string | null;
  createdAt: string;
}

/** A keyset page (newest first) of the postings to the organisation's capital pools in `mode`; `limit + 1` rows. */
export async function poolMovements(
  db: Executor,
  scope: Scope,
  options: { code?: string; after?: { at: string; id: string }; limit: number },
): Promise<PoolMovement[]> {
  let query = db
    .selectFrom('ledgerPostings as p')
    .innerJoin('ledgerAccounts as a', 'a.id', 'p.accountId')
    .innerJoin('ledgerTransactions as t', 't.id', 'p.transactionId')
    .select(['p.id', 'a.code as poolCode', 'p.amountKobo', 't.kind', 't.reference', 't.description', 'p.createdAt'])
    .where('a.organisationId', '=', scope.organisationId)
    .where('a.mode', '=', scope.mode)
    .where('a.kind', '=', 'capital_pool');
  if (options.code) query = query.where('a.code', '=', options.code);
  const after = options.after;
  if (after) query = query.where((eb) => eb.or([eb('p.createdAt', '<', after.at), eb.and([eb('p.createdAt', '=', after.at), eb('p.id', '<', after.id)])]));
  const rows = await query.orderBy('p.createdAt', 'desc').orderBy('p.id', 'desc').limit(options.limit + 1).execute();
  return rows.map((r) => ({ ...r, amountKobo: Number(r.amountKobo), amountNaira: koboToNaira(Number(r.amountKobo)) }));
}
