import { sql } from 'kysely';
import type { Db, Executor } from '../../db/database';
import type { CheckoutRenewalsTable } from '../../db/schema';
import type { SmsSender } from '../ports';
import type { PerMode } from '../per-mode';
import { AppError } from '../errors';
import { applicationTokenOf, sealApplicationToken } from '../loans/loan';
import type { Secrets } from '../secrets';
import { maskPhone } from '../users/phone';
import { getSessionRow, hashCheckoutToken, mintCheckoutSession, sessionLifetime, takesCheckoutSessions, type CheckoutScope } from './checkout-session';
import { lenderContact, type LenderContact } from './lender-contact';
import { phoneForLoan } from './otp';
import { inUnitOfWork } from '../unit-of-work';
import { checkoutLanguage } from '../languages/borrower-locale';
import { smsText } from '../languages/sms-texts';
import { isLocale } from '../../../shared/locales';

/** "Text me a new link": at most one per 10 minutes and three per UTC day, per loan (not per session, so renewing a renewed link does not reset them). */
export const RENEW_RULES = { minIntervalMs: 10 * 60_000, perDay: 3 } as const;

export interface RenewPlatform {
  db: Db;
  secrets: Pick<Secrets, 'hmac' | 'encrypt' | 'decrypt'>;
  sms: PerMode<SmsSender>;
  baseUrl: string;
  settings: { CHECKOUT_SESSION_TTL_MINUTES: number; CHECKOUT_SESSION_MAX_LIFETIME_MINUTES: number };
}

/** What an expired page shows before the borrower asks: who to contact, and when a new link can be texted. */
export interface ExpiredSessionInfo {
  expiredAt: string;
  lender: LenderContact;
  /** false when the loan is closed (declined, rejected, cancelled, repaid…): there is nothing to come back to, only the lender. */
  renewable: boolean;
  /** Now, or when the rate limit allows the next new link. */
  renewAvailableAt: string;
  /** The same as seconds from now (0: now), for a page whose clock may be off. */
  renewInSeconds: number;
}

export interface RenewedLink {
  /** The masked phone on record the new link went to, e.g. `•••• 1234`. */
  sentTo: string;
  lender: LenderContact;
}

const dayStart = (now: Date) => new Date(Math.floor(now.getTime() / 86_400_000) * 86_400_000).toISOString();

/** When the next renewal of the loan is allowed (`now` when it is). */
function nextRenewal(row: { dayStart: string; renewCount: number; lastRenewedAt: string } | undefined, now: Date): Date {
  if (!row) return now;
  const afterInterval = new Date(new Date(row.lastRenewedAt).getTime() + RENEW_RULES.minIntervalMs);
  const sameDay = new Date(row.dayStart).toISOString() === dayStart(now);
  const afterDay = sameDay && row.renewCount >= RENEW_RULES.perDay ? new Date(new Date(dayStart(now)).getTime() + 86_400_000) : now;
  const at = Math.max(afterInterval.getTime(), afterDay.getTime(), now.getTime());
  return new Date(at);
}

const renewalRow = (db: Executor, loanId: string) => db.selectFrom('checkoutRenewals').selectAll().where('loanId', '=', loanId).executeTakeFirst();

export async function expiredSessionInfo(db: Executor, scope: CheckoutScope, now: Date): Promise<ExpiredSessionInfo> {
  const session = await getSessionRow(db, scope);
  const next = nextRenewal(await renewalRow(db, scope.loanId), now);
  const loan = await db.selectFrom('loans').select('status').where('id', '=', scope.loanId).executeTakeFirstOrThrow();
  return {
    expiredAt: session.expiresAt,
    lender: await lenderContact(db, { organisationId: scope.organisationId, mode: scope.mode }),
    renewable: takesCheckoutSessions(loan.status),
    renewAvailableAt: next.toISOString(),
    renewInSeconds: Math.ceil((next.getTime() - now.getTime()) / 1000),
  };
}

/**
 * Takes one renewal slot for the loan: one conditional upsert, so the limits hold across processes.
 * A new UTC day starts the count again; the 10-minute spacing holds across the day boundary.
 */
