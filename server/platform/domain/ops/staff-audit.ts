import type { Executor } from '../../db/database';
import { newId } from '../ids';
import type { RequestOrigin } from '../access/realm';

/**
 * What the staff audit log records: every action of a staff member in the console or the operator's shell (sign-in,
 * passkeys, invitations, proposals and their approvals or refusals, queue decisions). Append-only.
 */
export type StaffAuditAction =
  | 'staff_invited'
  | 'invitation_accepted'
  | 'sign_in'
  | 'sign_in_failed'
  | 'sign_out'
  | 'passkey_registered'
  | 'passkey_removed'
  | 'passkey_renamed'
  | 'passkey_sign_in'
  | 'passkey_second_factor_enabled'
  | 'passkey_second_factor_disabled'
  | 'proposal_created'
  | 'proposal_approved'
  | 'proposal_refused'
  | 'payout_settled'
  | 'payout_rejected'
  | 'pool_funding_confirmed'
  | 'loan_written_off'
  | 'live_enabled'
  | 'review_cleared'
  | 'review_rejected'
  | 'webhook_endpoint_reenabled'
  | 'charge_looked_up'
  | 'charge_applied'
  | 'charge_released'
  | 'insurance_policy_recorded'
  | 'settlement_retried'
  | 'live_refused';

/** Who did it from where: the console's request, or the operator's shell (`admin … --staff E`). */
export const CLI_ORIGIN: RequestOrigin = { ip: null, userAgent: 'admin CLI' };

/** Appends one row, in the transaction of the change it records. */
export async function writeStaffAudit(
  db: Executor,
  entry: { staffId: string | null; action: StaffAuditAction; target: string | null; origin: RequestOrigin; now: Date },
): Promise<void> {
  await db
    .insertInto('staffAuditLog')
    .values({
      id: newId(),
      staffId: entry.staffId,
      action: entry.action,
      target: entry.target?.slice(0, 500) ?? null,
      ip: entry.origin.ip?.slice(0, 100) ?? null,
      userAgent: entry.origin.userAgent?.slice(0, 500) ?? null,
      at: entry.now.toISOString(),
    })
    .execute();
}

export interface StaffAuditEntry {
  id: string;
  at: string;
  action: string;
  target: string | null;
  staffId: string | null;
  staffEmail: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** The log newest first, keyset-paged on `(at, id)`. */
export async function listStaffAudit(db: Executor, options: { limit: number; after?: { at: string; id: string } | undefined }): Promise<StaffAuditEntry[]> {
  let select = db
    .selectFrom('staffAuditLog as a')
    .leftJoin('staffAccounts as s', 's.id', 'a.staffId')
    .select(['a.id', 'a.at', 'a.action', 'a.target', 'a.staffId', 's.email as staffEmail', 'a.ip', 'a.userAgent']);
  const after = options.after;
  if (after) select = select.where((eb) => eb.or([eb('a.at', '<', after.at), eb.and([eb('a.at', '=', after.at), eb('a.id', '<', after.id)])]));
  return select.orderBy('a.at', 'desc').orderBy('a.id', 'desc').limit(options.limit).execute();
}
