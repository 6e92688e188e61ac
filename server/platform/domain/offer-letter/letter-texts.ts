import type { Locale } from '../../../shared/locales';

/**
 * The key facts statement in the borrower's language, printed before the English letter,
 * which stays the binding version (the page says so in both languages). Machine-assisted
 * translations pending native review; the financial words follow the glossary in
 * `docs/languages/README.md`. English has no entry: an English letter is the English text alone.
 */
export interface KeyFactsTexts {
  title: string;
  /** Printed under the title, before anything else. */
  bindingNotice: string;
  lender: string;
  borrower: string;
  phone: string;
  loanReference: string;
  keyFacts: string;
  principal: string;
  tenor: string;
  days: (count: number) => string;
  frequency: string;
  frequencies: Record<string, string>;
  instalments: (count: number) => string;
  rate: string;
  perYear: (rate: string) => string;
  /** The checkout's words for a rate quoted a month (`offer.rateMonthly`). */
  perMonth: (rate: string) => string;
  method: string;
  methods: { flat: string; reducing_balance: string };
  apr: string;
  aprValue: (rate: string) => string;
  costs: string;
  processingFee: string;
  insurance: string;
  none: string;
  lateFee: string;
  lateFeeValue: (rate: string) => string;
  totalInterest: string;
  totalFees: string;
  costOfCredit: string;
  totalRepayable: string;
  allocationHeading: string;
  allocation: string;
  cancelHeading: string;
  cancel: (days: string, principal: string) => string;
  complaintsHeading: string;
  complaints: (contact: string, reference: string) => string;
  /** Heading of the English text that follows. */
  englishHeading: string;
  /** The page footer after the lender's name. */
  footer: (reference: string, page: number, pages: number) => string;
}

const count = (n: number, word: string) => `${word} ${n}`;

