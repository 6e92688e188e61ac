import { z } from 'zod';
import type { Executor } from '../../db/database';
import type { OrganisationsTable } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import { bumpCredentialEpoch, inTransaction } from '../api-keys/credential-epoch';
import { DEFAULT_QUIET_HOURS, QuietHoursTimeSchema, TimeZoneSchema } from './quiet-hours';

export interface Organisation {
  id: string;
  name: string;
  /** Loan Tenant permission: every `/v1` route needs it. */
  loanTenant: boolean;
  /** Pre-Approved Lending permission: the pre-approval routes need it. */
  preapprovedLending: boolean;
  preapprovalsEnabled: boolean;
  autoIssueOffers: boolean;
  preapprovalTtlSeconds: number;
  maxInterestRateBps: number | null;
  defaultPreapprovalProductId: string | null;
  disabled: boolean;
  /** Days overdue before a loan defaults; null = the platform default (DEFAULT_AFTER_DAYS_OVERDUE). */
  defaultAfterDaysOverdue: number | null;
  /** Where operational notices are e-mailed (a webhook endpoint disabled after repeated failures). */
  notificationEmail: string | null;
  /** Live keys work only when true: self-serve organisations start false until an operator runs `admin org enable-live`. */
  liveEnabled: boolean;
  /** No borrower reminder is texted between these local times (`HH:MM`, in `quietHoursTimeZone`); default 21:00–08:00 Africa/Lagos. */
  quietHoursStart: string;
  quietHoursEnd: string;
  quietHoursTimeZone: string;
  createdAt: string;
  updatedAt: string;
}

export const DEFAULT_PREAPPROVAL_TTL_SECONDS = 7 * 24 * 3600;

type QuietHoursColumns = 'quietHoursStart' | 'quietHoursEnd' | 'quietHoursTimeZone';
/** An organisation row as read (the quiet hours have their values). */
type OrganisationRow = Omit<OrganisationsTable, QuietHoursColumns> & Record<QuietHoursColumns, string>;

