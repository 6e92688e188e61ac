import {
  formatBpsPercent,
  formatDateTimeWat,
  formatDueDate,
  formatKoboAmount,
  formatLetterDate,
  formatLongDate,
  formatNairaPdf,
  formatRepaymentFrequency,
  instantOf,
  plural,
} from './format-offer-letter';
import { facts, factsHeight, heading, paragraph, renderLetterPdf, startPart, table, title, type Column, type FactRows, type Pdf } from './letter-pdf';
import { CONTACT_TEXTS, KEY_FACTS_TEXTS } from './letter-texts';
import type { Locale } from '../../../shared/locales';

export { formatNaira, formatNairaPdf } from './format-offer-letter';

/** Everything a loan offer letter shows. Amounts are integer kobo, rates integer basis points. */
export interface OfferLetterData {
  /** Identifies this offer; printed on every page. */
  documentReference: string;
  /** ISO date-time; also the PDF's CreationDate, which keeps the bytes reproducible. */
  issuedAt: string;
  lender: { name: string; complaintsEmail: string; complaintsPhone?: string };
  borrower: { firstName: string; lastName: string; phone: string; email?: string | null };
  loan: {
    id: string;
    /** 'NGN'; the only currency the letter can show, since amounts are in kobo. */
    currency: string;
    principalKobo: number;
    tenorDays: number;
    /** daily | weekly | biweekly | monthly */
    repaymentFrequency: string;
    interestModel: 'flat' | 'reducing_balance';
    annualRateBps: number;
    /**
     * How the product quotes the rate, as the checkout shows it: `monthly` prints the yearly rate
     * ÷ 12 "a month" (the APR beside it stays yearly), `annual` (the default) the rate a year.
     */
    rateDisplay?: 'annual' | 'monthly';
  };
  costs: {
    processingFeeKobo: number;
    /** Borrower-borne premium (0 if none). */
    insurancePremiumKobo: number;
    /** Charged on an instalment left unpaid on its due date, as a share of the unpaid amount. */
    lateFeeBps: number;
    totalInterestKobo: number;
    totalFeesKobo: number;
    costOfCreditKobo: number;
    totalRepayableKobo: number;
    /** Effective annual rate, basis points. */
    aprBps: number;
  };
  schedule: Array<{ installmentNumber: number; dueDate: string; principalKobo: number; interestKobo: number; feeKobo: number; totalKobo: number }>;
  coolingOffDays: number;
  /**
   * The borrower's language. Other than English, the letter opens with the key facts
   * statement in that language, then the whole English letter, which is the binding version.
   */
  locale?: Locale;
  /** Present when the letter is re-rendered after acceptance. */
  signature?: {
    signatureFullName: string;
    signatureEmail?: string | null;
    signedAt: string;
    ipAddress: string;
    userAgent: string;
    documentReference: string;
    /** Checkout signatures: how the typed name compared with the borrower's name on record. */
    nameCheck?: { status: 'match' | 'partial' | 'mismatch'; nameOnRecord: string; confirmed: boolean };
    /** Present when the borrower also confirmed with a passkey (verified by the platform). */
    passkey?: {
      /** SHA-256 of the credential id, shortened, e.g. `3F2A 9C1D 7B44 E012`. */
      credentialFingerprint: string;
      verifiedAt: string;
      rpId: string;
    };
  };
}

type Instalment = OfferLetterData['schedule'][number];

export const OFFER_LETTER_TITLE = 'Loan offer and key facts statement';
/** The order every repayment is applied in; the ledger's allocation must match this sentence. */
export const ALLOCATION_ORDER = 'fees, then interest, then principal, oldest instalment first';

const INTEREST_METHODS: Record<OfferLetterData['loan']['interestModel'], string> = {
  flat: 'Flat: interest is charged on the full principal for the whole tenor, even as you repay',
  reducing_balance: 'Reducing balance: interest is charged only on the principal you still owe',
};

const SCHEDULE_COLUMNS: ReadonlyArray<Column<Instalment>> = [
  { header: 'No.', width: 35, align: 'right', cell: (row) => String(row.installmentNumber) },
  { header: 'Due date', width: 85, align: 'left', cell: (row) => formatDueDate(row.dueDate) },
  { header: 'Principal (NGN)', width: 95, align: 'right', cell: (row) => formatKoboAmount(row.principalKobo) },
  { header: 'Interest (NGN)', width: 95, align: 'right', cell: (row) => formatKoboAmount(row.interestKobo) },
  { header: 'Fees (NGN)', width: 80, align: 'right', cell: (row) => formatKoboAmount(row.feeKobo) },
  { header: 'Total (NGN)', width: 105, align: 'right', cell: (row) => formatKoboAmount(row.totalKobo) },
];

/**
 * Renders the offer as a PDF key facts statement: the figures first, then the borrower's rights,
 * the acceptance record (or a line saying it is not yet accepted) and the full repayment schedule.
 */
