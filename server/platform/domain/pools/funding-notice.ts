import type { Executor } from '../../db/database';
import type { PoolFundingNoticesTable } from '../../db/schema';
import type { Mode, Scope } from '../scope';
import { randomBytes } from '../random';
import { koboToNaira } from '../money';

/**
 * Funding a capital pool from the dashboard. Test mode is sandbox money: the pool is credited at once
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

export function toNotice(row: PoolFundingNoticesTable): FundingNotice {
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

