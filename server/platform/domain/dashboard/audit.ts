import type { Executor } from '../../db/database';
import { newId } from '../ids';

/** Where a dashboard request came from, written with every audit row (one type for both realms). */
export type { RequestOrigin } from '../access/realm';
import type { RequestOrigin } from '../access/realm';

export type AuditAction =
  | 'sign_up'
  | 'email_verified'
  | 'sign_in'
  | 'sign_in_failed'
  | 'sign_out'
  | 'sign_out_everywhere'
  | 'password_reset_requested'
  | 'password_reset'
  | 'owner_created'
  | 'organisation_switched'
  | 'member_invited'
  | 'invitation_accepted'
  | 'invitation_revoked'
  | 'member_role_changed'
  | 'member_removed'
  | 'passkey_registered'
  | 'passkey_removed'
  | 'passkey_sign_in'
  | 'passkey_renamed'
  | 'passkey_second_factor_enabled'
  | 'passkey_second_factor_disabled'
  | 'key_created'
  | 'key_rolled'
  | 'key_revoked'
  | 'product_created'
  | 'product_updated'
  | 'product_deactivated'
  | 'pool_funded'
  | 'pool_funding_requested'
  | 'pool_funding_confirmed'
  | 'loan_approved'
  | 'loan_rejected'
  | 'loan_cancelled'
  | 'loan_disbursed'
  | 'review_cleared'
  | 'review_rejected'
  | 'webhook_endpoint_created'
  | 'webhook_endpoint_updated'
  | 'webhook_endpoint_deleted'
  | 'webhook_secret_rotated'
  | 'webhook_secret_revealed'
  | 'webhook_redelivered'
  | 'webhook_test_sent'
  | 'checkout_settings_updated'
  | 'organisation_settings_updated'
  | 'checkout_link_created'
  | 'checkout_link_texted'
  | 'settlements_exported';

/**
 * Appends one row to the dashboard audit log. Called with the transaction of the change it records, so the change
 * and its audit row commit together. Nothing updates or deletes these rows.
 */
export async function writeAudit(
  db: Executor,
  entry: { userId: string | null; organisationId: string | null; action: AuditAction; target?: string | null; origin: RequestOrigin; now: Date },
): Promise<void> {
  await db
    .insertInto('dashboardAuditLog')
    .values({
      id: newId(),
      userId: entry.userId,
      organisationId: entry.organisationId,
      action: entry.action,
      target: entry.target ?? null,
      ip: entry.origin.ip?.slice(0, 100) ?? null,
      userAgent: entry.origin.userAgent?.slice(0, 500) ?? null,
      at: entry.now.toISOString(),
    })
    .execute();
}
