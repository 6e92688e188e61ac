import crypto from 'node:crypto';
import type { Db, Executor } from '../../db/database';
import type { CheckoutSessionsTable } from '../../db/schema';
import type { SmsSender } from '../ports';
import type { PerMode } from '../per-mode';
import { AppError } from '../errors';
import { newId } from '../ids';
import { safeEqual, type Secrets } from '../secrets';
import { claimBorrower } from '../users/claim-borrower';
import { maskPhone, normalisePhone } from '../users/phone';
import { getSessionRow, type CheckoutScope } from './checkout-session';
import { inUnitOfWork } from '../unit-of-work';
import { checkoutLanguage } from '../languages/borrower-locale';
import { smsText } from '../languages/sms-texts';

/** The OTP rules; the widget shows the same numbers. */
export const OTP_RULES = {
  digits: 6,
  lifetimeMs: 5 * 60_000,
  maxAttempts: 5,
  resendCooldownMs: 30_000,
  /** Codes per phone per clock hour (fixed window), across every session, organisation and process. */
  sendsPerPhonePerHour: 5,
} as const;

const CODE_HASH_PURPOSE = 'checkout-otp-code';

export interface OtpPlatform {
  db: Db;
  secrets: Pick<Secrets, 'hmac'>;
  sms: PerMode<SmsSender>;
  /** Origin of the hosted checkout; names the domain in the WebOTP line of the message. */
  baseUrl: string;
}

export type { OtpSent, OtpChallenge as OtpChallengeView } from '../../../shared/checkout-contract';
import type { OtpSent, OtpChallenge as OtpChallengeView } from '../../../shared/checkout-contract';

export interface OtpVerified {
  verified: true;
  borrower: { identityStatus: 'linked'; linkedAt: string; userId: string };
}

/** The keyed hash a code is stored as, bound to its challenge's id (the borrower's sign-in codes use it too). */
export const codeHash = (secrets: Pick<Secrets, 'hmac'>, challengeId: string, code: string) => secrets.hmac(CODE_HASH_PURPOSE, `${challengeId}:${code}`);

/** A fresh code of `OTP_RULES.digits` digits. */
export const newCode = () => String(crypto.randomInt(0, 10 ** OTP_RULES.digits)).padStart(OTP_RULES.digits, '0');

/** The WebOTP last line (`@domain #code`), so Android browsers can offer the code. */
export const withWebOtpLine = (text: string, baseUrl: string, code: string) => `${text}\n\n@${new URL(baseUrl).hostname} #${code}`;

/**
 * The phone a loan's codes and links are texted to, or null when it cannot receive them: the phone its push gave when
 * that differs from the borrower's on record and the borrower has not verified it yet (`borrower-match.ts`), else the
 * borrower's phone on record. Never a number from the browser.
 */
/** The borrower's phone on record and the phone the loan's push gave, if it differs and is not verified yet. */
export function loanContact(db: Executor, loanId: string): Promise<{ phone: string; contactPhone: string | null }> {
  return db
    .selectFrom('loans as l')
    .innerJoin('borrowers as b', 'b.id', 'l.borrowerId')
    .leftJoin('preapprovals as p', 'p.id', 'l.preapprovalId')
    .select(['b.phone', 'p.contactPhone'])
    .where('l.id', '=', loanId)
    .executeTakeFirstOrThrow();
}

export async function loanPhone(db: Executor, loanId: string): Promise<string | null> {
  const row = await loanContact(db, loanId);
  return normalisePhone(row.contactPhone ?? row.phone);
}

/** `loanPhone`, refused when there is no number to text. */
export async function phoneForLoan(db: Executor, loanId: string): Promise<string> {
  const phone = await loanPhone(db, loanId);
  if (!phone) throw new AppError('borrower_phone_invalid', 'The phone number on record for this loan cannot receive a code; ask the lender to correct it.');
  return phone;
}

/**
 * A code verified on the phone a push gave makes it the borrower's phone on record (the newest verified phone wins);
 * the pre-approvals that were waiting on that phone now text the record.
 */