export async function renderOfferLetter(data: OfferLetterData): Promise<Buffer> {
  if (data.loan.currency !== 'NGN') throw new RangeError(`offer letters show NGN amounts only, got ${data.loan.currency}`);
  const createdAt = instantOf(data.issuedAt, 'issuedAt');
  const translation = data.locale && data.locale !== 'en' ? data.locale : undefined;
  // Pages that open in the borrower's language have their footer in it; the English pages in English.
  let translatedPages = 0;
  const options = {
    title: OFFER_LETTER_TITLE,
    author: data.lender.name,
    subject: `Offer ${data.documentReference}`,
    createdAt,
    footer: (page: number, pages: number) =>
      translation && page <= translatedPages
        ? `${data.lender.name}  |  ${KEY_FACTS_TEXTS[translation].footer(data.documentReference, page, pages)}`
        : `${data.lender.name}  |  Document reference ${data.documentReference}  |  Page ${page} of ${pages}`,
  };
  return renderLetterPdf(options, (doc) => {
    if (translation) {
      drawTranslatedKeyFacts(doc, data, translation);
      translatedPages = doc.bufferedPageRange().count;
      startPart(doc);
      paragraph(doc, KEY_FACTS_TEXTS[translation].englishHeading, { bold: true });
    }
    drawOfferLetter(doc, data);
  });
}

/** Said once, in English, at the top of the English text that follows a translation. */
export const BINDING_VERSION_NOTICE = 'The key facts in the borrower\'s language before it are a translation to help them understand it.';

/** The interest rate as the checkout quotes it: a month (the yearly rate ÷ 12, to the basis point) or a year. */
function rateOf(loan: OfferLetterData['loan'], perMonth: (rate: string) => string, perYear: (rate: string) => string): string {
  return loan.rateDisplay === 'monthly'
    ? perMonth(formatBpsPercent(Math.round(loan.annualRateBps / 12)))
    : perYear(formatBpsPercent(loan.annualRateBps));
}

/** The key facts statement in the borrower's language, then a line saying the English text that follows binds. */
function drawTranslatedKeyFacts(doc: Pdf, data: OfferLetterData, locale: Exclude<Locale, 'en'>): void {
  const tx = KEY_FACTS_TEXTS[locale];
  const { lender, borrower, loan, costs } = data;
  title(doc, tx.title, [`${tx.loanReference}: ${data.documentReference}`, formatLetterDate(data.issuedAt, locale)]);
  paragraph(doc, tx.bindingNotice, { bold: true });
  facts(doc, [
    [tx.lender, lender.name],
    [tx.borrower, `${borrower.firstName} ${borrower.lastName}`],
    [tx.phone, borrower.phone],
    [tx.loanReference, loan.id],
  ]);
  heading(doc, tx.keyFacts);
  facts(doc, [
    [tx.principal, formatNairaPdf(loan.principalKobo)],
    [tx.tenor, tx.days(loan.tenorDays)],
    [tx.frequency, `${tx.frequencies[loan.repaymentFrequency] ?? loan.repaymentFrequency} (${tx.instalments(data.schedule.length)})`],
    [tx.rate, rateOf(loan, tx.perMonth, tx.perYear)],
    [tx.method, tx.methods[loan.interestModel]],
    [tx.apr, tx.aprValue(formatBpsPercent(costs.aprBps))],
  ]);
  heading(doc, tx.costs);
  facts(doc, [
    [tx.processingFee, formatNairaPdf(costs.processingFeeKobo)],
    [tx.insurance, costs.insurancePremiumKobo > 0 ? formatNairaPdf(costs.insurancePremiumKobo) : `${formatNairaPdf(0)} (${tx.none})`],
    [tx.lateFee, tx.lateFeeValue(formatBpsPercent(costs.lateFeeBps))],
    [tx.totalInterest, formatNairaPdf(costs.totalInterestKobo)],
    [tx.totalFees, formatNairaPdf(costs.totalFeesKobo)],
    [tx.costOfCredit, formatNairaPdf(costs.costOfCreditKobo)],
    [tx.totalRepayable, formatNairaPdf(costs.totalRepayableKobo)],
  ]);
  heading(doc, tx.allocationHeading);
  paragraph(doc, tx.allocation);
  heading(doc, tx.cancelHeading);
  paragraph(doc, tx.cancel(tx.days(data.coolingOffDays), formatNairaPdf(loan.principalKobo)));
  heading(doc, tx.complaintsHeading);
  paragraph(doc, tx.complaints(CONTACT_TEXTS[locale](lender.complaintsEmail, lender.complaintsPhone), data.documentReference));
}

