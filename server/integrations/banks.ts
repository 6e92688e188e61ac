import type { InstitutionType, Bank } from '../platform/domain/ports';

export type { InstitutionType, Bank };

const bank = (code: string, nipCode: string, name: string, type: InstitutionType, aliases: string[] = []): Bank => ({ code, name, type, nipCode, nubanCode: code, aliases });
const institution = (nipCode: string, name: string, type: InstitutionType, nubanCode: string | null, aliases: string[] = []): Bank => ({
  code: nipCode,
  name,
  type,
  nipCode,
  nubanCode,
  aliases,
});

export const NIGERIAN_BANKS: readonly Bank[] = [
  // Commercial banks: CBN 3-digit codes; the youngest banks by NIP code until their CBN code is confirmed.
  bank('044', '000014', 'Access Bank', 'commercial', ['Diamond']),
  bank('023', '000009', 'Citibank Nigeria', 'commercial', ['Citi']),
  bank('050', '000010', 'Ecobank Nigeria', 'commercial'),
  bank('070', '000007', 'Fidelity Bank', 'commercial'),
  bank('011', '000016', 'First Bank of Nigeria', 'commercial', ['FirstBank', 'FBN']),
  bank('214', '000003', 'First City Monument Bank', 'commercial', ['FCMB']),
  bank('103', '000027', 'Globus Bank', 'commercial'),
  bank('058', '000013', 'Guaranty Trust Bank', 'commercial', ['GTBank', 'GTB', 'GTCO']),
  bank('082', '000002', 'Keystone Bank', 'commercial'),
  institution('000036', 'Optimus Bank', 'commercial', null),
  institution('000030', 'Parallex Bank', 'commercial', null),
  bank('076', '000008', 'Polaris Bank', 'commercial', ['Skye']),
  institution('000031', 'PremiumTrust Bank', 'commercial', null),
  bank('101', '000023', 'Providus Bank', 'commercial'),
  institution('000034', 'Signature Bank', 'commercial', null),
  bank('221', '000012', 'Stanbic IBTC Bank', 'commercial', ['IBTC']),
  bank('068', '000021', 'Standard Chartered Bank', 'commercial', ['StanChart']),
  bank('232', '000001', 'Sterling Bank', 'commercial'),
  bank('100', '000022', 'SunTrust Bank', 'commercial'),
  bank('102', '000025', 'Titan Trust Bank', 'commercial'),
  bank('032', '000018', 'Union Bank of Nigeria', 'commercial'),
  bank('033', '000004', 'United Bank for Africa', 'commercial', ['UBA']),
  bank('215', '000011', 'Unity Bank', 'commercial'),
  bank('035', '000017', 'Wema Bank', 'commercial', ['ALAT']),
  bank('057', '000015', 'Zenith Bank', 'commercial'),
  // Non-interest banks.
  bank('301', '000006', 'Jaiz Bank', 'non_interest'),
  institution('000029', 'Lotus Bank', 'non_interest', null),
  institution('000026', 'TAJBank', 'non_interest', null, ['TAJ']),
  // Merchant banks (corporate accounts mostly; checked by name enquiry).
  institution('060001', 'Coronation Merchant Bank', 'merchant', null),
  institution('060002', 'FBNQuest Merchant Bank', 'merchant', null),
  institution('400001', 'FSDH Merchant Bank', 'merchant', null),
  institution('060003', 'Nova Merchant Bank', 'merchant', null),
  institution('000024', 'Rand Merchant Bank', 'merchant', null, ['RMB']),
  // Microfinance banks borrowers use most (CBN 5-digit codes where confirmed).
  institution('090405', 'Moniepoint Microfinance Bank', 'microfinance', '50515', ['Moniepoint MFB', 'TeamApt']),
  institution('090267', 'Kuda Microfinance Bank', 'microfinance', '50211', ['Kuda Bank']),
  institution('090551', 'FairMoney Microfinance Bank', 'microfinance', '51318', ['FairMoney MFB']),
  institution('090325', 'Sparkle Microfinance Bank', 'microfinance', '51310', ['Sparkle']),
  institution('090198', 'Renmoney Microfinance Bank', 'microfinance', '50767', ['Renmoney']),
  institution('090328', 'Eyowo Microfinance Bank', 'microfinance', '50126', ['Eyowo']),
  institution('090175', 'Rubies Microfinance Bank', 'microfinance', null, ['Rubies']),
  institution('090110', 'VFD Microfinance Bank', 'microfinance', null, ['VFD', 'V Bank']),
  institution('100026', 'Carbon', 'microfinance', null, ['Carbon MFB', 'OneFi']),
  institution('090177', 'LAPO Microfinance Bank', 'microfinance', null, ['LAPO']),
  institution('090134', 'Accion Microfinance Bank', 'microfinance', null, ['Accion']),
  institution('090136', 'Baobab Microfinance Bank', 'microfinance', null, ['Baobab']),
  institution('090270', 'AB Microfinance Bank', 'microfinance', null),
  institution('090281', 'Mint Microfinance Bank', 'microfinance', null, ['Mintyn']),
  institution('090286', 'Safe Haven Microfinance Bank', 'microfinance', null, ['SafeHaven']),
  // Mobile money operators (wallets numbered by phone: name enquiry only).
  institution('100004', 'OPay', 'mobile_money', null, ['OPay Digital Services', 'Paycom']),
  institution('100033', 'PalmPay', 'mobile_money', null),
  institution('100002', 'Paga', 'mobile_money', null),
  // Payment service banks.
  institution('120003', 'MTN MoMo PSB', 'payment_service', null, ['MoMo', 'MTN']),
  institution('120001', '9PSB (9mobile 9Payment Service Bank)', 'payment_service', null, ['9mobile', '9 Payment']),
  institution('120004', 'Airtel SmartCash PSB', 'payment_service', null, ['SmartCash', 'Airtel']),
  institution('120002', 'HopePSB', 'payment_service', null, ['Hope']),
]
  .slice()
  .sort((a, b) => a.name.localeCompare(b.name));