async function adoptVerifiedPhone(db: Executor, scope: CheckoutScope, phone: string, now: Date): Promise<void> {
  const loan = await loanContact(db, scope.loanId);
  if (!loan.contactPhone || normalisePhone(loan.contactPhone) !== phone) return;
  await db.updateTable('borrowers').set({ phone, updatedAt: now.toISOString() }).where('id', '=', scope.borrowerId).execute();
  await db.updateTable('preapprovals').set({ contactPhone: null }).where('borrowerId', '=', scope.borrowerId).where('contactPhone', '=', loan.contactPhone).execute();
}

/** One more send for this phone in the current clock hour, if the limit allows (one atomic upsert). Shared by every code sent to a phone. */
export async function takeSendSlot(db: Db, scope: Pick<CheckoutScope, 'mode'>, phone: string, now: Date): Promise<void> {
  const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
  const taken = await db
    .insertInto('otpSendWindows')
    .values({ mode: scope.mode, phone, windowStart: hour.toISOString(), sentCount: 1 })
    .onConflict((oc) =>
      oc
        .columns(['mode', 'phone', 'windowStart'])
        .doUpdateSet((eb) => ({ sentCount: eb('otpSendWindows.sentCount', '+', 1) }))
        .where('otpSendWindows.sentCount', '<', OTP_RULES.sendsPerPhonePerHour),
    )
    .returning('sentCount')
    .executeTakeFirst();
  if (!taken) {
    const wait = (hour.getTime() + 3_600_000 - now.getTime()) / 1000;
    throw new AppError('otp_send_limit', `Too many codes were sent to this phone this hour; try again in ${Math.ceil(wait / 60)} minutes.`).withRetryAfter(wait);
  }
}

/** Whose phone a code confirms: the borrower's (on record) or a guarantor's. */
export interface CodeTarget {
  phone: string;
  guarantorId: string | null;
  /** The SMS text for a code (the WebOTP line is added here). */
  text(code: string): string;
}

/** `data`: the challenge still in play (borrower OTP), so a page that lost it can show the code box and the countdown again. */
export function cooldownError(lastSentAt: string, now: Date, data?: OtpSent | OtpChallengeView | null): AppError {
  const wait = (new Date(lastSentAt).getTime() + OTP_RULES.resendCooldownMs - now.getTime()) / 1000;
  return new AppError('otp_resend_too_soon', `A code was sent moments ago; you can ask for another in ${Math.ceil(wait)} seconds.`, undefined, data ?? undefined).withRetryAfter(wait);
}

const resendAvailableAt = (lastSentAt: string) => new Date(new Date(lastSentAt).getTime() + OTP_RULES.resendCooldownMs).toISOString();

/**
 * The borrower's code in play for a session not yet verified: the latest challenge, unless it has
 * expired or was used. Null otherwise (the page then offers "Send code").
 */
export async function currentOtpChallenge(db: Executor, session: Pick<CheckoutSessionsTable, 'id' | 'otpVerifiedAt' | 'otpLastSentAt'>, now: Date): Promise<OtpChallengeView | null> {
  if (session.otpVerifiedAt || !session.otpLastSentAt) return null;
  const challenge = await db
    .selectFrom('otpChallenges')
    .select(['phone', 'expiresAt', 'attempts', 'verifiedAt'])
    .where('sessionId', '=', session.id)
    .where('guarantorId', 'is', null)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!challenge || challenge.verifiedAt || challenge.expiresAt <= now.toISOString()) return null;
  return otpChallengeView(challenge, session.otpLastSentAt, now);
}

/** A code still in play as a page shows it: where it went, until when, the resend countdown and the tries left. */
export function otpChallengeView(challenge: { phone: string; expiresAt: string; attempts: number }, lastSentAt: string, now: Date): OtpChallengeView {
  const resendAt = resendAvailableAt(lastSentAt);
  return {
    sentTo: maskPhone(challenge.phone),
    expiresAt: challenge.expiresAt,
    resendAvailableAt: resendAt,
    resendInSeconds: Math.max(0, Math.ceil((Date.parse(resendAt) - now.getTime()) / 1000)),
    attemptsAllowed: OTP_RULES.maxAttempts,
    attemptsLeft: Math.max(0, OTP_RULES.maxAttempts - challenge.attempts),
  };
}