function drawOfferLetter(doc: Pdf, data: OfferLetterData): void {
  const { lender, borrower, loan, costs } = data;
  title(doc, OFFER_LETTER_TITLE, [
    `Document reference: ${data.documentReference}`,
    `Issued: ${formatLongDate(data.issuedAt)}`,
  ]);
  if (data.locale && data.locale !== 'en') paragraph(doc, `English text: the binding version of this offer. ${BINDING_VERSION_NOTICE}`, { bold: true });

  facts(doc, [
    ['Lender', lender.name],
    ['Borrower', `${borrower.firstName} ${borrower.lastName}`],
    ['Borrower phone', borrower.phone],
    ...(borrower.email ? [['Borrower e-mail', borrower.email] as const] : []),
    ['Loan reference', loan.id],
  ]);

  heading(doc, 'Key facts');
  facts(doc, [
    ['Amount borrowed (principal)', formatNairaPdf(loan.principalKobo)],
    ['Tenor', plural(loan.tenorDays, 'day')],
    ['Repayment frequency', `${formatRepaymentFrequency(loan.repaymentFrequency)} (${plural(data.schedule.length, 'instalment')})`],
    ['Interest rate', rateOf(loan, (rate) => `${rate} a month`, (rate) => `${rate} per year`)],
    ['Interest method', INTEREST_METHODS[loan.interestModel]],
    ['Annual percentage rate (APR)', `${formatBpsPercent(costs.aprBps)} per year, the yearly cost of the loan including interest and fees`],
  ]);

  heading(doc, 'Costs');
  facts(doc, [
    ['Processing fee', formatNairaPdf(costs.processingFeeKobo)],
    ['Insurance premium', costs.insurancePremiumKobo > 0 ? formatNairaPdf(costs.insurancePremiumKobo) : `${formatNairaPdf(0)} (none)`],
    ['Late fee', `${formatBpsPercent(costs.lateFeeBps)} of the unpaid instalment, charged if an instalment is not paid in full by its due date`],
    ['Total interest', formatNairaPdf(costs.totalInterestKobo)],
    ['Total fees', formatNairaPdf(costs.totalFeesKobo)],
    ['Total cost of credit', `${formatNairaPdf(costs.costOfCreditKobo)} (interest and fees)`],
    ['Total amount repayable', formatNairaPdf(costs.totalRepayableKobo)],
  ]);

  heading(doc, 'How your repayments are applied');
  paragraph(doc, `Every payment you make is applied to ${ALLOCATION_ORDER}.`);

  heading(doc, 'Your right to cancel');
  paragraph(
    doc,
    `You can cancel this loan within ${plural(data.coolingOffDays, 'day')} of receiving the money. ` +
      `To cancel, tell us and repay the principal of ${formatNairaPdf(loan.principalKobo)}. ` +
      'If you cancel within this time you pay no interest and no fees.',
  );

  heading(doc, 'Complaints');
  const phone = lender.complaintsPhone ? ` or call ${lender.complaintsPhone}` : '';
  paragraph(doc, `If you are unhappy with this loan or our service, e-mail ${lender.complaintsEmail}${phone}. Quote the document reference ${data.documentReference}.`);

  drawAcceptance(doc, data.signature);

  heading(doc, 'Repayment schedule');
  table(doc, SCHEDULE_COLUMNS, data.schedule, 'Repayment schedule (continued)');
}

/** The acceptance record is kept on one page, so the evidence of signing reads as one block. */
const nameCheckText = (check: NonNullable<NonNullable<OfferLetterData['signature']>['nameCheck']>) =>
  check.status === 'match'
    ? `The typed name matches the borrower's name on record (${check.nameOnRecord})`
    : check.status === 'partial'
      ? `The typed name matches the borrower's name on record (${check.nameOnRecord}) in part${check.confirmed ? '; the borrower confirmed it as their name' : ''}`
      : `The typed name does not match the borrower's name on record (${check.nameOnRecord})`;

function drawAcceptance(doc: Pdf, signature: OfferLetterData['signature']): void {
  if (!signature) {
    heading(doc, 'Acceptance');
    paragraph(doc, 'This offer has not yet been accepted.');
    return;
  }
  const record: FactRows = [
    ['Signed at', `${formatDateTimeWat(signature.signedAt)} (${signature.signedAt})`],
    ...(signature.signatureEmail ? [['E-mail', signature.signatureEmail] as const] : []),
    ['IP address', signature.ipAddress],
    ['User agent', signature.userAgent],
    ['Document reference', signature.documentReference],
    ...(signature.nameCheck ? [['Name check', nameCheckText(signature.nameCheck)] as const] : []),
    ...(signature.passkey
      ? ([
          ['Passkey', 'Verified: confirmed with the borrower\'s passkey (WebAuthn, user verification) over this document reference'],
          ['Passkey credential', `Fingerprint ${signature.passkey.credentialFingerprint} (site ${signature.passkey.rpId})`],
          ['Passkey verified at', `${formatDateTimeWat(signature.passkey.verifiedAt)} (${signature.passkey.verifiedAt})`],
        ] as const)
      : []),
  ];
  heading(doc, 'Acceptance', 20 + factsHeight(doc, record));
  paragraph(doc, `Accepted electronically by ${signature.signatureFullName}`, { bold: true });
  facts(doc, record);
}
