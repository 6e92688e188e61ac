import type { Locale } from '../../../shared/locales';

/**
 * The texts the platform sends a borrower, in every shipped language. Machine-assisted
 * translations pending native review (docs/languages/README.md); the financial words follow the
 * glossary there. Placeholders are `{name}`; every language has the same ones (a unit test checks).
 *
 * Cost: English and Pidgin stay in the GSM-7 alphabet (160 characters a part; amounts as "NGN",
 * never "₦"). Yorùbá, Hausa and Igbo cannot: one ẹ, ƙ or ụ makes the whole text UCS-2, 70 code
 * units a part (67 when split). Those texts are written short; `npm run i18n:sms` prints the parts
 * each costs, and `test/unit/sms-texts.test.ts` holds the counts.
 */
export const SMS_TEXTS = {
  /** The borrower's phone code (the WebOTP line `@host #code` is added after it). */
  otp: {
    en: '{code} is your {lender} loan code. It expires in 5 minutes. Never share it.',
    pcm: '{code} na your {lender} loan code. E go expire for 5 minutes. No show anybody.',
    yo: '{code} ni kóòdù awin {lender} rẹ. Ó dópin ní ìṣẹ́jú 5. Má fi han ẹnikẹ́ni.',
    ha: '{code} ce lambar lamunin {lender}. Za ta ƙare cikin minti 5. Kada ku ba kowa.',
    ig: '{code} bụ koodu mbinye ego {lender} gị. Ọ ga-agwụ na nkeji 5. Egosila onye ọ bụla.',
  },
  /** The lender approved while the borrower waited: the link to the offer. */
  offerReady: {
    en: '{lender}: your loan offer is ready. Review and sign it here: {url} Never share this link.',
    pcm: '{lender}: your loan offer don ready. Check am and sign here: {url} No share dis link.',
    yo: '{lender}: ìfilọ̀ awin rẹ ti ṣetán. Wò ó kí o sì fọwọ́ sí i níbí: {url} Má fi ìjápọ̀ yìí han ẹnikẹ́ni.',
    ha: '{lender}: tayin lamuninku ya shirya. Ku duba ku sa hannu a nan: {url} Kada ku ba kowa wannan mahaɗi.',
    ig: '{lender}: onyinye mbinye ego gị adịla njikere. Lelee ma bịanye aka ebe a: {url} Ekesala onye ọ bụla njikọ a.',
  },
  /** An expired link renewed: the new link, texted to the phone on record. */
  renewedLink: {
    en: '{lender}: here is your new link to finish your loan: {url} It works for {minutes} minutes. Never share it.',
    pcm: '{lender}: dis na your new link to finish your loan: {url} E go work for {minutes} minutes. No share am.',
    yo: '{lender}: ìjápọ̀ tuntun rẹ láti parí awin rẹ nìyí: {url} Ó wúlò fún ìṣẹ́jú {minutes}. Má fi han ẹnikẹ́ni.',
    ha: '{lender}: ga sabon mahaɗinku don kammala lamuninku: {url} Yana aiki na minti {minutes}. Kada ku ba kowa.',
    ig: '{lender}: nke a bụ njikọ ọhụrụ gị iji mechaa mbinye ego gị: {url} Ọ na-arụ ọrụ nkeji {minutes}. Ekesala ya.',
  },
  /** The checkout is complete: the receipt (`{debit}` is `receiptDebit` or empty). */
  receipt: {
    en: '{lender}: your loan of {amount} is confirmed.{debit} Ref {loanId}.',
    pcm: '{lender}: your loan of {amount} don confirm.{debit} Ref {loanId}.',
    yo: '{lender}: a ti fìdí awin {amount} rẹ múlẹ̀.{debit} Ref {loanId}.',
    ha: '{lender}: an tabbatar da lamuninku na {amount}.{debit} Ref {loanId}.',
    ig: '{lender}: e kwadoro mbinye ego gị nke {amount}.{debit} Ref {loanId}.',
  },
  /** The receipt's first-repayment sentence, when there is a schedule and a captured account. */
  receiptDebit: {
    en: ' First repayment {amount} on {date} by direct debit from your {bank} account ending {last4}.',
    pcm: ' First payment {amount} on {date} by direct debit from your {bank} account wey end with {last4}.',
    yo: ' Ìsanpadà àkọ́kọ́ {amount} ní {date}, nípasẹ̀ ìyọkúrò tààrà láti àkọọ́lẹ̀ {bank} rẹ tó parí sí {last4}.',
    ha: ' Biyan farko {amount} a ranar {date} ta cirewa kai tsaye daga asusunku na {bank} mai ƙarewa da {last4}.',
    ig: ' Ịkwụghachi mbụ {amount} na {date} site na mwepụ ozugbo n\'akaụntụ {bank} gị nke na-agwụ na {last4}.',
  },
  /** After the receipt: the borrower's loan page, where they sign in with their phone (no token in the text). */
  receiptLink: {
    en: ' See your loan or pay early: {url}',
    pcm: ' See your loan or pay early: {url}',
    yo: ' Wo awin rẹ tàbí san án ní kùtùkùtù: {url}',
    ha: ' Duba lamuninku ko ku biya da wuri: {url}',
    ig: ' Lee mbinye ego gị ma ọ bụ kwụọ n\'oge: {url}',
  },
  /** A direct debit the borrower never approved lapsed (the mandate sweep): nothing was taken; the link back to the checkout, where "Try again" sets up a fresh one. */
  mandateExpired: {
    en: '{lender}: your direct debit request expired before you approved it. Nothing was taken from your account. To set it up again: {url}',
    pcm: '{lender}: your direct debit request don expire before you approve am. Nothing comot from your account. To set am up again: {url}',
    yo: '{lender}: ìbéèrè ìyọkúrò tààrà rẹ ti dópin kí o tó fọwọ́ sí i. A kò gba nǹkan kan. Láti tún un ṣe: {url}',
    ha: '{lender}: buƙatar cirewa kai tsaye ta ƙare kafin ku amince. Ba a cire komai ba. Don sake saitawa: {url}',
    ig: '{lender}: arịrịọ mwepụ ozugbo gị agwụla tupu ị kwado ya. Ewereghị ihe ọ bụla. Iji dozie ya ọzọ: {url}',
  },
  /** `mandateExpired` for a loan without an application link (the partner holds the checkout link). */
  mandateExpiredNoLink: {
    en: '{lender}: your direct debit request expired before you approved it. Nothing was taken from your account. Open your loan link to try again.',
    pcm: '{lender}: your direct debit request don expire before you approve am. Nothing comot from your account. Open your loan link to try again.',
    yo: '{lender}: ìbéèrè ìyọkúrò tààrà rẹ ti dópin kí o tó fọwọ́ sí i. A kò gba nǹkan kan. Ṣí ìjápọ̀ awin rẹ láti tún gbìyànjú.',
    ha: '{lender}: buƙatar cirewa kai tsaye ta ƙare kafin ku amince. Ba a cire komai ba. Buɗe mahaɗin lamuninku don sake gwadawa.',
    ig: '{lender}: arịrịọ mwepụ ozugbo gị agwụla tupu ị kwado ya. Ewereghị ihe ọ bụla. Mepee njikọ mbinye ego gị ka ị nwaa ọzọ.',
  },
  /** A few days before a direct debit (the product's `reminders.leadDays`): how much, and when. */
  debitReminder: {
    en: '{lender}: reminder, {amount} for your loan will be taken by direct debit on {date}. Please keep enough in your account.',
    pcm: '{lender}: reminder, we go take {amount} for your loan by direct debit on {date}. Abeg keep enough money for your account.',
    yo: '{lender}: a ó yọ {amount} fún awin rẹ ní {date} nípasẹ̀ ìyọkúrò tààrà. Fi owó tó tó sínú àkọọ́lẹ̀ rẹ.',
    ha: '{lender}: za a cire {amount} na lamuninku ta cirewa kai tsaye ranar {date}. Ku ajiye isasshen kuɗi a asusunku.',
    ig: '{lender}: a ga-ewepụ {amount} maka mbinye ego gị site na mwepụ ozugbo na {date}. Debe ego zuru ezu n\'akaụntụ gị.',
  },
  /** A direct debit failed: the link to pay now (`/my-loan`, where the borrower signs in with their phone; no token in it). */
  debitFailed: {
    en: '{lender}: your repayment of {amount} could not be taken by direct debit. Please pay now here: {url}',
    pcm: '{lender}: we no fit take your payment of {amount} by direct debit. Abeg pay now here: {url}',
    yo: '{lender}: a kò rí {amount} gbà nípasẹ̀ ìyọkúrò tààrà. Jọ̀ọ́ san án níbí: {url}',
    ha: '{lender}: ba a iya cire biyan {amount} ta cirewa kai tsaye ba. Ku biya yanzu a nan: {url}',
    ig: '{lender}: ewepụghị {amount} site na mwepụ ozugbo. Biko kwụọ ya ebe a: {url}',
  },
  /** A payment of the borrower's own (pay now) applied, something still owed: the loan page's link. */
  paymentReceived: {
    en: '{lender}: payment of {amount} received, ref {reference}. Still owed: {outstanding}. See your loan: {url}',
    pcm: '{lender}: we don receive your payment of {amount}, ref {reference}. You still owe {outstanding}. See your loan: {url}',
    yo: '{lender}: a ti gba ìsanwó {amount}, ref {reference}. Iye tó kù: {outstanding}. Wo awin rẹ: {url}',
    ha: '{lender}: an karɓi biyan {amount}, ref {reference}. Sauran bashi: {outstanding}. Duba lamuninku: {url}',
    ig: '{lender}: anatala ịkwụ ụgwọ {amount}, ref {reference}. Ihe fọdụrụ: {outstanding}. Lee mbinye ego gị: {url}',
  },
  /** A payment of the borrower's own (pay now of the whole outstanding, pay off early) that completed the loan. */
  loanPaidOff: {
    en: '{lender}: payment of {amount} received, ref {reference}. Your loan is fully paid. Thank you.',
    pcm: '{lender}: we don receive your payment of {amount}, ref {reference}. You don finish pay your loan. Thank you.',
    yo: '{lender}: a ti gba ìsanwó {amount}, ref {reference}. O ti san awin rẹ tán. A dúpẹ́.',
    ha: '{lender}: an karɓi biyan {amount}, ref {reference}. Kun gama biyan lamuninku. Mun gode.',
    ig: '{lender}: anatala ịkwụ ụgwọ {amount}, ref {reference}. Ị kwụchaala mbinye ego gị. Daalụ.',
  },
} as const satisfies Record<string, Record<Locale, string>>;

export type SmsTextName = keyof typeof SMS_TEXTS;

/** The text in `locale` with its placeholders filled, NFC-composed (a composed "ẹ" is one code unit, not two). */
export function smsText(name: SmsTextName, locale: Locale, values: Record<string, string | number>): string {
  const template: string = SMS_TEXTS[name][locale];
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole)).normalize('NFC');
}
