import { extractText, extractTextItems, getDocumentProxy, getMeta } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { formatDueDate, toWinAnsi } from '../../server/platform/domain/offer-letter/format-offer-letter';
import {
  formatNaira,
  formatNairaPdf,
  renderOfferLetter,
  type OfferLetterData,
} from '../../server/platform/domain/offer-letter/render-offer-letter';

let sequence = 0;

/** Daily, weekly… rows from 2025-01-01 whose totals all differ, so each row can be found by its total. */
function scheduleOf(count: number, stepDays = 30): OfferLetterData['schedule'] {
  return Array.from({ length: count }, (_, index) => {
    const principalKobo = 833_333 + index;
    const interestKobo = 250_000 - index;
    const feeKobo = index % 3 === 0 ? 1_500 : 0;
    return {
      installmentNumber: index + 1,
      dueDate: new Date(Date.UTC(2025, 0, 1 + index * stepDays)).toISOString().slice(0, 10),
      principalKobo,
      interestKobo,
      feeKobo,
      totalKobo: principalKobo + interestKobo + feeKobo,
    };
  });
}

function offerLetterData(overrides: Partial<OfferLetterData> = {}): OfferLetterData {
  sequence += 1;
  return {
    documentReference: `OFR-2025-${String(sequence).padStart(6, '0')}`,
    issuedAt: '2025-03-05T13:05:09.000Z',
    lender: { name: 'Kudi Finance Ltd', complaintsEmail: 'complaints@kudi.example', complaintsPhone: '+234 700 000 1234' },
    borrower: { firstName: 'Chiamaka', lastName: `Okafor${sequence}`, phone: '+2348012345678', email: 'chiamaka@example.com' },
    loan: {
      id: `loan_${sequence}`,
      currency: 'NGN',
      principalKobo: 10_000_000,
      tenorDays: 360,
      repaymentFrequency: 'monthly',
      interestModel: 'reducing_balance',
      annualRateBps: 3_050,
    },
    costs: {
      processingFeeKobo: 150_000,
      insurancePremiumKobo: 75_025,
      lateFeeBps: 500,
      totalInterestKobo: 1_693_400,
      totalFeesKobo: 225_025,
      costOfCreditKobo: 1_918_425,
      totalRepayableKobo: 11_918_425,
      aprBps: 3_912,
    },
    schedule: scheduleOf(12),
    coolingOffDays: 3,
    ...overrides,
  };
}

const signature = {
  signatureFullName: 'Chiamaka Okafor',
  signatureEmail: 'chiamaka@example.com',
  signedAt: '2025-03-05T14:00:00.000Z',
  ipAddress: '2001:db8:85a3::8a2e:370:7334',
  userAgent:
    'Mozilla/5.0 (Linux; Android 13; SM-A536B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) ' +
    'Version/4.0 Chrome/122.0.6261.105 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/452.0.0.48.109;]',
};

/** Text of each page with runs of whitespace (including wrapped line breaks) made one space. */
async function pagesOf(pdf: Buffer): Promise<string[]> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: false });
  return text.map((page) => ` ${page.replace(/\s+/g, ' ')} `);
}

const textOf = async (pdf: Buffer) => (await pagesOf(pdf)).join(' ');
/** The text without the page footers, which repeat the document reference on every page. */
const bodyOf = (text: string) => text.replace(/\| Document reference \S+ \| Page \d+ of \d+/g, '');
const compact = (text: string) => text.replace(/\s+/g, '');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function medianRenderMs(data: OfferLetterData, runs: number): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await renderOfferLetter(data);
    times.push(performance.now() - started);
  }
  return median(times);
}

