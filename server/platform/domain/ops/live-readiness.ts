import type { Executor } from '../../db/database';
import type { Services } from '../services';
import { getOrganisation } from '../organisations/organisation';
import { inUnitOfWork } from '../unit-of-work';
import { refuseProposal, type StaffActor } from './four-eyes';
import type { Keyset } from './queues';
import { writeStaffAudit } from './staff-audit';
import { requireStaffPermission } from './staff-permissions';

/**
 * Organisations that may ask for live mode. There is no "asking" state: the queue is every organisation not yet
 * live (and not disabled) with at least one owner whose e-mail is verified, each with a checklist read from the data
 * (any mode, since the partner prepares in test mode): a verified owner e-mail, a loan product, a funded capital
 * pool (a pool account with money in it), a webhook endpoint, checkout branding (a display name or a logo).
 * "Enable" is the four-eyes `live_enable` proposal (`four-eyes.ts`); "refuse" is a refusal of that proposal, with
 * its reason in the staff audit log (the partner's dashboard has no place for it yet).
 */
export interface LiveReadinessItem {
  id: string;
  name: string;
  createdAt: string;
  checklist: { verifiedEmail: boolean; product: boolean; fundedPool: boolean; webhookEndpoint: boolean; branding: boolean };
  ready: boolean;
  /** The open `live_enable` proposal, if any. */
  proposalId: string | null;
}

const candidates = (db: Executor) =>
  db
    .selectFrom('organisations as o')
    .where('o.liveEnabled', '=', false)
    .where('o.disabled', '=', false)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('dashboardMemberships as m')
          .innerJoin('dashboardUsers as u', 'u.id', 'm.userId')
          .select('m.userId')
          .whereRef('m.organisationId', '=', 'o.id')
          .where('m.role', '=', 'owner')
          .where('u.emailVerifiedAt', 'is not', null),
      ),
    );

export async function organisationsForLive(db: Executor, options: { limit: number; after?: Keyset | undefined }): Promise<LiveReadinessItem[]> {
  let select = candidates(db)
    .leftJoin('opsProposals as x', (j) => j.onRef('x.subject', '=', 'o.id').on('x.kind', '=', 'live_enable').on('x.status', '=', 'open'))
    .select(['o.id', 'o.name', 'o.createdAt', 'x.id as proposalId'])
    .select(({ exists, selectFrom }: any) => [
      exists(selectFrom('loanProducts as p').select('p.id').whereRef('p.organisationId', '=', 'o.id')).as('product'),
      exists(selectFrom('ledgerAccounts as a').select('a.id').whereRef('a.organisationId', '=', 'o.id').where('a.kind', '=', 'capital_pool').where('a.balanceKobo', '!=', 0)).as('fundedPool'),
      exists(selectFrom('webhookEndpoints as w').select('w.id').whereRef('w.organisationId', '=', 'o.id')).as('webhookEndpoint'),
      exists(
        selectFrom('checkoutSettings as c')
          .select('c.organisationId')
          .whereRef('c.organisationId', '=', 'o.id')
          .where((inner: any) => inner.or([inner('c.displayName', 'is not', null), inner('c.logoUrl', 'is not', null)])),
      ).as('branding'),
    ]);
  const after = options.after;
  if (after) select = select.where((eb) => eb.or([eb('o.createdAt', '<', after.at), eb.and([eb('o.createdAt', '=', after.at), eb('o.id', '<', after.id)])]));
  const rows = (await select.orderBy('o.createdAt', 'desc').orderBy('o.id', 'desc').limit(options.limit).execute()) as Array<Record<string, unknown>>;
  return rows.map((row) => {
    const checklist = { verifiedEmail: true, product: Boolean(Number(row.product)), fundedPool: Boolean(Number(row.fundedPool)), webhookEndpoint: Boolean(Number(row.webhookEndpoint)), branding: Boolean(Number(row.branding)) };
    return { id: String(row.id), name: String(row.name), createdAt: String(row.createdAt), checklist, ready: Object.values(checklist).every(Boolean), proposalId: (row.proposalId as string | null) ?? null };
  });
}

export async function countOrganisationsForLive(db: Executor): Promise<number> {
  const row = await candidates(db).select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirst();
  return Number(row?.count ?? 0);
}

/**
 * "Refuse": an admin declines to enable live mode for now, with a reason. An open `live_enable` proposal is refused
 * with it; the reason is recorded in the staff audit log (`live_refused`) and on the organisation
 * (`live_refusal_reason`, `live_refused_at`), where the partner's dashboard home shows it beside the live-mode status.
 * The organisation stays in the queue (it may be enabled later).
 */
export async function refuseLive(services: Pick<Services, 'db' | 'clock'> & Parameters<typeof refuseProposal>[0], actor: StaffActor, options: { organisationId: string; reason: string }) {
  requireStaffPermission(actor, 'live_enablement');
  const organisation = await getOrganisation(services.db, options.organisationId);
  const open = await services.db.selectFrom('opsProposals').select('id').where('kind', '=', 'live_enable').where('subject', '=', organisation.id).where('status', '=', 'open').executeTakeFirst();
  const proposal = open ? await refuseProposal(services, actor, open.id, options.reason) : null;
  const now = services.clock.now();
  await inUnitOfWork(services.db, async (tx) => {
    await tx.updateTable('organisations').set({ liveRefusalReason: options.reason, liveRefusedAt: now.toISOString() }).where('id', '=', organisation.id).execute();
    await writeStaffAudit(tx, { staffId: actor.staffId, action: 'live_refused', target: `organisation:${organisation.id} (${options.reason.slice(0, 200)})`, origin: actor.origin, now });
  });
  return { organisationId: organisation.id, liveEnabled: organisation.liveEnabled, proposalRefused: proposal?.id ?? null };
}
