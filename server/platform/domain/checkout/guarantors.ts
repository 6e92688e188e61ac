import type { Db, Executor } from '../../db/database';
import type { LoanGuarantorsTable } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import { maskPhone, normalisePhone } from '../users/phone';
import { getSessionRow, requireOtpVerified, type CheckoutScope } from './checkout-session';
import { checkCode, cooldownError, cooledDownBefore, deliverCode, type OtpPlatform, type OtpSent, loanContact } from './otp';
import { inUnitOfWork } from '../unit-of-work';

/** A borrower may name a few more guarantors than required (one did not answer), never an open-ended list of numbers to text. */
const EXTRA_GUARANTORS = 2;

export type { Guarantor } from '../../../shared/checkout-contract';
import type { Guarantor } from '../../../shared/checkout-contract';

export const toGuarantor = (row: LoanGuarantorsTable): Guarantor => ({
  id: row.id,
  fullName: row.fullName,
  phoneHint: maskPhone(row.phone),
  relationship: row.relationship,
  verified: row.verifiedAt !== null,
  verifiedAt: row.verifiedAt,
});

/** How many guarantors the loan's product asks for (0 = the step does not exist). */
export async function guarantorsRequired(db: Executor, loanId: string): Promise<number> {
  const row = await db
    .selectFrom('loans')
    .innerJoin('loanProducts', 'loanProducts.id', 'loans.loanProductId')
    .select('loanProducts.guarantorsRequired')
    .where('loans.id', '=', loanId)
    .executeTakeFirstOrThrow();
  return Number(row.guarantorsRequired);
}

export async function listGuarantors(db: Executor, loanId: string): Promise<LoanGuarantorsTable[]> {
  return db.selectFrom('loanGuarantors').selectAll().where('loanId', '=', loanId).orderBy('createdAt').orderBy('id').execute();
}

async function guarantorRow(db: Executor, scope: CheckoutScope, guarantorId: string): Promise<LoanGuarantorsTable> {
  const row = await db.selectFrom('loanGuarantors').selectAll().where('id', '=', guarantorId).where('loanId', '=', scope.loanId).executeTakeFirst();
  if (!row) throw notFound('guarantor');
  return row;
}

function guarantorText(borrowerName: string, organisationName: string) {
  return (code: string) => `${code} is the code to confirm you are guaranteeing ${borrowerName}'s loan with ${organisationName}. Give it to ${borrowerName} only if you agree.`;
}

