import type { Db, Executor } from '../../db/database';
import type { Mode } from '../../db/schema';
import type { Services } from '../services';
import { AppError } from '../errors';
import { newId } from '../ids';
import { safeEqual } from '../secrets';
import { maskPhone, normalisePhone } from '../users/phone';
import { OTP_RULES, codeHash, cooledDownBefore, cooldownError, newCode, takeSendSlot, withWebOtpLine, type OtpSent } from '../checkout/otp';
import { lenderContact, type LenderContact } from '../checkout/lender-contact';
import { smsText } from '../languages/sms-texts';
import { isLocale, localeOfAcceptLanguage, type Locale } from '../../../shared/locales';
import { BORROWER_SESSION_RULES, insertBorrowerSession, type MintedBorrowerSession } from './borrower-session';
import { LENT_STATES, phoneSpellings } from './borrower-phone';

/**
 * Signing in by phone: a code by text, then a session per lender. The checkout's OTP rules hold (`OTP_RULES`: 6 digits,
 * 5 minutes, 5 attempts, 30 s between codes, 5 codes per phone per clock hour shared with every other code to that
 * phone). Whether the phone has loans is never told before the code is verified: the send answers the same either way
 * (a code is recorded either way and the text goes out after the answer, only where there are loans to see), and a
 * wrong code is wrong either way.
 */

type SignInPlatform = Pick<Services, 'db' | 'secrets' | 'sms' | 'baseUrl' | 'logger'>;

export interface SignInRequest {
  phone: string;
  mode: Mode;
  /** One lender only; without it, every lender the phone has loans with (one session each). */
  organisationId?: string | null;
}

export interface SignInCodeSent {
  sentTo: string;
  expiresAt: string;
  resendInSeconds: number;
  attemptsAllowed: number;
}

export interface SignedIn {
  /** One per lender the phone has loans with (none when it has none): lenders are kept apart. */
  sessions: Array<MintedBorrowerSession & { lender: LenderContact & { organisationId: string } }>;
}

function phoneOf(raw: string): string {
  const phone = normalisePhone(raw);
  if (!phone) throw new AppError('invalid_request', 'body.phone: not a valid mobile number (e.g. +2348031234567 or 08031234567)');
  return phone;
}

/** The lenders (organisations) where borrowers with this phone have a lent loan, in this mode. */
async function lendersOf(db: Executor, request: { mode: Mode; phone: string; organisationId?: string | null }): Promise<string[]> {
  let query = db
    .selectFrom('borrowers as b')
    .innerJoin('loans as l', 'l.borrowerId', 'b.id')
    .select('b.organisationId')
    .distinct()
    .where('b.phone', 'in', phoneSpellings(request.phone))
    .where('b.mode', '=', request.mode)
    .where('l.status', 'in', LENT_STATES);
  if (request.organisationId) query = query.where('b.organisationId', '=', request.organisationId);
  const rows = await query.orderBy('b.organisationId').execute();
  return rows.map((r) => r.organisationId);
}

/**
 * The sign-in code's language: the one the borrower picked on the page (`locale`), else the latest language a borrower
 * with this phone chose in a checkout (the phone's owner either way), else the browser's `Accept-Language`, else English.
 */