/** The cut-off for a cool-down claim: a conditional UPDATE `where last_sent is null or last_sent <= this`. */
export const cooledDownBefore = (now: Date) => new Date(now.getTime() - OTP_RULES.resendCooldownMs).toISOString();

/**
 * Takes a send slot for the phone (hourly limit), stores a fresh challenge (keyed hash only) and
 * sends the text, outside any transaction. The caller has claimed its cool-down already.
 */
export async function deliverCode(platform: OtpPlatform, scope: CheckoutScope, target: CodeTarget, now: Date): Promise<OtpSent> {
  const sms = platform.sms.for(scope.mode);
  await takeSendSlot(platform.db, scope, target.phone, now);
  const code = newCode();
  const id = newId();
  const expiresAt = new Date(now.getTime() + OTP_RULES.lifetimeMs).toISOString();
  await platform.db
    .insertInto('otpChallenges')
    .values({
      id,
      sessionId: scope.sessionId,
      guarantorId: target.guarantorId,
      mode: scope.mode,
      phone: target.phone,
      codeHash: codeHash(platform.secrets, id, code),
      attempts: 0,
      expiresAt,
      verifiedAt: null,
      createdAt: now.toISOString(),
    })
    .execute();
  const body = withWebOtpLine(target.text(code), platform.baseUrl, code);
  try {
    await sms.send({ to: target.phone, body, mode: scope.mode });
  } catch (error) {
    throw new AppError('sms_unavailable', 'The text message could not be sent; try again shortly.', { reason: (error as Error).message });
  }
  return {
    sentTo: maskPhone(target.phone),
    expiresAt,
    resendAvailableAt: new Date(now.getTime() + OTP_RULES.resendCooldownMs).toISOString(),
    resendInSeconds: OTP_RULES.resendCooldownMs / 1000,
    attemptsAllowed: OTP_RULES.maxAttempts,
  };
}

/**
 * Checks a code against the latest challenge for the target. The attempt is counted (conditional
 * UPDATE, committed on its own) before the comparison, so parallel guesses cannot exceed the
 * limit. Returns the matched challenge; the caller records what the match means.
 *
 * A code that does not match the latest challenge but matches one it replaced (sent within the
 * last hour) answers `otp_superseded` instead of `otp_incorrect`: the borrower typed the first
 * text's code. It is never a match and it counts as an attempt on the latest code, so the limit
 * holds whatever is typed; it tells a guesser nothing about the latest code.
 */
export async function checkCode(
  platform: Pick<OtpPlatform, 'db' | 'secrets'>,
  target: { sessionId: string; guarantorId: null } | { guarantorId: string },
  code: string,
  now: Date,
) {
  const { db } = platform;
  let query = db.selectFrom('otpChallenges').selectAll();
  query = target.guarantorId === null ? query.where('sessionId', '=', target.sessionId).where('guarantorId', 'is', null) : query.where('guarantorId', '=', target.guarantorId);
  const recent = await query
    .where('createdAt', '>', new Date(now.getTime() - 3_600_000).toISOString())
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(OTP_RULES.sendsPerPhonePerHour + 1)
    .execute();
  const [challenge, ...replaced] = recent;
  if (!challenge || challenge.expiresAt <= now.toISOString()) throw new AppError('otp_expired', 'This code has expired (or none was sent); ask for a new one.');
  const counted = await db
    .updateTable('otpChallenges')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', challenge.id)
    .where('attempts', '<', OTP_RULES.maxAttempts)
    .where('verifiedAt', 'is', null)
    .executeTakeFirst();
  if (Number(counted.numUpdatedRows) !== 1) throw new AppError('otp_locked', 'Too many wrong codes; ask for a new one.', undefined, { attemptsLeft: 0 });
  if (!safeEqual(codeHash(platform.secrets, challenge.id, code), challenge.codeHash)) {
    const left = Math.max(0, OTP_RULES.maxAttempts - (challenge.attempts + 1));
    const remaining = left > 0 ? `${left} attempt${left === 1 ? '' : 's'} left.` : 'no attempts are left; ask for a new one.';
    if (replaced.some((older) => safeEqual(codeHash(platform.secrets, older.id, code), older.codeHash))) {
      throw new AppError('otp_superseded', `That code is from an earlier text: a newer code was sent, use the latest text; ${remaining}`, undefined, { attemptsLeft: left });
    }
    throw new AppError('otp_incorrect', left > 0 ? `That code is not right; ${remaining}` : 'That code is not right, and no attempts are left; ask for a new one.', undefined, { attemptsLeft: left });
  }
  return challenge;
}

