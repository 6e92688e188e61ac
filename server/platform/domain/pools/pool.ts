import type { Executor } from '../../db/database';
import type { Mode } from '../scope';
import { AppError } from '../errors';
import { newId } from '../ids';
import { kobo, koboToNaira } from '../money';
import { ensureAccount, postTransaction } from '../ledger/ledger';
import { getOrganisation } from '../organisations/organisation';
import { POOL_CODE } from '../products/product';

export interface PoolBalance {
  code: string;
  currency: string;
  balanceKobo: number;
  /** Display mirror of `balanceKobo`; never send it back or compute with it. */
  balanceNaira: number;
}

export interface FundPoolOptions {
  organisationId: string;
  mode: Mode;
  code: string;
  amountKobo: number;
  now: Date;
}

/** Credits a capital pool from the partner's contributed capital (an operator action, never an API one). */
export async function fundPool(db: Executor, options: FundPoolOptions): Promise<PoolBalance> {
  if (!POOL_CODE.test(options.code)) throw new AppError('invalid_request', 'pool: letters, digits, _ and -, at most 50');
  if (!Number.isSafeInteger(options.amountKobo) || options.amountKobo <= 0) {
    throw new AppError('invalid_request', 'amount-kobo: must be a positive whole number of kobo');
  }
  await getOrganisation(db, options.organisationId);
  const owner = { organisationId: options.organisationId, mode: options.mode };
  const pool = await ensureAccount(db, { ...owner, kind: 'capital_pool', code: options.code }, options.now);
  const source = await ensureAccount(db, { ...owner, kind: 'capital_contributions', code: options.code }, options.now);
  await postTransaction(db, {
    ...owner,
    reference: `pool-funding-${newId()}`,
    kind: 'pool_funding',
    description: `capital pool ${options.code} funded`,
    postings: [
      { account: pool, amountKobo: kobo(options.amountKobo) },
      { account: source, amountKobo: -options.amountKobo },
    ],
    now: options.now,
  });
  const balances = await poolBalances(db, options.organisationId, options.mode);
  return balances.find((b) => b.code === options.code)!;
}

export async function poolBalances(db: Executor, organisationId: string, mode: Mode): Promise<PoolBalance[]> {
  const rows = await db
    .selectFrom('ledgerAccounts')
    .select(['code', 'currency', 'balanceKobo'])
    .where('organisationId', '=', organisationId)
    .where('mode', '=', mode)
    .where('kind', '=', 'capital_pool')
    .orderBy('code')
    .execute();
  return rows.map((r) => ({ code: r.code, currency: r.currency, balanceKobo: r.balanceKobo, balanceNaira: koboToNaira(r.balanceKobo) }));
}
