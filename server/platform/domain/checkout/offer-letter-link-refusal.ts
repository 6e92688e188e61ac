import type { Executor } from '../../db/database';
import { isLocale, localeOfAcceptLanguage, type Locale } from '../../../shared/locales';
import { isGenuineOfferLetterLink } from '../loans/offer-letter-link';
import type { Secrets } from '../secrets';
import { getCheckoutSettings } from './checkout-settings';
import { lenderContact, type LenderContact } from './lender-contact';

/** What the page of an offer-letter link that no longer works may say. */
export interface OfferLetterLinkRefusal {
  /** `expired`: a link this platform signed whose minutes ran out; `invalid`: anything else (cut short, altered). */
  reason: 'expired' | 'invalid';
  locale: Locale;
  /** The lender's public face (checkout settings), only for a link this platform signed: an altered link names nobody. */
  lender: (LenderContact & { brandColor: string | null }) | null;
}

/**
 * A browser opened an offer-letter link that does not verify. A genuine link past its time names its
 * lender (the signature proves which loan it was made for; nothing of the loan itself is shown) and
 * speaks the borrower's saved language, else the browser's; any other link gets the generic page.
 * The link itself is never renewed here: a fresh one comes only from the checkout, which holds the session.
 */
export async function offerLetterLinkRefusal(
  db: Executor,
  secrets: Secrets,
  link: { loanId: string; documentReference: string; expires: string; signature: string },
  acceptLanguage: string | undefined,
): Promise<OfferLetterLinkRefusal> {
  const browserLocale = localeOfAcceptLanguage(acceptLanguage) ?? 'en';
  const genuine = /^[0-9a-f-]{36}$/.test(link.loanId) && isGenuineOfferLetterLink(secrets, link);
  const loan = genuine
    ? await db
        .selectFrom('loans')
        .innerJoin('borrowers', 'borrowers.id', 'loans.borrowerId')
        .select(['loans.organisationId', 'loans.mode', 'borrowers.preferredLocale'])
        .where('loans.id', '=', link.loanId)
        .executeTakeFirst()
    : undefined;
  if (!loan) return { reason: 'invalid', locale: browserLocale, lender: null };
  const scope = { organisationId: loan.organisationId, mode: loan.mode };
  const [contact, settings] = await Promise.all([lenderContact(db, scope), getCheckoutSettings(db, scope)]);
  return { reason: 'expired', locale: isLocale(loan.preferredLocale) ? loan.preferredLocale : browserLocale, lender: { ...contact, brandColor: settings.brandColor } };
}
