import type { Db } from '../../db/database';
import type { LoansTable } from '../../db/schema';
import type { Services } from '../services';
import type { LoanWriteContext } from '../loans/loan-context';
import { emitLoanEvent } from '../loans/loan-events';
import { inUnitOfWork } from '../unit-of-work';
import { newId } from '../ids';
import { loanPhone } from '../checkout/otp';
import { lenderContact } from '../checkout/lender-contact';
import { loanBorrowerLanguage } from '../languages/borrower-locale';
import { smsText } from '../languages/sms-texts';
import { formatDueDate, formatNairaPdf } from '../offer-letter/format-offer-letter';
import { SERVICE_APPROVAL_MODE } from '../products/product';
import { firstSendableAt, localInstant, type QuietHours } from '../organisations/quiet-hours';
import { LOAN_COLUMNS } from '../../db/columns';

/**
 * Reminders by text, driven by the reminder worker (`server/workers/borrower-reminders.ts`):
 *
 * - `debit_upcoming`: from the start of the local day `reminders.leadDays` days before an instalment's due date (the
 *   organisation's quiet-hours time zone; 0 = the day of the debit) until the debit itself, for an instalment not
 *   yet paid of an `active` loan whose direct debit is active (the collector's own conditions), when the loan's
 *   product has reminders on. It names the amount and the date; no link.
 * - `debit_failed`: a mandate charge failed (within the last two days): the text names the amount and links to the
 *   borrower's loan page (`<checkout>/my-loan`, where they sign in with their phone and pay now). It is about the
 *   oldest instalment still unpaid; the collector's retry failing again sends nothing more.
 *
 * Both wait outside the organisation's quiet hours (a reminder due inside them goes at the first run after they
 * end), are in the borrower's language (`loanBorrowerLanguage`), and go at most once per instalment and kind: the
 * reminder is claimed by an insert on the unique key (`schedule_item_id`, `kind`) before the text goes out, so two
 * workers never both send it; the text is sent after that commit (never inside a transaction), and being sent moves
 * the claim to `sent` with its `loan.reminder.sent` event in one transaction. A send the provider refused releases the
 * claim (the next run tries again, while the reminder is still due); a process that stops between the claim and the
 * send leaves it claimed: at most once wins over at least once. Loans of a product the service lends from itself
 * (patient financing's, approval mode `service`) are left out: their borrowers have no loan page.
 */

export type ReminderPlatform = Pick<Services, 'db' | 'sms' | 'logger' | 'baseUrl' | 'secrets' | 'aml' | 'identity' | 'insurer' | 'settings'>;

export type ReminderKind = 'debit_upcoming' | 'debit_failed';

/** How long after a failed charge its text may still go (quiet hours, a worker that was down). */
export const FAILED_DEBIT_TEXT_WINDOW_MS = 48 * 3_600_000;
/** Instalments read per page, soonest first. */
const BATCH = 200;

export interface ReminderRun {
  sent: number;
  /** Due but inside the organisation's quiet hours: left for the first run after they end. */
  waiting: number;
  /** Claimed by another worker, or no phone on record that takes texts. */
  skipped: number;
  failed: number;
}

/** The borrower's own loan page on the checkout server (mounted at `/checkout` of the platform's public URL). */
export const myLoanUrl = (baseUrl: string) => `${baseUrl.replace(/\/$/, '')}/checkout/my-loan`;

/** The loan page's link in a text: a test-mode loan's carries `?mode=test`, so the page signs in to sandbox loans. */
export const myLoanLink = (baseUrl: string, mode: 'test' | 'live') => `${myLoanUrl(baseUrl)}${mode === 'test' ? '?mode=test' : ''}`;

interface Candidate {
  loan: LoansTable;
  scheduleItemId: string;
  installmentNumber: number;
  dueDate: string;
  amountKobo: number;
  repaymentId: string | null;
  quiet: QuietHours;
}

const quietOf = (row: { quietHoursStart: string; quietHoursEnd: string; quietHoursTimeZone: string }): QuietHours => ({
  start: row.quietHoursStart,
  end: row.quietHoursEnd,
  timeZone: row.quietHoursTimeZone,
});

