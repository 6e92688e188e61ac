import type { Executor } from '../../db/database';
import type { Scope } from '../scope';
import { koboToNaira } from '../money';

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
