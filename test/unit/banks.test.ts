import { describe, expect, it } from 'vitest';
import { NIGERIAN_BANKS } from '../../server/integrations/banks';
import { isValidAccountNumber } from '../../server/platform/domain/checkout/bank-account';
import { isValidNuban, nubanCheckDigit } from '../../server/platform/domain/payouts/nuban';

const byName = (name: string) => {
  const bank = NIGERIAN_BANKS.find((b) => b.name.toLowerCase().startsWith(name.toLowerCase()));
  if (!bank) throw new Error(`${name} is not in the bank list`);
  return bank;
};

describe('the bank list', () => {
  it('has the institutions borrowers use: commercial, non-interest, merchant, microfinance, mobile money, payment service banks', () => {
    for (const name of ['Guaranty Trust Bank', 'Access Bank', 'Zenith Bank', 'Jaiz Bank', 'Moniepoint', 'Kuda', 'FairMoney', 'Sparkle', 'Rubies', 'VFD', 'Carbon', 'OPay', 'PalmPay', 'MTN MoMo PSB', '9PSB', 'Airtel SmartCash', 'HopePSB']) {
      expect(byName(name)).toBeTruthy();
    }
    expect(new Set(NIGERIAN_BANKS.map((b) => b.type))).toEqual(new Set(['commercial', 'non_interest', 'merchant', 'microfinance', 'mobile_money', 'payment_service']));
  });

  it('leaves out Heritage Bank (licence revoked by the CBN in June 2024)', () => {
    expect(NIGERIAN_BANKS.some((b) => /heritage/i.test(b.name) || b.code === '030')).toBe(false);
  });

  it('is sorted by name', () => {
    const names = NIGERIAN_BANKS.map((b) => b.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });
});

describe('account numbers of other financial institutions', () => {
  it('checks a microfinance bank\'s NUBAN with "9" + its 5-digit CBN code (Moniepoint 50515 → prefix 950515)', () => {
    // A published Moniepoint account number: 9·3+5·7+0·3+5·3+1·7+5·3 + serial 400067587 weighted = 266 → check digit 4.
    expect(nubanCheckDigit('50515', '400067587')).toBe(4);
    expect(isValidNuban('50515', '4000675874')).toBe(true);
    expect(isValidNuban('950515', '4000675874')).toBe(true);
    expect(isValidNuban('50515', '4000675875')).toBe(false);
    const moniepoint = byName('Moniepoint');
    expect(moniepoint.nubanCode).toBe('50515');
    expect(isValidAccountNumber(moniepoint, '4000675874')).toBe(true);
    expect(isValidAccountNumber(moniepoint, '4000675870')).toBe(false);
  });

  it('checks a bank with its 3-digit code as before (000 + code: the leading zeros add nothing)', () => {
    expect(isValidAccountNumber(byName('Guaranty Trust Bank'), `012345678${nubanCheckDigit('058', '012345678')}`)).toBe(true);
    expect(nubanCheckDigit('058', '012345678')).toBe(nubanCheckDigit('000058', '012345678'));
  });

  it('takes any 10 digits for wallets numbered by phone (OPay, PalmPay, PSBs): name enquiry is their check', () => {
    for (const name of ['OPay', 'PalmPay', 'MTN MoMo PSB']) {
      const wallet = byName(name);
      expect(wallet.nubanCode).toBeNull();
      expect(isValidAccountNumber(wallet, '8031234567')).toBe(true);
      expect(isValidAccountNumber(wallet, '803123456')).toBe(false);
    }
  });

  it('every institution with a NUBAN code accepts exactly one check digit per serial', () => {
    for (const bank of NIGERIAN_BANKS.filter((b) => b.nubanCode)) {
      const valid = Array.from({ length: 10 }, (_, d) => isValidAccountNumber(bank, `123456789${d}`));
      expect(valid.filter(Boolean)).toHaveLength(1);
    }
  });
});
