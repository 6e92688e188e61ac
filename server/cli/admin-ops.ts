import { AppError } from '../platform/domain/errors';
import { isUuid } from '../platform/domain/ids';
import { chargesNeedingPerson, confirmCollectedAtRail, lookUpCharge, releaseCharge } from '../platform/domain/ops/charges';
import { requestLiveMoneyAction, type StaffActor } from '../platform/domain/ops/four-eyes';
import { failedSettlements, retrySettlementByStaff } from '../platform/domain/ops/settlements';
import { CLI_ORIGIN, staffByEmail } from '../platform/domain/ops/staff-accounts';
import type { Platform } from '../platform/platform';

/**
 * The console's queues of charges that need a person and failed settlements, from the operator's shell: the same
 * domain calls as `/ops/api/charges…` and `/ops/api/settlements…`, by a named staff member (`--staff E`, whose role
 * must allow money), so the same rules hold — applying a collected charge is a four-eyes proposal in live mode
 * (`proposal approve` by another staff member runs it), looking up and releasing are one person's, a retry runs the
 * statement's own period again. Every action is in the staff audit log with the shell as its origin.
 */
export const OPS_COMMANDS = ['charge list', 'charge look-up', 'charge apply', 'charge release', 'settlement failed', 'settlement retry'] as const;
export type OpsCommand = (typeof OPS_COMMANDS)[number];

export const OPS_USAGE = `  charge list                            mandate charges that need a person (collected but not applied, outcome unknown)
  charge look-up --id CHARGE_ID --staff E   what the rail says of the charge (a read: nothing is sent)
  charge apply --id CHARGE_ID --staff E     applies a charge the rail collected to its loan (live: a proposal, see proposal approve)
  charge release --id CHARGE_ID --staff E --reason TEXT   an unknown outcome that took no money: marked failed, never sent again
  settlement failed                      settlements whose run failed, not covered by a later statement
  settlement retry --id STATEMENT_ID --staff E   runs that statement's period again (idempotent)`;

type Options = Record<string, string | boolean | undefined>;

function text(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new AppError('invalid_request', `--${name} is required`);
  return value.trim();
}

function id(options: Options): string {
  const value = text(options, 'id');
  if (!isUuid(value)) throw new AppError('INVALID_ID', `--id must be a UUID (got ${value.slice(0, 60)})`);
  return value;
}

async function staff(platform: Platform, options: Options): Promise<StaffActor> {
  const account = await staffByEmail(platform, text(options, 'staff'));
  return { staffId: account.id, email: account.email, role: account.role, origin: CLI_ORIGIN };
}

/** Runs one of `OPS_COMMANDS`; answers what `--json` prints. */
export async function runOpsCommand(platform: Platform, command: OpsCommand, options: Options): Promise<unknown> {
  switch (command) {
    case 'charge list':
      return { data: await chargesNeedingPerson(platform.db, { limit: 100 }) };
    case 'settlement failed':
      return { data: await failedSettlements(platform.db, { limit: 100 }) };
    case 'charge look-up':
      return lookUpCharge(platform, await staff(platform, options), id(options));
    case 'charge apply': {
      const actor = await staff(platform, options);
      const chargeId = id(options);
      // As in the console: an unknown outcome is read at the rail first (409 unless it succeeded), then four eyes.
      await confirmCollectedAtRail(platform, chargeId);
      const outcome = await requestLiveMoneyAction(platform, actor, { kind: 'mandate_charge_apply', chargeId });
      return outcome.outcome === 'done' ? outcome.result : { proposed: true, proposal: outcome.proposal };
    }
    case 'charge release': {
      const actor = await staff(platform, options);
      const reason = text(options, 'reason');
      if (reason.length < 3 || reason.length > 500) throw new AppError('invalid_request', '--reason must be 3 to 500 characters');
      return releaseCharge(platform, actor, { id: id(options), reason });
    }
    case 'settlement retry':
      return retrySettlementByStaff(platform, await staff(platform, options), id(options));
  }
}