async function sendGuarantorCode(platform: OtpPlatform, scope: CheckoutScope, row: LoanGuarantorsTable, organisationName: string, now: Date): Promise<OtpSent> {
  const at = now.toISOString();
  const claimed = await platform.db
    .updateTable('loanGuarantors')
    .set({ otpLastSentAt: at, updatedAt: at })
    .where('id', '=', row.id)
    .where((eb) => eb.or([eb('otpLastSentAt', 'is', null), eb('otpLastSentAt', '<=', cooledDownBefore(now))]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw cooldownError((await guarantorRow(platform.db, scope, row.id)).otpLastSentAt!, now);
  const borrower = await platform.db.selectFrom('borrowers').select('firstName').where('id', '=', scope.borrowerId).executeTakeFirstOrThrow();
  return deliverCode(platform, scope, { phone: row.phone, guarantorId: row.id, text: guarantorText(borrower.firstName, organisationName) }, now);
}

/**
 * The borrower names a guarantor (name, phone, relationship); the guarantor gets a code by SMS and
 * gives it to the borrower, which confirms their phone and their agreement. Naming the same phone
 * again updates the unverified entry and sends a new code (within the OTP limits).
 */
export async function addGuarantor(
  platform: OtpPlatform,
  scope: CheckoutScope,
  input: { fullName: string; phone: string; relationship: string },
  options: { organisationName: string; now: Date },
): Promise<{ guarantor: Guarantor; otp: OtpSent | null }> {
  // Live mode without an SMS provider: 503 before the guarantor or a code is recorded.
  platform.sms.for(scope.mode);
  const { db } = platform;
  requireOtpVerified(await getSessionRow(db, scope));
  const required = await guarantorsRequired(db, scope.loanId);
  if (required === 0) throw new AppError('guarantors_not_accepted', 'This loan does not take guarantors.');
  const phone = normalisePhone(input.phone);
  if (!phone) throw new AppError('guarantor_phone_invalid', 'That is not a phone number we can text; use the format 0801 234 5678.');
  const borrowerPhones = await loanContact(db, scope.loanId);
  if ([borrowerPhones.phone, borrowerPhones.contactPhone].some((own) => own && normalisePhone(own) === phone)) throw new AppError('guarantor_phone_invalid', 'A guarantor must be someone else: use their phone number, not yours.');
  const existing = await listGuarantors(db, scope.loanId);
  let row = existing.find((g) => g.phone === phone);
  if (row?.verifiedAt) return { guarantor: toGuarantor(row), otp: null };
  const at = options.now.toISOString();
  if (row) {
    await db.updateTable('loanGuarantors').set({ fullName: input.fullName, relationship: input.relationship, updatedAt: at }).where('id', '=', row.id).execute();
    row = { ...row, fullName: input.fullName, relationship: input.relationship };
  } else {
    if (existing.length >= required + EXTRA_GUARANTORS) {
      throw new AppError('guarantors_not_accepted', `No more guarantors can be added to this loan (at most ${required + EXTRA_GUARANTORS}).`);
    }
    const fresh: LoanGuarantorsTable = {
      id: newId(),
      organisationId: scope.organisationId,
      mode: scope.mode,
      loanId: scope.loanId,
      fullName: input.fullName,
      phone,
      relationship: input.relationship,
      verifiedAt: null,
      otpLastSentAt: null,
      createdAt: at,
      updatedAt: at,
    };
    // A concurrent request naming the same phone may win the insert; both then use its row.
    await db.insertInto('loanGuarantors').values(fresh).onConflict((oc) => oc.columns(['loanId', 'phone']).doNothing()).execute();
    row = await db.selectFrom('loanGuarantors').selectAll().where('loanId', '=', scope.loanId).where('phone', '=', phone).executeTakeFirstOrThrow();
  }
  const otp = await sendGuarantorCode(platform, scope, row, options.organisationName, options.now);
  return { guarantor: toGuarantor(row), otp };
}

/** A new code for a guarantor that has not confirmed yet. */
export async function resendGuarantorCode(platform: OtpPlatform, scope: CheckoutScope, guarantorId: string, options: { organisationName: string; now: Date }): Promise<OtpSent> {
  platform.sms.for(scope.mode);
  requireOtpVerified(await getSessionRow(platform.db, scope));
  const row = await guarantorRow(platform.db, scope, guarantorId);
  if (row.verifiedAt) throw new AppError('guarantors_not_accepted', 'This guarantor has confirmed already.');
  return sendGuarantorCode(platform, scope, row, options.organisationName, options.now);
}

/** The guarantor's code, typed in by the borrower: the guarantor is confirmed. Confirming again answers the same. */
export async function verifyGuarantor(platform: Pick<OtpPlatform, 'db' | 'secrets'>, scope: CheckoutScope, guarantorId: string, code: string, now: Date): Promise<Guarantor> {
  const db: Db = platform.db;
  requireOtpVerified(await getSessionRow(db, scope));
  const row = await guarantorRow(db, scope, guarantorId);
  if (row.verifiedAt) return toGuarantor(row);
  const challenge = await checkCode(platform, { guarantorId }, code, now);
  const at = now.toISOString();
  await inUnitOfWork(db, async (trx) => {
    await trx.updateTable('otpChallenges').set({ verifiedAt: at }).where('id', '=', challenge.id).execute();
    await trx.updateTable('loanGuarantors').set({ verifiedAt: at, updatedAt: at }).where('id', '=', row.id).where('verifiedAt', 'is', null).execute();
  });
  return toGuarantor({ ...row, verifiedAt: at });
}

/** Signing needs the product's guarantors confirmed. */
export async function requireGuarantors(db: Executor, loanId: string): Promise<void> {
  const required = await guarantorsRequired(db, loanId);
  if (required === 0) return;
  const confirmed = (await listGuarantors(db, loanId)).filter((g) => g.verifiedAt).length;
  if (confirmed < required) {
    throw new AppError('checkout_step_required', `This loan needs ${required} confirmed guarantor${required === 1 ? '' : 's'} before signing (${confirmed} so far).`);
  }
}