/** Sends every reminder due now (outside quiet hours). Safe in several processes at once. */
export async function sendBorrowerReminders(platform: ReminderPlatform, now: Date, options: { pageSize?: number } = {}): Promise<ReminderRun> {
  const run: ReminderRun = { sent: 0, waiting: 0, skipped: 0, failed: 0 };
  for (const candidate of await upcomingDebits(platform.db, now, options.pageSize ?? BATCH)) await remind(platform, 'debit_upcoming', candidate, now, run);
  for (const candidate of await failedDebits(platform.db, now)) await remind(platform, 'debit_failed', candidate, now, run);
  return run;
}

/** Instalments whose reminder day has come and whose debit has not: not yet reminded. */
async function upcomingDebits(db: Db, now: Date, pageSize: number): Promise<Candidate[]> {
  const at = now.toISOString();
  // The widest lead (14 days) plus a day for the time zone; the exact day is worked out per product below.
  const horizon = new Date(now.getTime() + 16 * 86_400_000).toISOString();
  const due: Candidate[] = [];
  // Paged by (due date, id) to the end: instalments whose reminder day has not come (a shorter lead) never hold up the ones behind them.
  let after: { dueDate: string; id: string } | undefined;
  for (;;) {
    let query = db
      .selectFrom('loanScheduleItems as s')
      .innerJoin('loans as l', 'l.id', 's.loanId')
      .innerJoin('loanMandates as m', 'm.id', 'l.activeMandateId')
      .innerJoin('loanProducts as p', 'p.id', 'l.loanProductId')
      .innerJoin('organisations as o', 'o.id', 'l.organisationId')
      .select(LOAN_COLUMNS.map((c) => `l.${c}` as const))
      .select([
        's.id as scheduleItemId',
        's.installmentNumber',
        's.dueDate',
        's.totalKobo',
        's.lateFeeKobo',
        's.amountPaidKobo as itemPaidKobo',
        'p.reminderLeadDays',
        'o.quietHoursStart',
        'o.quietHoursEnd',
        'o.quietHoursTimeZone',
      ])
      .where('l.status', '=', 'active')
      .where('m.status', '=', 'active')
      .where('m.provider', '!=', 'rail_c')
      .where('p.remindersEnabled', '=', true as never)
      .where('p.approvalMode', '!=', SERVICE_APPROVAL_MODE)
      .where('s.status', 'in', ['pending', 'partial'])
      .where('s.dueDate', '>', at)
      .where('s.dueDate', '<=', horizon)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('borrowerReminders as r').select('r.id').whereRef('r.scheduleItemId', '=', 's.id').where('r.kind', '=', 'debit_upcoming'))),
      );
    if (after) {
      const { dueDate, id } = after;
      query = query.where((eb) => eb.or([eb('s.dueDate', '>', dueDate), eb.and([eb('s.dueDate', '=', dueDate), eb('s.id', '>', id)])]));
    }
    const rows = await query.orderBy('s.dueDate').orderBy('s.id').limit(pageSize).execute();
    for (const row of rows) {
      const quiet = quietOf(row);
      const from = localInstant(new Date(row.dueDate), quiet.timeZone, -Number(row.reminderLeadDays), 0);
      if (from.getTime() > now.getTime()) continue;
      due.push({
        loan: loanOf(row),
        scheduleItemId: row.scheduleItemId,
        installmentNumber: row.installmentNumber,
        dueDate: row.dueDate,
        amountKobo: Number(row.totalKobo) + Number(row.lateFeeKobo) - Number(row.itemPaidKobo),
        repaymentId: null,
        quiet,
      });
    }
    if (rows.length < pageSize) return due;
    const last = rows.at(-1)!;
    after = { dueDate: last.dueDate, id: last.scheduleItemId };
  }
}

