import { z } from 'zod';
import type { Db, Executor } from '../../db/database';
import { AppError } from '../errors';
import { configureOrganisation, getOrganisation, type Organisation } from '../organisations/organisation';
import { QuietHoursTimeSchema, TimeZoneSchema } from '../organisations/quiet-hours';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from './audit';

/**
 * The organisation's settings as its own staff see and set them in the dashboard.
 *
 * Which settings are the partner's own: the default pre-approval product (what `issue-offer` with `{}` uses), whether
 * offers issue automatically when a decision is pushed, where operational notices are e-mailed, and the quiet hours
 * in which no reminder is texted to a borrower (`organisations/quiet-hours.ts`). Everything else
 * the partner API reads is the operator's (the interest cap, pre-approvals on or off, the pre-approval lifetime, the
 * default threshold, live mode): shown here, read-only, changed with the operator CLI (`admin org configure`).
 */
export interface OrganisationSettings {
  defaultPreapprovalProduct: { id: string; code: string; name: string } | null;
  autoIssueOffers: boolean;
  notificationEmail: string | null;
  /** No borrower reminder is texted between these local times (`HH:MM`) in `timeZone`; start equal to end: none. */
  quietHours: { start: string; end: string; timeZone: string };
  /** Set by the operator; read-only here. */
  operator: {
    maxInterestRateBps: number | null;
    preapprovalsEnabled: boolean;
    preapprovalTtlSeconds: number;
    defaultAfterDaysOverdue: number | null;
    liveEnabled: boolean;
  };
}

/** What a partner's owner or admin may change; an absent field stays as it is, `null` clears it. */
export const OrganisationSettingsChange = z
  .object({
    defaultPreapprovalProductId: z.uuid('choose one of your products').nullable(),
    autoIssueOffers: z.boolean(),
    notificationEmail: z.email('enter an e-mail address such as ops@clinic.example').max(254).nullable(),
    quietHoursStart: QuietHoursTimeSchema,
    quietHoursEnd: QuietHoursTimeSchema,
    quietHoursTimeZone: TimeZoneSchema,
  })
  .partial()
  .strict();

export type OrganisationSettingsChange = z.infer<typeof OrganisationSettingsChange>;

async function settingsOf(db: Executor, organisation: Organisation): Promise<OrganisationSettings> {
  const product = organisation.defaultPreapprovalProductId
    ? await db.selectFrom('loanProducts').select(['id', 'code', 'name']).where('id', '=', organisation.defaultPreapprovalProductId).executeTakeFirst()
    : undefined;
  return {
    defaultPreapprovalProduct: product ?? null,
    autoIssueOffers: organisation.autoIssueOffers,
    notificationEmail: organisation.notificationEmail,
    quietHours: { start: organisation.quietHoursStart, end: organisation.quietHoursEnd, timeZone: organisation.quietHoursTimeZone },
    operator: {
      maxInterestRateBps: organisation.maxInterestRateBps,
      preapprovalsEnabled: organisation.preapprovalsEnabled,
      preapprovalTtlSeconds: organisation.preapprovalTtlSeconds,
      defaultAfterDaysOverdue: organisation.defaultAfterDaysOverdue,
      liveEnabled: organisation.liveEnabled,
    },
  };
}

export async function readOrganisationSettings(db: Executor, organisationId: string): Promise<OrganisationSettings> {
  return settingsOf(db, await getOrganisation(db, organisationId));
}

/**
 * Saves the partner's own settings with the operator CLI's `configureOrganisation` (same checks: the default product
 * is one of the organisation's and takes pushed decisions) plus two of the dashboard's: the product must be active,
 * and offers issue automatically only with a default product (otherwise every automatic issue would be refused and
 * every push would wait for a hand). The change and its audit row `organisation_settings_updated` (the target names
 * what changed) commit together; a refused value changes nothing and writes no audit row.
 */
export function saveOrganisationSettings(
  db: Db,
  organisationId: string,
  change: OrganisationSettingsChange,
  by: { userId: string; origin: RequestOrigin; now: Date },
): Promise<OrganisationSettings> {
  return inUnitOfWork(db, async (tx) => {
    const before = await getOrganisation(tx, organisationId);
    const productId = change.defaultPreapprovalProductId === undefined ? before.defaultPreapprovalProductId : change.defaultPreapprovalProductId;
    if (change.defaultPreapprovalProductId) {
      const product = await tx
        .selectFrom('loanProducts')
        .select(['approvalMode', 'isActive'])
        .where('id', '=', change.defaultPreapprovalProductId)
        .where('organisationId', '=', organisationId)
        .executeTakeFirst();
      if (!product) throw new AppError('invalid_request', 'defaultPreapprovalProductId: there is no such product in your organisation', undefined, { field: 'defaultPreapprovalProductId' });
      if (product.approvalMode !== 'partner_pushed') {
        throw new AppError('invalid_request', 'defaultPreapprovalProductId: choose a product whose approval mode is "partner pushed" (its terms come from the decision you push)', undefined, { field: 'defaultPreapprovalProductId' });
      }
      if (!product.isActive) throw new AppError('invalid_request', 'defaultPreapprovalProductId: this product is deactivated; activate it first', undefined, { field: 'defaultPreapprovalProductId' });
    }
    const autoIssue = change.autoIssueOffers ?? before.autoIssueOffers;
    if (autoIssue && !productId) {
      throw new AppError('invalid_request', 'autoIssueOffers: choose a default pre-approval product first: automatic offers are priced with it', undefined, { field: 'autoIssueOffers' });
    }
    const changed = (Object.keys(change) as (keyof OrganisationSettingsChange)[]).filter((key) => change[key] !== undefined && change[key] !== before[key]);
    if (changed.length === 0) return settingsOf(tx, before);
    const after = await configureOrganisation(tx, organisationId, Object.fromEntries(changed.map((key) => [key, change[key]])), by.now);
    await writeAudit(tx, { userId: by.userId, organisationId, action: 'organisation_settings_updated', target: `organisation-settings ${changed.join(',')}`, origin: by.origin, now: by.now });
    return settingsOf(tx, after);
  });
}
