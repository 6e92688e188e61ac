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
} as const satisfies Record<string, Record<Locale, string>>;

export type SmsTextName = keyof typeof SMS_TEXTS;

/** The text in `locale` with its placeholders filled, NFC-composed (a composed "ẹ" is one code unit, not two). */
export function smsText(name: SmsTextName, locale: Locale, values: Record<string, string | number>): string {
  const template: string = SMS_TEXTS[name][locale];
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole)).normalize('NFC');
}