/** Mandate charges that failed lately, each with the oldest instalment its loan still owes. */
async function failedDebits(db: Db, now: Date): Promise<Candidate[]> {
  const since = new Date(now.getTime() - FAILED_DEBIT_TEXT_WINDOW_MS).toISOString();
  const rows = await db
    .selectFrom('loanRepayments as rep')
    .innerJoin('loans as l', 'l.id', 'rep.loanId')
    .innerJoin('loanProducts as p', 'p.id', 'l.loanProductId')
    .innerJoin('organisations as o', 'o.id', 'l.organisationId')
    .select(LOAN_COLUMNS.map((c) => `l.${c}` as const))
    .select(['rep.id as repaymentId', 'rep.amountKobo as chargeKobo', 'o.quietHoursStart', 'o.quietHoursEnd', 'o.quietHoursTimeZone'])
    .where('rep.method', '=', 'mandate')
    .where('rep.status', '=', 'failed')
    .where('rep.updatedAt', '>', since)
    .where('l.status', 'in', ['active', 'defaulted'])
    .where('p.remindersEnabled', '=', true as never)
    .where('p.approvalMode', '!=', SERVICE_APPROVAL_MODE)
    .orderBy('rep.updatedAt', 'desc')
    .orderBy('rep.id')
    .limit(BATCH)
    .execute();
  const due: Candidate[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    // The latest failure per loan speaks for it.
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    const item = await db
      .selectFrom('loanScheduleItems')
      .select(['id', 'installmentNumber', 'dueDate'])
      .where('loanId', '=', row.id)
      .where('status', 'in', ['pending', 'partial', 'overdue'])
      .where('dueDate', '<=', now.toISOString())
      .orderBy('installmentNumber')
      .limit(1)
      .executeTakeFirst();
    if (!item) continue;
    const reminded = await db.selectFrom('borrowerReminders').select('id').where('scheduleItemId', '=', item.id).where('kind', '=', 'debit_failed').executeTakeFirst();
    if (reminded) continue;
    due.push({
      loan: loanOf(row),
      scheduleItemId: item.id,
      installmentNumber: item.installmentNumber,
      dueDate: item.dueDate,
      amountKobo: Number(row.chargeKobo),
      repaymentId: row.repaymentId,
      quiet: quietOf(row),
    });
  }
  return due;
}

function loanOf(row: Record<string, unknown>): LoansTable {
  return Object.fromEntries(LOAN_COLUMNS.map((c) => [c, row[c]])) as unknown as LoansTable;
}

async function remind(platform: ReminderPlatform, kind: ReminderKind, candidate: Candidate, now: Date, run: ReminderRun): Promise<void> {
  if (firstSendableAt(now, candidate.quiet).getTime() !== now.getTime()) {
    run.waiting += 1;
    return;
  }
  const { db } = platform;
  const { loan } = candidate;
  const at = now.toISOString();
  const id = newId();
  const claimed = await db
    .insertInto('borrowerReminders')
    .values({
      id,
      organisationId: loan.organisationId,
      mode: loan.mode,
      loanId: loan.id,
      scheduleItemId: candidate.scheduleItemId,
      kind,
      repaymentId: candidate.repaymentId,
      status: 'sending',
      locale: null,
      sentAt: null,
      createdAt: at,
      updatedAt: at,
    })
    .onConflict((oc) => oc.columns(['scheduleItemId', 'kind']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!claimed) {
    run.skipped += 1;
    return;
  }
  const phone = await loanPhone(db, loan.id);
  if (!phone) {
    await db.updateTable('borrowerReminders').set({ status: 'not_sent', updatedAt: at }).where('id', '=', id).execute();
    run.skipped += 1;
    return;
  }
  const { locale } = await loanBorrowerLanguage(db, loan);
  try {
    const lender = (await lenderContact(db, { organisationId: loan.organisationId, mode: loan.mode })).name;
    const amount = formatNairaPdf(candidate.amountKobo);
    const body =
      kind === 'debit_upcoming'
        ? smsText('debitReminder', locale, { lender, amount, date: formatDueDate(candidate.dueDate) })
        : smsText('debitFailed', locale, { lender, amount, url: myLoanLink(platform.baseUrl, loan.mode) });
    await platform.sms.for(loan.mode).send({ to: phone, body, mode: loan.mode });
  } catch (error) {
    // Not sent: the claim goes, so the next run tries again while the reminder is still due.
    await db.deleteFrom('borrowerReminders').where('id', '=', id).where('status', '=', 'sending').execute();
    platform.logger.warn({ err: error, loanId: loan.id, kind }, 'borrower reminder not sent; the next run tries again');
    run.failed += 1;
    return;
  }
  await inUnitOfWork(db, async (trx) => {
    const moved = await trx.updateTable('borrowerReminders').set({ status: 'sent', locale, sentAt: at, updatedAt: at }).where('id', '=', id).where('status', '=', 'sending').executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return;
    const ctx: LoanWriteContext = { db: trx, platform, now, scope: { organisationId: loan.organisationId, mode: loan.mode }, actor: 'reminders' };
    await emitLoanEvent(ctx, 'loan.reminder.sent', loan, {
      reminderId: id,
      kind,
      installmentNumber: candidate.installmentNumber,
      dueDate: candidate.dueDate,
      amountKobo: candidate.amountKobo,
      locale,
    });
  });
  run.sent += 1;
}