export const KEY_FACTS_TEXTS: Record<Exclude<Locale, 'en'>, KeyFactsTexts> = {
  pcm: {
    title: 'Loan offer: di main facts',
    bindingNotice: 'Dis page na translation of di main facts to help you understand. Di English text wey follow am na di one wey bind (na im the law go follow).',
    lender: 'Lender',
    borrower: 'Borrower',
    phone: 'Borrower phone',
    loanReference: 'Loan reference',
    keyFacts: 'Di main facts',
    principal: 'Money wey you borrow (principal)',
    tenor: 'How long',
    days: (n) => `${n} ${n === 1 ? 'day' : 'days'}`,
    frequency: 'How often you go pay',
    frequencies: { daily: 'Every day', weekly: 'Every week', biweekly: 'Every two weeks', monthly: 'Every month' },
    instalments: (n) => `${n} ${n === 1 ? 'payment' : 'payments'}`,
    rate: 'Interest rate',
    perYear: (rate) => `${rate} every year`,
    perMonth: (rate) => `${rate} every month`,
    method: 'How dem take count interest',
    methods: {
      flat: 'Flat: interest dey on di full principal for di whole time, even as you dey pay',
      reducing_balance: 'E dey reduce: interest dey only on di principal wey you still owe',
    },
    apr: 'APR',
    aprValue: (rate) => `${rate} every year: wetin di loan go cost for one year with interest and all di fees`,
    costs: 'Wetin e go cost',
    processingFee: 'Processing fee',
    insurance: 'Insurance money',
    none: 'none',
    lateFee: 'Late fee',
    lateFeeValue: (rate) => `${rate} of di payment wey remain, if you no pay am complete by di date`,
    totalInterest: 'All di interest',
    totalFees: 'All di fees',
    costOfCredit: 'Cost of di loan (interest and fees)',
    totalRepayable: 'Total to pay back',
    allocationHeading: 'How we go use your payment',
    allocation: 'Every money wey you pay go first cover fees, then interest, then principal, starting from di oldest payment.',
    cancelHeading: 'You fit cancel',
    cancel: (days, principal) => `You fit cancel dis loan within ${days} after you collect di money. Tell us and pay back di principal of ${principal}. If you cancel for dis time, you no go pay interest or fees.`,
    complaintsHeading: 'Complaints',
    complaints: (contact, reference) => `If you no happy with dis loan or our service, ${contact}. Use di document reference ${reference}.`,
    englishHeading: 'English text (di binding version)',
    footer: (reference, page, pages) => `Document reference ${reference}  |  Page ${page} out of ${pages}`,
  },
  yo: {
    title: 'Ìfilọ̀ awin: àwọn òkodoro pàtàkì',
    bindingNotice: 'Ojú-ìwé yìí jẹ́ ìtúmọ̀ àwọn òkodoro pàtàkì láti ràn ọ́ lọ́wọ́ láti yé ọ. Ọ̀rọ̀ Gẹ̀ẹ́sì tó tẹ̀lé e ni ẹ̀dà tí òfin dè.',
    lender: 'Ayánilówó',
    borrower: 'Ayáwó',
    phone: 'Fóònù ayáwó',
    loanReference: 'Nọ́mbà awin',
    keyFacts: 'Àwọn òkodoro pàtàkì',
    principal: 'Owó tí o yá (olú-owó)',
    tenor: 'Àkókò awin',
    days: (n) => count(n, 'ọjọ́'),
    frequency: 'Ìgbà ìsanpadà',
    frequencies: { daily: 'Ojoojúmọ́', weekly: 'Ọ̀sọ̀ọ̀sẹ̀', biweekly: 'Ọ̀sẹ̀ méjì-méjì', monthly: 'Oṣooṣù' },
    instalments: (n) => count(n, 'ìsanpadà'),
    rate: 'Òṣùwọ̀n èlé',
    perYear: (rate) => `${rate} lọ́dún`,
    perMonth: (rate) => `${rate} lóṣù`,
    method: 'Bí a ṣe ń ṣírò èlé',
    methods: {
      flat: 'Aláìyípadà: èlé wà lórí gbogbo olú-owó fún gbogbo àkókò awin, bí o tilẹ̀ ń san padà',
      reducing_balance: 'Ó ń dín kù: èlé wà lórí olú-owó tí o ṣì jẹ nìkan',
    },
    apr: 'APR (iye owó awin lọ́dún)',
    aprValue: (rate) => `${rate} lọ́dún: iye tí awin náà ń ná ọ lọ́dún, pẹ̀lú èlé àti gbogbo owó iṣẹ́`,
    costs: 'Iye owó',
    processingFee: 'Owó iṣẹ́',
    insurance: 'Owó ìbánigbófò',
    none: 'kò sí',
    lateFee: 'Owó ìtanràn ìdádúró',
    lateFeeValue: (rate) => `${rate} ìsanpadà tí o kò san tán, tí o kò bá san án pé ní ọjọ́ rẹ̀`,
    totalInterest: 'Gbogbo èlé',
    totalFees: 'Gbogbo owó iṣẹ́',
    costOfCredit: 'Iye owó awin (èlé àti owó iṣẹ́)',
    totalRepayable: 'Gbogbo owó tí o máa san padà',
    allocationHeading: 'Bí a ṣe ń lo ìsanpadà rẹ',
    allocation: 'Gbogbo owó tí o bá san ni a máa kọ́kọ́ fi san owó iṣẹ́, lẹ́yìn náà èlé, lẹ́yìn náà olú-owó, bẹ̀rẹ̀ láti ìsanpadà tó ti pẹ́ jù.',
    cancelHeading: 'Ẹ̀tọ́ rẹ láti fagilé',
    cancel: (days, principal) => `O lè fagilé awin yìí láàárín ${days} lẹ́yìn tí o gba owó náà. Sọ fún wa kí o sì san olú-owó ${principal} padà. Tí o bá fagilé láàárín àkókò yìí, o kò ní san èlé tàbí owó iṣẹ́ kankan.`,
    complaintsHeading: 'Ẹ̀dùn ọkàn',
    complaints: (contact, reference) => `Tí inú rẹ kò bá dùn sí awin yìí tàbí iṣẹ́ wa, ${contact}. Lo nọ́mbà ìwé ${reference}.`,
    englishHeading: 'Ọ̀rọ̀ Gẹ̀ẹ́sì (ẹ̀dà tí òfin dè)',
    footer: (reference, page, pages) => `Nọ́mbà ìwé ${reference}  |  Ojú-ìwé ${page} nínú ${pages}`,
  },
  ha: {
    title: 'Tayin lamuni: muhimman bayanai',
    bindingNotice: 'Wannan shafi fassarar muhimman bayanai ne don taimaka muku fahimta. Rubutun Turanci da ke biye shi ne wanda doka ta ɗaure.',
    lender: 'Mai ba da lamuni',
    borrower: 'Mai karɓar lamuni',
    phone: 'Wayar mai karɓar lamuni',
    loanReference: 'Lambar lamuni',
    keyFacts: 'Muhimman bayanai',
    principal: 'Kuɗin da kuka ara (asali)',
    tenor: 'Tsawon lokaci',
    days: (n) => count(n, 'kwana'),
    frequency: 'Yawan biya',
    frequencies: { daily: 'Kowace rana', weekly: 'Kowane mako', biweekly: 'Kowane mako biyu', monthly: 'Kowane wata' },
    instalments: (n) => count(n, 'kashi'),
    rate: 'Adadin kuɗin ruwa',
    perYear: (rate) => `${rate} a shekara`,
    perMonth: (rate) => `${rate} a wata`,
    method: 'Yadda ake lissafin kuɗin ruwa',
    methods: {
      flat: 'Tsayayye: ana ƙididdige kuɗin ruwa a kan dukkan asalin kuɗi har ƙarshen lokaci, ko da kuna biya',
      reducing_balance: 'Mai raguwa: ana ƙididdige kuɗin ruwa ne kawai a kan asalin kuɗin da ya rage a kanku',
    },
    apr: 'APR (kuɗin lamuni a shekara)',
    aprValue: (rate) => `${rate} a shekara: abin da lamunin zai ci muku a shekara, har da kuɗin ruwa da dukkan kuɗaɗe`,
    costs: 'Kuɗaɗe',
    processingFee: 'Kuɗin sarrafawa',
    insurance: 'Kuɗin inshora',
    none: 'babu',
    lateFee: 'Tarar jinkiri',
    lateFeeValue: (rate) => `${rate} na kashin da ba a biya ba, idan ba a biya shi cikakke a ranarsa ba`,
    totalInterest: 'Jimillar kuɗin ruwa',
    totalFees: 'Jimillar kuɗaɗe',
    costOfCredit: 'Kuɗin lamuni (kuɗin ruwa da kuɗaɗe)',
    totalRepayable: 'Jimillar abin da za ku biya',
    allocationHeading: 'Yadda ake amfani da biyanku',
    allocation: 'Duk kuɗin da kuka biya ana fara biyan kuɗaɗe da shi, sannan kuɗin ruwa, sannan asalin kuɗi, farawa daga kashi mafi daɗewa.',
    cancelHeading: 'Haƙƙinku na soke lamuni',
    cancel: (days, principal) => `Kuna iya soke wannan lamuni cikin ${days} bayan kun karɓi kuɗin. Ku sanar da mu kuma ku mayar da asalin kuɗi na ${principal}. Idan kuka soke a cikin wannan lokaci, ba za ku biya kuɗin ruwa ko wani kuɗi ba.`,
    complaintsHeading: 'Ƙorafi',
    complaints: (contact, reference) => `Idan ba ku ji daɗin wannan lamuni ko aikinmu ba, ${contact}. Ku ambaci lambar takarda ${reference}.`,
    englishHeading: 'Rubutun Turanci (wanda doka ta ɗaure)',
    footer: (reference, page, pages) => `Lambar takarda ${reference}  |  Shafi ${page} cikin ${pages}`,
  },
  ig: {
    title: 'Onyinye mbinye ego: isi ihe ndị dị mkpa',
    bindingNotice: 'Peeji a bụ ntụgharị nke isi ihe ndị dị mkpa iji nyere gị aka ịghọta. Ederede Bekee na-esote ya bụ nke iwu kwadoro.',
    lender: 'Onye na-agbazinye ego',
    borrower: 'Onye na-agbaziri ego',
    phone: 'Ekwentị onye na-agbaziri ego',
    loanReference: 'Nọmba mbinye ego',
    keyFacts: 'Isi ihe ndị dị mkpa',
    principal: 'Ego i binyere (isi ego)',
    tenor: 'Ogologo oge',
    days: (n) => count(n, 'ụbọchị'),
    frequency: 'Ugboro ole ị ga-akwụ',
    frequencies: { daily: 'Kwa ụbọchị', weekly: 'Kwa izu', biweekly: 'Kwa izu abụọ', monthly: 'Kwa ọnwa' },
    instalments: (n) => count(n, 'ịkwụ ụgwọ'),
    rate: 'Ọnụego ọmụrụ nwa',
    perYear: (rate) => `${rate} kwa afọ`,
    perMonth: (rate) => `${rate} kwa ọnwa`,
    method: 'Otu e si agụ ọmụrụ nwa',
    methods: {
      flat: 'Nke anaghị agbanwe: a na-agụ ọmụrụ nwa n\'isi ego niile ruo ọgwụgwụ oge, ọ bụrụgodị na ị na-akwụ',
      reducing_balance: 'Nke na-ebelata: a na-agụ ọmụrụ nwa naanị n\'isi ego ị ka ji',
    },
    apr: 'APR (ọnụ mbinye ego kwa afọ)',
    aprValue: (rate) => `${rate} kwa afọ: ihe mbinye ego a ga-efu gị n'otu afọ, gụnyere ọmụrụ nwa na ụgwọ niile`,
    costs: 'Ọnụ ahịa',
    processingFee: 'Ụgwọ nhazi',
    insurance: 'Ụgwọ mkpuchi',
    none: 'ọ dịghị',
    lateFee: 'Ụgwọ ntaramahụhụ maka ịkwụ n\'oge gafere',
    lateFeeValue: (rate) => `${rate} nke akụkụ a na-akwụbeghị, ọ bụrụ na akwụghị ya zuru ezu n'ụbọchị ya`,
    totalInterest: 'Ọmụrụ nwa niile',
    totalFees: 'Ụgwọ niile',
    costOfCredit: 'Ọnụ mbinye ego (ọmụrụ nwa na ụgwọ)',
    totalRepayable: 'Ngụkọta ego ị ga-akwụghachi',
    allocationHeading: 'Otu anyị si eji ego ị kwụrụ',
    allocation: 'Ego ọ bụla ị kwụrụ ga-ebu ụzọ kwụọ ụgwọ, mgbe ahụ ọmụrụ nwa, mgbe ahụ isi ego, malite n\'akụkụ kacha ochie.',
    cancelHeading: 'Ikike gị ịkagbu',
    cancel: (days, principal) => `Ị nwere ike ịkagbu mbinye ego a n'ime ${days} mgbe ị natara ego ahụ. Gwa anyị ma kwụghachi isi ego ${principal}. Ọ bụrụ na ị kagbuo n'oge a, ị gaghị akwụ ọmụrụ nwa ma ọ bụ ụgwọ ọ bụla.`,
    complaintsHeading: 'Mkpesa',
    complaints: (contact, reference) => `Ọ bụrụ na mbinye ego a ma ọ bụ ọrụ anyị adịghị gị mma, ${contact}. Kwuo nọmba akwụkwọ ${reference}.`,
    englishHeading: 'Ederede Bekee (nke iwu kwadoro)',
    footer: (reference, page, pages) => `Nọmba akwụkwọ ${reference}  |  Peeji ${page} n'ime ${pages}`,
  },
};

/** "e-mail x or call y", in the letter's language. */
export const CONTACT_TEXTS: Record<Exclude<Locale, 'en'>, (email: string, phone?: string) => string> = {
  pcm: (email, phone) => `e-mail ${email}${phone ? ` or call ${phone}` : ''}`,
  yo: (email, phone) => `fi í-meèlì ránṣẹ́ sí ${email}${phone ? ` tàbí pe ${phone}` : ''}`,
  ha: (email, phone) => `ku aika imel zuwa ${email}${phone ? ` ko ku kira ${phone}` : ''}`,
  ig: (email, phone) => `zipu ozi-e na ${email}${phone ? ` ma ọ bụ kpọọ ${phone}` : ''}`,
};
