import type { Db, Executor } from '../../db/database';
import type { LoanMandatesTable, LoansTable } from '../../db/schema';
import type { RailName } from '../ports';
import type { Services } from '../services';
import type { LoanWriteContext } from '../loans/loan-context';
import { applicationTokenOf, applicationUrlOf } from '../loans/loan';
import { hashCheckoutToken, mintCheckoutSession, sessionLifetime, takesCheckoutSessions } from '../checkout/checkout-session';
import { emitLoanEvent } from '../loans/loan-events';
import { loanPhone } from '../checkout/otp';
import { loanBorrowerLanguage } from '../languages/borrower-locale';
import { smsText } from '../languages/sms-texts';
import { isLocale } from '../../../shared/locales';
import { inUnitOfWork } from '../unit-of-work';
import { activateMandate, type MandatePlatform } from './manage-mandate';
import { endReplacementOf } from './take-over-mandate';

/** A mandate the borrower has not authorised yet: set up (`initiated`) or read back unconfirmed (`pending`). */
const UNAUTHORISED = ['initiated', 'pending'] as const;
/** Mandates read per page, oldest first. */
const BATCH = 50;

export type ExpiryPlatform = MandatePlatform & Pick<Services, 'sms' | 'logger' | 'secrets' | 'settings' | 'baseUrl'>;

export interface ExpireMandatesOptions {
  /** How long the borrower has to authorise at the rail (`MANDATE_AUTHORISATION_WINDOW_HOURS`). */
  windowHours: number;
  now: Date;
  /** Mandates read per page (50). */
  pageSize?: number;
}

export interface ExpiryOutcome {
  /** Unauthorised at the rail past the window: withdrawn there, `expired` here, `mandate.expired` emitted, the borrower texted. */
  expired: number;
  /** Authorised (or refused, or cancelled) at the rail after all: recorded as activation would (`active`, `failed`, `cancelled`). */
  readBack: number;
  /** Left for the next run: the rail could not be read or did not take the cancellation, or no rail serves the mode. */
  skipped: number;
}

/**
 * Lapses mandates the borrower never authorised within the rail's authorisation window. Each one is
 * first read back at the rail: one the borrower approved there (`approved`/`active`) or refused is
 * never expired — it is recorded as activation records it (`active` with `mandate.active`, or
 * `failed`/`cancelled`), and an `approved` one waits for the rail's confirmation. One still
 * `pending` at the rail is withdrawn there first (so a late "yes" on the rail's page cannot make a
 * live debit the platform calls expired), then moved to `expired` by a conditional write in one
 * transaction with its `mandate.expired` event: with several sweepers at once, one wins, and only
 * the winner texts the borrower (after its commit; in the borrower's language, with the link back to
 * the checkout, where "Try again" sets up a fresh mandate).
 */
export async function expireMandates(db: Db, platform: ExpiryPlatform, options: ExpireMandatesOptions): Promise<ExpiryOutcome> {
  const cutoff = new Date(options.now.getTime() - options.windowHours * 3_600_000).toISOString();
  const outcome: ExpiryOutcome = { expired: 0, readBack: 0, skipped: 0 };
  // Page by (createdAt, id): mandates left in play (approved, awaiting the rail's confirmation) never hold up the ones behind them.
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    let query = db
      .selectFrom('loanMandates')
      .selectAll()
      .where('status', 'in', UNAUTHORISED)
      .where('provider', '!=', 'rail_c')
      .where('createdAt', '<', cutoff);
    if (after) {
      const { createdAt, id } = after;
      query = query.where((eb) => eb.or([eb('createdAt', '>', createdAt), eb.and([eb('createdAt', '=', createdAt), eb('id', '>', id)])]));
    }
    const due = await query.orderBy('createdAt').orderBy('id').limit(options.pageSize ?? BATCH).execute();
    for (const row of due) {
      try {
        const result = await expireOne(db, platform, row, options.now);
        outcome[result]++;
      } catch (error) {
        platform.logger.warn({ err: error, mandateId: row.id }, 'mandate expiry: left for the next run');
        outcome.skipped++;
      }
    }
    if (due.length < (options.pageSize ?? BATCH)) return outcome;
    after = due.at(-1)!;
  }
}

