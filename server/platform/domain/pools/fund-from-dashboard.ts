import type { Db } from '../../db/database';
import type { PoolFundingNoticesTable } from '../../db/schema';
import type { Scope } from '../scope';
import { AppError } from '../errors';
import { newId } from '../ids';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from '../dashboard/audit';
import { getOrganisation } from '../organisations/organisation';
import { POOL_CODE } from '../products/product';
import { fundPool, type PoolBalance } from './pool';
import { fundingReference, toNotice, type FundingNotice } from './funding-notice';

export type DashboardFunding = { kind: 'funded'; balance: PoolBalance } | { kind: 'notice'; notice: FundingNotice };

/** The signed-in dashboard user who funds, and where the request came from (for the audit row). */
export interface FundingActor {
  userId: string;
  origin: RequestOrigin;
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