describe('renderOfferLetter', () => {
  it('produces a complete PDF file', async () => {
    const pdf = await renderOfferLetter(offerLetterData());

    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
  });

  it('shows the key facts: parties, principal, tenor, rates, every fee and the totals', async () => {
    const data = offerLetterData();

    const text = await textOf(await renderOfferLetter(data));

    for (const expected of [
      'Loan offer and key facts statement',
      data.documentReference,
      'Issued: 5 March 2025',
      'Kudi Finance Ltd',
      `Chiamaka ${data.borrower.lastName}`,
      '+2348012345678',
      data.loan.id,
      'NGN 100,000.00',
      '360 days',
      'Monthly (12 instalments)',
      '30.50% per year',
      'Reducing balance',
      '39.12% per year',
      'Processing fee NGN 1,500.00',
      'Insurance premium NGN 750.25',
      'Late fee 5.00% of the unpaid instalment',
      'Total interest NGN 16,934.00',
      'Total fees NGN 2,250.25',
      'Total cost of credit NGN 19,184.25',
      'Total amount repayable NGN 119,184.25',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('lists every schedule row with its due date, principal, interest, fees and total', async () => {
    const data = offerLetterData();

    const text = await textOf(await renderOfferLetter(data));

    for (const row of data.schedule) {
      const amounts = [row.principalKobo, row.interestKobo, row.feeKobo, row.totalKobo].map((kobo) => formatNaira(kobo).slice(1));
      expect(text).toContain(` ${row.installmentNumber} ${formatDueDate(row.dueDate)} ${amounts.join(' ')} `);
    }
  });

  it('states the repayment allocation order, the cooling-off right and the complaints contact', async () => {
    const data = offerLetterData({ coolingOffDays: 3 });

    const text = await textOf(await renderOfferLetter(data));

    expect(text).toContain('applied to fees, then interest, then principal, oldest instalment first');
    expect(text).toContain('cancel this loan within 3 days of receiving the money');
    expect(text).toContain('repay the principal of NGN 100,000.00');
    expect(text).toContain('you pay no interest and no fees');
    expect(text).toContain('complaints@kudi.example');
    expect(text).toContain('+234 700 000 1234');
  });

  it('describes a flat-rate loan with no insurance and a one-day cooling-off period', async () => {
    const data = offerLetterData({
      loan: { ...offerLetterData().loan, interestModel: 'flat', repaymentFrequency: 'biweekly' },
      costs: { ...offerLetterData().costs, insurancePremiumKobo: 0 },
      coolingOffDays: 1,
    });

    const text = await textOf(await renderOfferLetter(data));

    expect(text).toContain('Flat: interest is charged on the full principal');
    expect(text).toContain('Every two weeks');
    expect(text).toContain('Insurance premium NGN 0.00 (none)');
    expect(text).toContain('within 1 day of receiving');
  });

  it('when the schedule has 730 daily instalments, then it flows onto further pages and lists every instalment', async () => {
    const data = offerLetterData({ schedule: scheduleOf(730, 1), loan: { ...offerLetterData().loan, tenorDays: 730, repaymentFrequency: 'daily' } });

    const pages = await pagesOf(await renderOfferLetter(data));

    expect(pages.length).toBeGreaterThan(10);
    const text = pages.join(' ');
    for (const row of data.schedule) {
      expect(text).toContain(` ${row.installmentNumber} ${formatDueDate(row.dueDate)} `);
      expect(text).toContain(` ${formatNaira(row.totalKobo).slice(1)} `);
    }
    pages.forEach((page, index) => {
      expect(page).toContain(`Document reference ${data.documentReference} | Page ${index + 1} of ${pages.length}`);
    });
    expect(pages[pages.length - 1]).toContain('Repayment schedule (continued)');
  });

  it('when the offer was accepted, then it shows the signature record', async () => {
    const data = offerLetterData();
    const signed = { ...data, signature: { ...signature, documentReference: data.documentReference } };

    const pdf = await renderOfferLetter(signed);
    const text = await textOf(pdf);

    expect(text).toContain('Accepted electronically by Chiamaka Okafor');
    expect(text).toContain('5 March 2025, 15:00:00 WAT (2025-03-05T14:00:00.000Z)');
    expect(text).toContain('2001:db8:85a3::8a2e:370:7334');
    expect(text).toContain('E-mail chiamaka@example.com');
    expect(compact(text)).toContain(compact(signature.userAgent));
    expect(bodyOf(text)).toContain(`Document reference ${data.documentReference}`);
    expect(text).not.toContain('not yet accepted');
  });

  it('when the acceptance was confirmed with a passkey, then the record shows it as verified with the fingerprint, site and time', async () => {
    const data = offerLetterData();
    const passkey = { credentialFingerprint: '3F2A 9C1D 7B44 E012', verifiedAt: '2025-03-05T14:00:01.000Z', rpId: 'checkout.lender.example' };
    const signed = { ...data, signature: { ...signature, documentReference: data.documentReference, passkey } };

    const text = await textOf(await renderOfferLetter(signed));

    expect(text).toContain("Verified: confirmed with the borrower's passkey");
    expect(text).toContain('Fingerprint 3F2A 9C1D 7B44 E012 (site checkout.lender.example)');
    expect(text).toContain('5 March 2025, 15:00:01 WAT (2025-03-05T14:00:01.000Z)');
    expect(text).toContain('Accepted electronically by Chiamaka Okafor');
  });

  it('when the checkout compared the typed name, then the record says how it matched the name on record', async () => {
    const data = offerLetterData();
    const matched = { ...data, signature: { ...signature, documentReference: data.documentReference, nameCheck: { status: 'match' as const, nameOnRecord: 'Chiamaka Okafor', confirmed: false } } };
    expect(compact(await textOf(await renderOfferLetter(matched)))).toContain(compact("Name check The typed name matches the borrower's name on record (Chiamaka Okafor)"));
    const partial = { ...data, signature: { ...signature, signatureFullName: 'C. Okafor', documentReference: data.documentReference, nameCheck: { status: 'partial' as const, nameOnRecord: 'Chiamaka Okafor', confirmed: true } } };
    expect(compact(await textOf(await renderOfferLetter(partial)))).toContain(compact('in part; the borrower confirmed it as their name'));
    expect(await textOf(await renderOfferLetter({ ...data, signature: { ...signature, documentReference: data.documentReference } }))).not.toContain('Name check');
  });

  it('wraps a long user agent inside the page margins', async () => {
    const data = offerLetterData();
    const signed = { ...data, signature: { ...signature, documentReference: data.documentReference } };

    const { items } = await extractTextItems(await getDocumentProxy(new Uint8Array(await renderOfferLetter(signed))));

    const all = items.flat();
    const agentLines = all.filter((item) => item.str.length > 0 && signature.userAgent.includes(item.str.trim()) && item.str.trim().length > 20);
    expect(new Set(agentLines.map((item) => Math.round(item.y))).size).toBeGreaterThan(1);
    const A4_WIDTH = 595.28;
    for (const item of all) expect(item.x + item.width).toBeLessThanOrEqual(A4_WIDTH - 50 + 1);
  });

  it('when the offer is not accepted yet, then it says so and shows no signature', async () => {
    const text = await textOf(await renderOfferLetter(offerLetterData()));

    expect(text).toContain('This offer has not yet been accepted.');
    expect(text).not.toContain('Accepted electronically');
    expect(bodyOf(text)).not.toMatch(/Document reference OFR/);
  });

  it('prints Yoruba names with every tone mark and under-dot (Noto Sans embedded)', async () => {
    const data = offerLetterData({ borrower: { firstName: 'Adébáyọ̀', lastName: 'Ọládìpọ̀', phone: '+2348000000000', email: null } });

    const text = await textOf(await renderOfferLetter(data));

    expect(text.normalize('NFC')).toContain('Adébáyọ̀ Ọládìpọ̀'.normalize('NFC'));
    expect(text).not.toContain('Borrower e-mail');
  });

  it.each([
    ['yo', 'Ìfilọ̀ awin: àwọn òkodoro pàtàkì', ['ẹ', 'ọ', 'ṣ'], 'Ọ̀rọ̀ Gẹ̀ẹ́sì tó tẹ̀lé e ni ẹ̀dà tí òfin dè.'],
    ['ha', 'Tayin lamuni: muhimman bayanai', ['ɗ', 'ƙ'], 'Rubutun Turanci da ke biye shi ne wanda doka ta ɗaure.'],
    ['ig', 'Onyinye mbinye ego: isi ihe ndị dị mkpa', ['ị', 'ọ', 'ụ'], 'Ederede Bekee na-esote ya bụ nke iwu kwadoro.'],
    ['pcm', 'Loan offer: di main facts', [], 'Di English text wey follow am na di one wey bind'],
  ] as const)('in %s: the key facts in that language with its letters intact, then the English text as the binding version', async (locale, heading, letters, binding) => {
    const text = (await textOf(await renderOfferLetter(offerLetterData({ locale })))).normalize('NFC');

    expect(text).toContain(heading.normalize('NFC'));
    expect(text).toContain(binding.normalize('NFC'));
    for (const letter of letters) expect(text).toContain(letter);
    expect(text).not.toMatch(/[\u0000-\u0008\u000e-\u001f]/);
    const translated = text.indexOf(heading.normalize('NFC'));
    const english = text.indexOf('English text: the binding version of this offer.');
    expect(translated).toBeGreaterThanOrEqual(0);
    expect(english).toBeGreaterThan(translated);
    expect(text.slice(english)).toContain('Amount borrowed (principal) NGN 100,000.00');
    expect(text.slice(english)).toContain('Repayment schedule');
  });

  it('in English: the English letter alone, with no translation notice', async () => {
    const text = await textOf(await renderOfferLetter(offerLetterData({ locale: 'en' })));

    expect(text).not.toContain('binding version');
    expect(text.trimStart().startsWith('Loan offer and key facts statement')).toBe(true);
  });

  it('is deterministic: the same offer gives the same bytes, dated by issuedAt', async () => {
    const data = offerLetterData();

    const first = await renderOfferLetter(data);
    const second = await renderOfferLetter(data);
    const { info } = await getMeta(new Uint8Array(first), { parseDates: true });

    expect(first.equals(second)).toBe(true);
    expect((info.CreationDate as Date).toISOString()).toBe('2025-03-05T13:05:09.000Z');
    expect(info.Title).toBe('Loan offer and key facts statement');
  });

  describe('layout and wording in every language', () => {
    const LOCALES = ['en', 'pcm', 'yo', 'ha', 'ig'] as const;
    const A4_HEIGHT = 841.89;
    /** Lines of each page, top to bottom, without the footer (8 pt, under the bottom margin). */
    async function pageLines(pdf: Buffer) {
      const { items } = await extractTextItems(await getDocumentProxy(new Uint8Array(pdf)));
      return items.map((page) => page.filter((item) => item.str.trim() && item.y > 40).sort((a, b) => b.y - a.y));
    }
    const footers = async (pdf: Buffer) => (await extractTextItems(await getDocumentProxy(new Uint8Array(pdf)))).items.map((page) => page.filter((item) => item.y <= 40).map((item) => item.str).join('').replace(/\s+/g, ' '));
    const letters = () =>
      LOCALES.flatMap((locale) =>
        [3, 6, 12].flatMap((instalments) => [false, true].map((signed) => ({ locale, instalments, signed }))),
      );

    it('when a letter is rendered in any language, signed or not, then no page but the last is under half full and no page ends on a heading', async () => {
      for (const { locale, instalments, signed } of letters()) {
        const data = offerLetterData({ locale, schedule: scheduleOf(instalments), lender: { name: 'Kudi Finance Ltd', complaintsEmail: 'complaints@lending.example' } });
        const pages = await pageLines(await renderOfferLetter(signed ? { ...data, signature: { ...signature, documentReference: data.documentReference } } : data));
        pages.forEach((lines, index) => {
          const what = `${locale}, ${instalments} instalments, ${signed ? 'signed' : 'offer'}, page ${index + 1} of ${pages.length}`;
          const last = lines[lines.length - 1]!;
          expect(last.fontSize, `${what} ends on the heading "${last.str}"`).not.toBe(12);
          if (index < pages.length - 1) expect(last.y, `${what} is almost empty`).toBeLessThan(A4_HEIGHT / 2);
        });
      }
    });

    it('when a letter is rendered in any language, then no sentence is printed twice', async () => {
      for (const locale of LOCALES) {
        const data = offerLetterData({ locale });
        const text = bodyOf(await textOf(await renderOfferLetter({ ...data, signature: { ...signature, documentReference: data.documentReference } })));
        const sentences = text.split(/(?<=[.;])\s+/).map((sentence) => sentence.trim()).filter((sentence) => sentence.length > 40);
        const repeated = sentences.filter((sentence, index) => sentences.indexOf(sentence) !== index);
        expect(repeated, locale).toEqual([]);
      }
    });

    it.each([
      ['yo', '05/03/2025', 'Nọ́mbà ìwé', 'Ojú-ìwé 1 nínú'],
      ['ha', '05/03/2025', 'Lambar takarda', 'Shafi 1 cikin'],
      ['ig', '05/03/2025', 'Nọmba akwụkwọ', "Peeji 1 n'ime"],
      ['pcm', '5 March 2025', 'Document reference', 'Page 1 out of'],
    ] as const)('in %s: the translated page dates itself and signs its footer in that language; the English pages stay English', async (locale, date, reference, page) => {
      const data = offerLetterData({ locale });
      const pdf = await renderOfferLetter(data);
      const [first, ...rest] = (await pagesOf(pdf)).map((text) => text.normalize('NFC'));
      const [firstFooter, ...restFooters] = await footers(pdf);

      expect(first).toContain(date);
      if (locale !== 'pcm') expect(first).not.toMatch(/\b(January|February|March|April|May|June|July|August|September|October|November|December)\b/);
      expect(firstFooter!.normalize('NFC')).toContain(`${reference.normalize('NFC')} ${data.documentReference}`);
      expect(firstFooter!.normalize('NFC')).toContain(page.normalize('NFC'));
      expect(firstFooter).not.toContain('Page 1 of');
      expect(rest.join(' ')).toContain('Issued: 5 March 2025');
      restFooters.forEach((footer, index) => expect(footer).toContain(`Document reference ${data.documentReference} | Page ${index + 2} of ${restFooters.length + 1}`));
    });

    it.each([
      ['en', 2_400, '2.00% a month'],
      ['en', 2_500, '2.08% a month'],
      ['ig', 2_400, '2.00% kwa ọnwa'],
      ['yo', 2_400, '2.00% lóṣù'],
      ['ha', 2_400, '2.00% a wata'],
      ['pcm', 2_400, '2.00% every month'],
    ] as const)('in %s, when the product quotes the rate a month (%i bps a year), then the letter says %s as the checkout does, in both texts', async (locale, annualRateBps, expected) => {
      const base = offerLetterData({ locale });
      const text = (await textOf(await renderOfferLetter({ ...base, loan: { ...base.loan, annualRateBps, rateDisplay: 'monthly' } }))).normalize('NFC');

      expect(text).toContain(expected.normalize('NFC'));
      expect(text).toContain(`Interest rate ${expected.replace(/ (kwa ọnwa|lóṣù|a wata|every month)$/u, ' a month')}`.normalize('NFC'));
      expect(text).not.toMatch(/\d\.\d\d% per year(?!, the yearly cost)/);
    });
  });

  it('refuses a currency other than NGN and amounts that are not whole kobo', async () => {
    await expect(renderOfferLetter(offerLetterData({ loan: { ...offerLetterData().loan, currency: 'USD' } }))).rejects.toThrow(RangeError);
    await expect(renderOfferLetter(offerLetterData({ costs: { ...offerLetterData().costs, processingFeeKobo: 10.5 } }))).rejects.toThrow(
      /kobo amount/,
    );
  });

  it('renders a typical 12-instalment letter quickly (median logged, not asserted)', async () => {
    const data = offerLetterData();
    await renderOfferLetter(data);

    const typicalMs = await medianRenderMs(data, 20);
    const longMs = await medianRenderMs(offerLetterData({ schedule: scheduleOf(730, 1) }), 5);

    console.log(`offer letter render median: 12 instalments ${typicalMs.toFixed(1)} ms (20 runs), 730 instalments ${longMs.toFixed(1)} ms (5 runs)`);
    expect(typicalMs).toBeGreaterThan(0);
  });
});

describe('formatNaira', () => {
  it.each([
    [0, '₦0.00'],
    [5, '₦0.05'],
    [99, '₦0.99'],
    [100, '₦1.00'],
    [123456, '₦1,234.56'],
    [100_000_00, '₦100,000.00'],
    [10_000_000_000_00, '₦10,000,000,000.00'],
  ])('formats %s kobo as %s', (kobo, expected) => {
    expect(formatNaira(kobo)).toBe(expected);
  });

  it('refuses fractional and unsafe amounts', () => {
    expect(() => formatNaira(1.5)).toThrow(RangeError);
    expect(() => formatNaira(Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
  });

  it('has a PDF form with the ISO code, since the built-in fonts cannot draw ₦', () => {
    expect(formatNairaPdf(123456)).toBe('NGN 1,234.56');
  });
});

describe('toWinAnsi', () => {
  it.each([
    ['Okafor', 'Okafor'],
    ['Ẹ̀mẹ́ka', 'Èméka'],
    ['Ṣeun', 'Seun'],
    ['Zoë – “€5”', 'Zoë – “€5”'],
    ['tab\there', 'tab here'],
    ['中', '?'],
  ])('makes %j drawable as %j', (input, expected) => {
    expect(toWinAnsi(input)).toBe(expected);
  });
});