async function takeRenewalSlot(db: Executor, loanId: string, now: Date): Promise<CheckoutRenewalsTable | null> {
  const before = await renewalRow(db, loanId);
  const at = now.toISOString();
  const today = dayStart(now);
  const spaced = new Date(now.getTime() - RENEW_RULES.minIntervalMs).toISOString();
  const taken = await db
    .insertInto('checkoutRenewals')
    .values({ loanId, dayStart: today, renewCount: 1, lastRenewedAt: at })
    .onConflict((oc) =>
      oc
        .column('loanId')
        .doUpdateSet({
          renewCount: sql<number>`case when checkout_renewals.day_start = ${today} then checkout_renewals.renew_count + 1 else 1 end`,
          dayStart: today,
          lastRenewedAt: at,
        })
        .where('checkoutRenewals.lastRenewedAt', '<=', spaced)
        .where((eb) => eb.or([eb('checkoutRenewals.dayStart', '<>', today), eb('checkoutRenewals.renewCount', '<', RENEW_RULES.perDay)])),
    )
    .returning('renewCount')
    .executeTakeFirst();
  if (taken) return before ?? null;
  const wait = (nextRenewal(await renewalRow(db, loanId), now).getTime() - now.getTime()) / 1000;
  throw new AppError(
    'checkout_renew_limit',
    wait <= RENEW_RULES.minIntervalMs / 1000
      ? `A new link was texted moments ago; you can ask for another in ${Math.ceil(wait / 60)} minutes.`
      : `${RENEW_RULES.perDay} new links were texted today; ask the lender, or try again tomorrow.`,
  ).withRetryAfter(wait);
}

/** The text was not sent: the link nobody received is revoked and the renewal slot restored (only if it is still ours). */
async function giveBack(db: Db, loanId: string, minted: { session: { id: string }; before: CheckoutRenewalsTable | null }, now: Date): Promise<void> {
  const at = now.toISOString();
  await inUnitOfWork(db, async (trx) => {
    await trx.updateTable('checkoutSessions').set({ revokedAt: at, updatedAt: at }).where('id', '=', minted.session.id).execute();
    const mine = trx.deleteFrom('checkoutRenewals').where('loanId', '=', loanId).where('lastRenewedAt', '=', at);
    if (!minted.before) await mine.execute();
    else {
      await trx
        .updateTable('checkoutRenewals')
        .set({ dayStart: minted.before.dayStart, renewCount: minted.before.renewCount, lastRenewedAt: minted.before.lastRenewedAt })
        .where('loanId', '=', loanId)
        .where('lastRenewedAt', '=', at)
        .execute();
    }
  });
}

/**
 * The borrower's link has expired: mint a new session for the same loan and text its link to the
 * phone on record (never a number from the caller). When the expired session was the loan's
 * application session, the new one takes its place behind `applicationUrl`. The slot and the new
 * session commit together; the text goes after the commit. When it cannot be sent, the unsent
 * link is revoked and the slot given back, and the answer is `sms_unavailable` (try again).
 */
export async function renewCheckoutSession(platform: RenewPlatform, scope: CheckoutScope, options: { organisationName: string; now: Date }): Promise<RenewedLink> {
  const { db, secrets } = platform;
  const { now } = options;
  // Live mode without an SMS provider: 503 before a new link is minted.
  const sms = platform.sms.for(scope.mode);
  const phone = await phoneForLoan(db, scope.loanId);
  const minted = await inUnitOfWork(db, async (trx) => {
    const expired = await getSessionRow(trx, scope);
    const loan = await trx.selectFrom('loans').selectAll().where('id', '=', scope.loanId).executeTakeFirstOrThrow();
    const before = await takeRenewalSlot(trx, loan.id, now);
    const session = await mintCheckoutSession(trx, {
      secrets,
      lifetime: sessionLifetime(platform.settings),
      baseUrl: platform.baseUrl,
      loan,
      source: 'renewed',
      now,
      // The partner's language carries over to the new link; the borrower's pick is on the borrower.
      locale: isLocale(expired.partnerLocale) ? expired.partnerLocale : null,
    });
    // The new link takes the place of the expired one behind `applicationUrl` once it has been texted.
    const application = applicationTokenOf(loan, secrets);
    const replacesApplication = application !== null && hashCheckoutToken(secrets, application) === expired.tokenHash;
    return { session, before, replacesApplication };
  });
  // The new session has no pick yet: the language is the expired session's (its pick or partner locale), else the borrower's saved one.
  const { locale } = await checkoutLanguage(db, scope);
  const body = smsText('renewedLink', locale, { lender: options.organisationName, url: minted.session.url, minutes: platform.settings.CHECKOUT_SESSION_TTL_MINUTES });
  try {
    await sms.send({ to: phone, body, mode: scope.mode });
  } catch (error) {
    await giveBack(db, scope.loanId, minted, now);
    throw new AppError('sms_unavailable', 'The text message could not be sent; try again shortly.', { reason: (error as Error).message });
  }
  if (minted.replacesApplication) {
    await db
      .updateTable('loans')
      .set({ applicationTokenSealed: sealApplicationToken(secrets, minted.session.token), updatedAt: now.toISOString() })
      .where('id', '=', scope.loanId)
      .execute();
  }
  return { sentTo: maskPhone(phone), lender: await lenderContact(db, { organisationId: scope.organisationId, mode: scope.mode }) };
}
