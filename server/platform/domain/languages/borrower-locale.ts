import type { Executor } from '../../db/database';
import type { Locale } from '../../../shared/locales';
import type { CheckoutScope } from '../checkout/checkout-session';
import { negotiateLocale, type LocaleSource } from './negotiate-locale';

/** Who named the language: the borrower in the language menu, or the partner (the widget's `locale` attribute on mount). */
export type LocaleChooser = 'borrower' | 'partner';

export interface CheckoutLanguage {
  locale: Locale;
  source: LocaleSource;
}

/**
 * Records a language for the session. The borrower's pick is kept on the session and on the
 * borrower (the saved choice for later sessions and for texts sent outside one); the partner's
 * mount locale on the session only. Answers the language texts for this session now use.
 */
export async function chooseCheckoutLanguage(
  db: Executor,
  scope: CheckoutScope,
  choice: { locale: Locale; chosenBy: LocaleChooser; acceptLanguage?: string | null; now: Date },
): Promise<CheckoutLanguage> {
  const at = choice.now.toISOString();
  if (choice.chosenBy === 'borrower') {
    await db.updateTable('checkoutSessions').set({ locale: choice.locale, updatedAt: at }).where('id', '=', scope.sessionId).execute();
    await db.updateTable('borrowers').set({ preferredLocale: choice.locale, updatedAt: at }).where('id', '=', scope.borrowerId).execute();
  } else {
    await db.updateTable('checkoutSessions').set({ partnerLocale: choice.locale, updatedAt: at }).where('id', '=', scope.sessionId).execute();
  }
  return checkoutLanguage(db, scope, choice.acceptLanguage);
}

/** The language of a text sent within a checkout session (the OTP, a renewed link). */
export async function checkoutLanguage(db: Executor, scope: Pick<CheckoutScope, 'sessionId' | 'borrowerId'>, acceptLanguage?: string | null): Promise<CheckoutLanguage> {
  const session = await db.selectFrom('checkoutSessions').select(['locale', 'partnerLocale']).where('id', '=', scope.sessionId).executeTakeFirstOrThrow();
  const borrower = await db.selectFrom('borrowers').select('preferredLocale').where('id', '=', scope.borrowerId).executeTakeFirstOrThrow();
  return negotiateLocale({ sessionChoice: session.locale, partnerLocale: session.partnerLocale, savedChoice: borrower.preferredLocale, acceptLanguage });
}

/**
 * The language of what reaches a borrower outside a request of theirs (the offer-ready text, the
 * receipt, the offer letter): the latest session of the loan that has a pick or a partner
 * locale, then the borrower's saved choice. No browser is asking, so no `Accept-Language`.
 */
export async function loanBorrowerLanguage(db: Executor, loan: { id: string; borrowerId: string }): Promise<CheckoutLanguage> {
  const session = await db
    .selectFrom('checkoutSessions')
    .select(['locale', 'partnerLocale'])
    .where('loanId', '=', loan.id)
    .where((eb) => eb.or([eb('locale', 'is not', null), eb('partnerLocale', 'is not', null)]))
    .orderBy('updatedAt', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const borrower = await db.selectFrom('borrowers').select('preferredLocale').where('id', '=', loan.borrowerId).executeTakeFirstOrThrow();
  return negotiateLocale({ sessionChoice: session?.locale, partnerLocale: session?.partnerLocale, savedChoice: borrower.preferredLocale });
}
