import type { Executor } from '../../db/database';
import type { LoansTable } from '../../db/schema';
import { isUniqueViolation } from '../../db/database';
import { newId } from '../ids';
import { renderOfferLetter, type OfferLetterData } from '../offer-letter/render-offer-letter';
import { dueDates } from '../pricing/schedule-dates';
import { loadSnapshot } from './pricing-snapshot';
import { credentialFingerprint } from '../passkeys/passkey';
import { loanBorrowerLanguage } from '../languages/borrower-locale';
import { lenderContact } from '../checkout/lender-contact';

export interface LetterSettings {
  coolingOffDays: number;
  /** The platform's complaints address: printed only when the lender set no support contact. */
  complaintsEmail: string;
}

/**
 * The offer letter is a pure function of the frozen snapshot (and, once accepted, the consent),
 * so it is rendered on first request and kept: the `offer` variant at approval, the `signed`
 * variant after acceptance, each stored once per document reference.
 */
export async function offerLetterPdf(db: Executor, loan: LoansTable, documentReference: string, settings: LetterSettings): Promise<Buffer | undefined> {
  const snapshotRow = await db
    .selectFrom('pricingSnapshots')
    .select('id')
    .where('loanId', '=', loan.id)
    .where('documentReference', '=', documentReference)
    .executeTakeFirst();
  if (!snapshotRow) return undefined;
  const consent = await db
    .selectFrom('loanConsents')
    .selectAll()
    .where('loanId', '=', loan.id)
    .where('kind', '=', 'accept')
    .where('documentReference', '=', documentReference)
    .executeTakeFirst();
  // Each language's letter is its own stored variant (`offer`, `offer:yo`, `signed:yo`…): a borrower who changes language gets the letter in the new one.
  const { locale } = await loanBorrowerLanguage(db, loan);
  const variant = `${consent ? 'signed' : 'offer'}${locale === 'en' ? '' : `:${locale}`}`;
  const stored = await db
    .selectFrom('offerLetters')
    .select('pdf')
    .where('loanId', '=', loan.id)
    .where('documentReference', '=', documentReference)
    .where('variant', '=', variant)
    .executeTakeFirst();
  if (stored) return Buffer.from(stored.pdf);

  const passkey = consent
    ? await db.selectFrom('loanConsentPasskeys').select(['credentialId', 'verifiedAt', 'rpId', 'verified']).where('consentId', '=', consent.id).executeTakeFirst()
    : undefined;
  const snapshot = await loadSnapshot(db, snapshotRow.id);
  const borrower = await db.selectFrom('borrowers').select(['firstName', 'lastName', 'phone', 'email']).where('id', '=', loan.borrowerId).executeTakeFirstOrThrow();
  const lender = await db.selectFrom('organisations').select('name').where('id', '=', loan.organisationId).executeTakeFirstOrThrow();
  // Complaints go to the lender, as its borrowers reach it elsewhere (its checkout settings' support e-mail and phone).
  const contact = await lenderContact(db, { organisationId: loan.organisationId, mode: loan.mode });
  const product = await db.selectFrom('loanProducts').select('rateDisplay').where('id', '=', loan.loanProductId).executeTakeFirst();
  const dates = dueDates(new Date(snapshot.createdAt), snapshot.priced.instalments);
  const data: OfferLetterData = {
    documentReference,
    issuedAt: snapshot.createdAt,
    lender: {
      name: lender.name,
      complaintsEmail: contact.email ?? settings.complaintsEmail,
      ...(contact.phone ? { complaintsPhone: contact.phone } : {}),
    },
    borrower,
    loan: {
      id: loan.id,
      currency: loan.currency,
      principalKobo: snapshot.priced.input.principalKobo,
      tenorDays: snapshot.priced.input.tenorDays,
      repaymentFrequency: snapshot.priced.input.repaymentFrequency ?? 'monthly',
      interestModel: snapshot.terms.interestModel,
      annualRateBps: snapshot.priced.input.annualRateBps,
      rateDisplay: product?.rateDisplay === 'monthly' ? 'monthly' : 'annual',
    },
    costs: {
      processingFeeKobo: snapshot.priced.processingFeeKobo,
      insurancePremiumKobo: snapshot.priced.borrowerInsurancePremiumKobo,
      lateFeeBps: snapshot.terms.lateFeeBps,
      totalInterestKobo: snapshot.priced.totalInterestKobo,
      totalFeesKobo: snapshot.priced.totalFeesKobo,
      costOfCreditKobo: snapshot.priced.costOfCreditKobo,
      totalRepayableKobo: snapshot.priced.totalRepayableKobo,
      aprBps: snapshot.priced.aprBps,
    },
    schedule: snapshot.priced.instalments.map((row, i) => ({ ...row, dueDate: dates[i]! })),
    coolingOffDays: settings.coolingOffDays,
    locale,
    signature: consent
      ? {
          signatureFullName: consent.signatureFullName,
          signatureEmail: consent.signatureEmail,
          signedAt: consent.signedAt,
          ipAddress: consent.ipAddress,
          userAgent: consent.userAgent,
          documentReference: consent.documentReference,
          nameCheck:
            consent.signatureNameMatch && consent.signatureNameOnRecord
              ? { status: consent.signatureNameMatch, nameOnRecord: consent.signatureNameOnRecord, confirmed: Boolean(consent.signatureNameConfirmed) }
              : undefined,
          passkey:
            passkey && passkey.verified
              ? { credentialFingerprint: credentialFingerprint(passkey.credentialId), verifiedAt: passkey.verifiedAt, rpId: passkey.rpId }
              : undefined,
        }
      : undefined,
  };
  const pdf = await renderOfferLetter(data);
  try {
    await db
      .insertInto('offerLetters')
      .values({ id: newId(), loanId: loan.id, documentReference, variant, pdf, createdAt: new Date().toISOString() })
      .onConflict((oc) => oc.columns(['loanId', 'documentReference', 'variant']).doNothing())
      .execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  return pdf;
}