/**
 * Sends a fresh code to the borrower's phone on record (never a number from the browser). The
 * cool-down is claimed by a conditional UPDATE on the session and the hourly limit by a
 * conditional upsert, so both hold across processes. A new code replaces the previous one.
 */
export async function sendOtp(
  platform: OtpPlatform,
  scope: CheckoutScope,
  options: { organisationName: string; now: Date; /** The browser's, forwarded by the checkout server. */ acceptLanguage?: string | null },
): Promise<OtpSent> {
  // Live mode without an SMS provider: 503 before the cool-down or a code is recorded.
  platform.sms.for(scope.mode);
  const { db } = platform;
  const { now } = options;
  const phone = await phoneForLoan(db, scope.loanId);
  const at = now.toISOString();
  const claimed = await db
    .updateTable('checkoutSessions')
    .set({ otpLastSentAt: at, updatedAt: at })
    .where('id', '=', scope.sessionId)
    .where((eb) => eb.or([eb('otpLastSentAt', 'is', null), eb('otpLastSentAt', '<=', cooledDownBefore(now))]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    const session = await getSessionRow(db, scope);
    throw cooldownError(session.otpLastSentAt!, now, await currentOtpChallenge(db, session, now));
  }
  const { locale } = await checkoutLanguage(db, scope, options.acceptLanguage);
  return deliverCode(platform, scope, { phone, guarantorId: null, text: (code) => smsText('otp', locale, { code, lender: options.organisationName }) }, now);
}

/**
 * Checks the borrower's code. A match verifies the session and claims the borrower for the
 * platform user with that phone. Verifying a verified session answers the same again.
 */
export async function verifyOtp(platform: Pick<OtpPlatform, 'db' | 'secrets'>, scope: CheckoutScope, code: string, now: Date): Promise<OtpVerified> {
  const { db } = platform;
  const session = await getSessionRow(db, scope);
  const borrowerLink = async () => {
    const b = await db.selectFrom('borrowers').select(['identityStatus', 'linkedAt', 'userId']).where('id', '=', scope.borrowerId).executeTakeFirstOrThrow();
    return { identityStatus: 'linked' as const, linkedAt: b.linkedAt!, userId: b.userId! };
  };
  if (session.otpVerifiedAt) return { verified: true, borrower: await borrowerLink() };
  const challenge = await checkCode(platform, { sessionId: scope.sessionId, guarantorId: null }, code, now);
  const at = now.toISOString();
  await inUnitOfWork(db, async (trx) => {
    await trx.updateTable('otpChallenges').set({ verifiedAt: at }).where('id', '=', challenge.id).execute();
    await trx.updateTable('checkoutSessions').set({ otpVerifiedAt: at, updatedAt: at }).where('id', '=', scope.sessionId).execute();
    await claimBorrower(trx, { borrowerId: scope.borrowerId, mode: scope.mode, phone: challenge.phone, now });
    await adoptVerifiedPhone(trx, scope, challenge.phone, now);
  });
  return { verified: true, borrower: await borrowerLink() };
}