export function toOrganisation(row: OrganisationRow): Organisation {
  return {
    id: row.id,
    name: row.name,
    loanTenant: Boolean(row.loanTenant),
    preapprovedLending: Boolean(row.preapprovedLending),
    preapprovalsEnabled: Boolean(row.preapprovalsEnabled),
    autoIssueOffers: Boolean(row.autoIssueOffers),
    preapprovalTtlSeconds: row.preapprovalTtlSeconds,
    maxInterestRateBps: row.maxInterestRateBps,
    defaultPreapprovalProductId: row.defaultPreapprovalProductId,
    disabled: Boolean(row.disabled),
    defaultAfterDaysOverdue: row.defaultAfterDaysOverdue,
    notificationEmail: row.notificationEmail,
    liveEnabled: Boolean(row.liveEnabled),
    quietHoursStart: row.quietHoursStart,
    quietHoursEnd: row.quietHoursEnd,
    quietHoursTimeZone: row.quietHoursTimeZone,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function findOrganisation(db: Executor, id: string): Promise<Organisation | undefined> {
  const row = await db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toOrganisation(row);
}

export async function getOrganisation(db: Executor, id: string): Promise<Organisation> {
  const org = await findOrganisation(db, id);
  if (!org) throw notFound('organisation');
  return org;
}

export interface CreateOrganisationOptions {
  name: string;
  loanTenant?: boolean;
  preapprovedLending?: boolean;
  /** false for self-serve sign-up: live keys are refused until an operator enables live mode. */
  liveEnabled?: boolean;
  now: Date;
}

/**
 * A new organisation row with the tenant defaults: pre-approvals on, offers issued by hand, the default
 * pre-approval lifetime, no rate cap, enabled. Every organisation (a partner, or the service itself as
 * the patient-financing lender) is built here.
 */
export function newOrganisationRow(
  options: CreateOrganisationOptions & { id?: string; preapprovalsEnabled?: boolean; preapprovalTtlSeconds?: number },
): Omit<OrganisationsTable, QuietHoursColumns> {
  const at = options.now.toISOString();
  return {
    id: options.id ?? newId(),
    name: options.name,
    loanTenant: options.loanTenant ?? true,
    preapprovedLending: options.preapprovedLending ?? true,
    preapprovalsEnabled: options.preapprovalsEnabled ?? true,
    autoIssueOffers: false,
    preapprovalTtlSeconds: options.preapprovalTtlSeconds ?? DEFAULT_PREAPPROVAL_TTL_SECONDS,
    maxInterestRateBps: null,
    defaultPreapprovalProductId: null,
    disabled: false,
    defaultAfterDaysOverdue: null,
    notificationEmail: null,
    liveEnabled: options.liveEnabled ?? true,
    createdAt: at,
    updatedAt: at,
  };
}

export async function createOrganisation(db: Executor, options: CreateOrganisationOptions): Promise<Organisation> {
  const name = options.name.trim();
  if (name.length < 1 || name.length > 150) throw new AppError('invalid_request', 'name must be 1-150 characters');
  const row = newOrganisationRow({ ...options, name });
  await db.insertInto('organisations').values(row).execute();
  // The quiet hours took their columns' defaults (migration 0060), which are these.
  return toOrganisation({ ...row, quietHoursStart: DEFAULT_QUIET_HOURS.start, quietHoursEnd: DEFAULT_QUIET_HOURS.end, quietHoursTimeZone: DEFAULT_QUIET_HOURS.timeZone });
}

/** Tenant settings an operator may change (`admin org configure`). */
export const TenantSettingsSchema = z
  .object({
    preapprovalsEnabled: z.boolean(),
    autoIssueOffers: z.boolean(),
    preapprovalTtlSeconds: z.number().int().min(60).max(365 * 24 * 3600),
    maxInterestRateBps: z.number().int().min(0).max(100_000).nullable(),
    defaultPreapprovalProductId: z.uuid().nullable(),
    disabled: z.boolean(),
    defaultAfterDaysOverdue: z.number().int().min(1).max(3650).nullable(),
    notificationEmail: z.email().max(254).nullable(),
    loanTenant: z.boolean(),
    preapprovedLending: z.boolean(),
    liveEnabled: z.boolean(),
    /** Quiet hours for borrower reminders (`borrower-loans/quiet-hours.ts`); equal start and end: none. */
    quietHoursStart: QuietHoursTimeSchema,
    quietHoursEnd: QuietHoursTimeSchema,
    quietHoursTimeZone: TimeZoneSchema,
  })
  .partial()
  .strict();

export type TenantSettings = z.infer<typeof TenantSettingsSchema>;

export async function configureOrganisation(
  db: Executor,
  id: string,
  settings: TenantSettings,
  now: Date,
): Promise<Organisation> {
  await getOrganisation(db, id);
  if (settings.defaultPreapprovalProductId) {
    const product = await db
      .selectFrom('loanProducts')
      .select(['approvalMode'])
      .where('id', '=', settings.defaultPreapprovalProductId)
      .where('organisationId', '=', id)
      .executeTakeFirst();
    if (!product) throw new AppError('unprocessable', 'defaultPreapprovalProductId: no such product in this organisation');
    if (product.approvalMode !== 'partner_pushed') {
      throw new AppError('unprocessable', 'defaultPreapprovalProductId: the product approval mode must be partner_pushed');
    }
  }
  if (Object.keys(settings).length > 0) {
    // Cached credentials carry the organisation (disabled, permissions): the epoch moves with the change.
    await inTransaction(db, async (trx) => {
      await trx
        .updateTable('organisations')
        .set({ ...settings, updatedAt: now.toISOString() })
        .where('id', '=', id)
        .execute();
      await bumpCredentialEpoch(trx, now);
    });
  }
  return getOrganisation(db, id);
}
