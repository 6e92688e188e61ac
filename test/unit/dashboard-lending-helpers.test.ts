import { describe, expect, it } from 'vitest';
import { scaleDecimal, unscaleDecimal } from '../../server/shared/decimal';
import { csvText, nairaText, statementCsvRow } from '../../server/platform/domain/settlements/statements-csv';
import { fundingReference } from '../../server/platform/domain/pools/funding-notice';

describe('exact decimals for the dashboard forms', () => {
  it('naira typed with commas and up to 2 decimals become kobo exactly, and back', () => {
    expect(scaleDecimal('2,500,000.50', 2)).toBe(250_000_050);
    expect(scaleDecimal('0.29', 2)).toBe(29); // 0.29 * 100 is 28.999999999999996 in floats
    expect(scaleDecimal('1.005', 2)).toBeUndefined();
    expect(scaleDecimal('-1', 2)).toBeUndefined();
    expect(scaleDecimal('1e3', 2)).toBeUndefined();
    for (const kobo of [0, 5, 29, 100, 150_050, 250_000_050, Number.MAX_SAFE_INTEGER]) expect(scaleDecimal(unscaleDecimal(kobo, 2), 2)).toBe(kobo);
    expect(unscaleDecimal(-5, 2)).toBe('-0.05');
    expect(nairaText(150_050)).toBe('1500.50');
  });
});

describe('settlement CSV cells', () => {
  it('quotes commas, quotes and line breaks; defuses formula starts; leaves numbers alone', () => {
    expect(csvText('plain')).toBe('plain');
    expect(csvText('a,b')).toBe('"a,b"');
    expect(csvText('say "hi"')).toBe('"say ""hi"""');
    expect(csvText('two\nlines')).toBe('"two\nlines"');
    for (const bad of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(csvText(bad).replace(/^"/, '').startsWith("'")).toBe(true);
    expect(csvText('=HYPERLINK("x","y")')).toBe('"\'=HYPERLINK(""x"",""y"")"');
    expect(csvText(null)).toBe('');
    const row = statementCsvRow({
      id: 's1', organisationId: 'o', periodStart: 'a', periodEnd: 'b', feeSweptKobo: 1, interestSweptKobo: 2, totalSweptKobo: 3,
      status: 'completed', failureReason: null, transferReference: null, lines: [], createdAt: 'c', updatedAt: 'c',
    });
    expect(row).toBe('s1,a,b,completed,1,0.01,2,0.02,3,0.03,0,,,c');
  });
});

describe('pool funding references', () => {
  it('are PF- and 10 unambiguous characters, different each time', () => {
    const refs = new Set(Array.from({ length: 200 }, fundingReference));
    expect(refs.size).toBe(200);
    for (const ref of refs) expect(ref).toMatch(/^PF-[0-9A-HJKMNP-TV-Z]{10}$/);
  });
});