async function signInLanguage(db: Executor, mode: Mode, phone: string, picked: Locale | undefined, acceptLanguage: string | undefined): Promise<Locale> {
  if (picked) return picked;
  const saved = await db
    .selectFrom('borrowers')
    .select('preferredLocale')
    .where('phone', 'in', phoneSpellings(phone))
    .where('mode', '=', mode)
    .where('preferredLocale', 'is not', null)
    .orderBy('updatedAt', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (isLocale(saved?.preferredLocale)) return saved.preferredLocale;
  return localeOfAcceptLanguage(acceptLanguage) ?? 'en';
}

/** Texts a sign-in code. The answer is the same whether or not the phone has loans. */
export async function sendSignInCode(platform: SignInPlatform, request: SignInRequest & { locale?: Locale; acceptLanguage?: string }, now: Date): Promise<SignInCodeSent> {
  const phone = phoneOf(request.phone);
  const sms = platform.sms.for(request.mode);
  const db: Db = platform.db;
  const at = now.toISOString();
  const claimed = await db
    .insertInto('borrowerSignInPhones')
    .values({ mode: request.mode, phone, lastSentAt: at })
    .onConflict((oc) => oc.columns(['mode', 'phone']).doUpdateSet({ lastSentAt: at }).where('borrowerSignInPhones.lastSentAt', '<=', cooledDownBefore(now)))
    .returning('lastSentAt')
    .executeTakeFirst();
  if (!claimed) {
    const last = await db.selectFrom('borrowerSignInPhones').select('lastSentAt').where('mode', '=', request.mode).where('phone', '=', phone).executeTakeFirstOrThrow();
    // What the 200 of that send said (where, until when, the countdown), so a page reloaded (or a second tab) shows the
    // box for the code the borrower already has instead of a wait with nowhere to type it. From the send's time alone:
    // whether the code was texted, tried or used would tell a phone with loans from one without.
    throw cooldownError(last.lastSentAt, now, sentView(phone, last.lastSentAt, now));
  }
  await takeSendSlot(db, { mode: request.mode }, phone, now);
  const code = newCode();
  const id = newId();
  const expiresAt = new Date(now.getTime() + OTP_RULES.lifetimeMs).toISOString();
  await db
    .insertInto('borrowerSignInCodes')
    .values({ id, mode: request.mode, phone, organisationId: request.organisationId ?? null, codeHash: codeHash(platform.secrets, id, code), attempts: 0, expiresAt, verifiedAt: null, createdAt: at })
    .execute();
  // After the answer, so how long it takes says nothing either.
  void (async () => {
    const lenders = await lendersOf(db, { ...request, phone });
    if (lenders.length === 0) return;
    const lender = lenders.length === 1 ? (await lenderContact(db, { organisationId: lenders[0]!, mode: request.mode })).name : 'lender';
    const locale = await signInLanguage(db, request.mode, phone, request.locale, request.acceptLanguage);
    await sms.send({ to: phone, body: withWebOtpLine(smsText('otp', locale, { code, lender }), platform.baseUrl, code), mode: request.mode });
  })().catch((error: unknown) => platform.logger.warn({ err: error }, 'borrower sign-in code not texted'));
  return { sentTo: maskPhone(phone), expiresAt, resendInSeconds: OTP_RULES.resendCooldownMs / 1000, attemptsAllowed: OTP_RULES.maxAttempts };
}

/** The answer a send at `sentAt` gave, as seen at `now` (the countdown runs on). */
function sentView(phone: string, sentAt: string, now: Date): OtpSent {
  const resendAvailableAt = new Date(Date.parse(sentAt) + OTP_RULES.resendCooldownMs).toISOString();
  return {
    sentTo: maskPhone(phone),
    expiresAt: new Date(Date.parse(sentAt) + OTP_RULES.lifetimeMs).toISOString(),
    resendAvailableAt,
    resendInSeconds: Math.max(0, Math.ceil((Date.parse(resendAvailableAt) - now.getTime()) / 1000)),
    attemptsAllowed: OTP_RULES.maxAttempts,
  };
}

/**
 * Checks the code against the phone's latest one (the attempt is counted first, by a conditional UPDATE, so parallel
 * guesses cannot pass the limit) and, on a match, mints one session per lender the phone has loans with.
 */
export async function verifySignInCode(platform: Pick<SignInPlatform, 'db' | 'secrets'>, request: SignInRequest & { code: string }, now: Date): Promise<SignedIn> {
  const phone = phoneOf(request.phone);
  const { db } = platform;
  const challenge = await db
    .selectFrom('borrowerSignInCodes')
    .selectAll()
    .where('mode', '=', request.mode)
    .where('phone', '=', phone)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const sameLender = challenge && (request.organisationId ?? null) === challenge.organisationId;
  if (!challenge || !sameLender || challenge.verifiedAt || challenge.expiresAt <= now.toISOString()) {
    throw new AppError('otp_expired', 'This code has expired (or none was sent); ask for a new one.');
  }
  const counted = await db
    .updateTable('borrowerSignInCodes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', challenge.id)
    .where('attempts', '<', OTP_RULES.maxAttempts)
    .where('verifiedAt', 'is', null)
    .executeTakeFirst();
  if (Number(counted.numUpdatedRows) !== 1) throw new AppError('otp_locked', 'Too many wrong codes; ask for a new one.', undefined, { attemptsLeft: 0 });
  if (!safeEqual(codeHash(platform.secrets, challenge.id, request.code), challenge.codeHash)) {
    const left = Math.max(0, OTP_RULES.maxAttempts - (challenge.attempts + 1));
    throw new AppError('otp_incorrect', left > 0 ? `That code is not right; ${left} attempt${left === 1 ? '' : 's'} left.` : 'That code is not right, and no attempts are left; ask for a new one.', undefined, {
      attemptsLeft: left,
    });
  }
  const at = now.toISOString();
  const used = await db.updateTable('borrowerSignInCodes').set({ verifiedAt: at }).where('id', '=', challenge.id).where('verifiedAt', 'is', null).executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) throw new AppError('otp_expired', 'This code was used already; ask for a new one.');
  const sessions: SignedIn['sessions'] = [];
  for (const organisationId of await lendersOf(db, { ...request, phone })) {
    const scope = { organisationId, mode: request.mode };
    const minted = await insertBorrowerSession(db, { secrets: platform.secrets, scope, phone, loanId: null, source: 'sign_in', ttlMinutes: BORROWER_SESSION_RULES.defaultTtlMinutes, now });
    sessions.push({ ...minted, lender: { organisationId, ...(await lenderContact(db, scope)) } });
  }
  return { sessions };
}