async function expireOne(db: Db, platform: ExpiryPlatform, row: LoanMandatesTable, now: Date): Promise<keyof ExpiryOutcome> {
  const rail = platform.rails.railFor(row.mode, row.provider as RailName);
  if (!rail || !row.providerReference) return 'skipped';
  const scope = { organisationId: row.organisationId, mode: row.mode };
  const read = await rail.readAuthorisation(row.providerReference);
  if (read.status === 'approved') return 'skipped';
  if (read.status !== 'pending') {
    await activateMandate(db, platform, scope, row.id, now);
    return 'readBack';
  }
  await rail.cancel(row.providerReference);
  const at = now.toISOString();
  const loan = await db.selectFrom('loans').selectAll().where('id', '=', row.loanId).executeTakeFirstOrThrow();
  // The text's link is settled in the same transaction: only the sweeper whose write moved the mandate mints one.
  const link = await inUnitOfWork(db, async (trx) => {
    const update = await trx
      .updateTable('loanMandates')
      .set({ status: 'expired', providerStatus: 'cancelled', updatedAt: at })
      .where('id', '=', row.id)
      .where('status', 'in', UNAUTHORISED)
      .executeTakeFirst();
    if (Number(update.numUpdatedRows) !== 1) return undefined;
    const ctx: LoanWriteContext = { db: trx, platform, now, scope, actor: 'mandate' };
    await emitLoanEvent(ctx, 'mandate.expired', loan, { mandateId: row.id, provider: row.provider, status: 'expired', createdAt: row.createdAt });
    // A borrower's change of account that lapsed: the old mandate stays and the loan page offers it again; no checkout link.
    if (await endReplacementOf(trx, row.id, 'expired', now)) return { url: null, replacement: true };
    return { url: await linkBack(trx, platform, loan, now), replacement: false };
  });
  if (!link) return 'skipped';
  if (link.replacement) return 'expired';
  await textBorrower(db, platform, loan, link.url).catch((error: unknown) => platform.logger.warn({ err: error, mandateId: row.id }, 'mandate expiry: the text did not go out'));
  return 'expired';
}

/**
 * The link back to the checkout: the loan's application link while its session is still open (the borrower
 * lands on the lapsed mandate, phone already confirmed), else a fresh session's, minted here as "text me a new
 * link" would (a day after set-up the application link has usually ended); none for a closed loan.
 */
async function linkBack(db: Executor, platform: ExpiryPlatform, loan: LoansTable, now: Date): Promise<string | null> {
  const token = applicationTokenOf(loan, platform.secrets);
  if (token) {
    const session = await db.selectFrom('checkoutSessions').select(['expiresAt', 'revokedAt']).where('tokenHash', '=', hashCheckoutToken(platform.secrets, token)).executeTakeFirst();
    if (session && !session.revokedAt && new Date(session.expiresAt).getTime() > now.getTime()) return applicationUrlOf(loan, platform.secrets);
  }
  if (!takesCheckoutSessions(loan.status)) return null;
  // The partner's language carries over to the new link, as with "text me a new link".
  const latest = await db.selectFrom('checkoutSessions').select('partnerLocale').where('loanId', '=', loan.id).where('partnerLocale', 'is not', null).orderBy('createdAt', 'desc').limit(1).executeTakeFirst();
  const locale = latest && isLocale(latest.partnerLocale) ? latest.partnerLocale : null;
  const minted = await mintCheckoutSession(db, { secrets: platform.secrets, lifetime: sessionLifetime(platform.settings), baseUrl: platform.baseUrl, loan, source: 'renewed', now, locale });
  return minted.url;
}

/** The borrower's text: the authorisation lapsed, nothing was taken, and (when there is one) the link back to the checkout. */
async function textBorrower(db: Db, platform: ExpiryPlatform, loan: LoansTable, url: string | null): Promise<void> {
  const phone = await loanPhone(db, loan.id);
  if (!phone) return;
  const organisation = await db.selectFrom('organisations').select('name').where('id', '=', loan.organisationId).executeTakeFirstOrThrow();
  const { locale } = await loanBorrowerLanguage(db, loan);
  const body = url ? smsText('mandateExpired', locale, { lender: organisation.name, url }) : smsText('mandateExpiredNoLink', locale, { lender: organisation.name });
  await platform.sms.for(loan.mode).send({ to: phone, body, mode: loan.mode });
}
