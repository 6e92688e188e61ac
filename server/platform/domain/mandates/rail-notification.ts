import type { Services } from '../services';
import type { Mode } from '../scope';
import type { RailName } from '../ports';
import { attachFoundCharge, settleCharge, CHARGE_OUTCOME_UNKNOWN, CHARGE_SENDING } from '../repayments/collect-mandates';
import { activateMandate, type MandatePlatform } from './manage-mandate';

/** What a rail pushed, reduced to which record to read back: nothing in a notification is trusted as a state. */
export type RailNotice = { kind: 'authorisation'; providerReference: string } | { kind: 'charge'; reference: string };

export type RailNoticeOutcome = 'read_back' | 'unknown_reference' | 'no_rail';

/**
 * A rail's push notification (a signed webhook): a hint to read the record back now instead of at
 * the next poll. The state always comes from the rail's own read (`activateMandate` reads the
 * authorisation; `settleCharge` reads the charge), and every write is conditional, so a replayed,
 * late or duplicated notification changes nothing twice. A reference the platform does not hold is
 * acknowledged and ignored (the provider retries anything but a 2xx for days).
 */
export async function onRailNotification(
  platform: MandatePlatform & Pick<Services, 'db' | 'logger' | 'sms'>,
  rail: RailName,
  mode: Mode,
  notice: RailNotice,
  now: Date,
): Promise<RailNoticeOutcome> {
  const db = platform.db;
  const adapter = platform.rails.railFor(mode, rail);
  if (!adapter) return 'no_rail';
  if (notice.kind === 'authorisation') {
    const mandate = await db
      .selectFrom('loanMandates')
      .select(['id', 'organisationId', 'status'])
      .where('mode', '=', mode)
      .where('provider', '=', rail)
      .where('providerReference', '=', notice.providerReference)
      .executeTakeFirst();
    if (!mandate) return 'unknown_reference';
    if (mandate.status !== 'active') await activateMandate(db, platform, { organisationId: mandate.organisationId, mode }, mandate.id, now);
    return 'read_back';
  }
  const repayment = await db
    .selectFrom('loanRepayments')
    .selectAll()
    .where('mode', '=', mode)
    .where('method', '=', 'mandate')
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('chargeReference', '=', notice.reference), eb.and([eb('reference', '=', notice.reference), eb('failureReason', 'in', [CHARGE_OUTCOME_UNKNOWN, CHARGE_SENDING])])]))
    .executeTakeFirst();
  if (!repayment) return 'unknown_reference';
  // A charge whose outcome was unknown is found by its reference first (nothing found: the collector sends it again).
  const chargeReference = repayment.chargeReference ?? (await attachFoundCharge(db, adapter, repayment, now));
  if (!chargeReference) return 'read_back';
  await settleCharge(platform, adapter, { ...repayment, chargeReference }, now);
  return 'read_back';
}
