import type { Messages } from './i18n.ts';

/**
 * Igbo: partial. Only texts we could translate with care; everything else falls back to English
 * and is listed by the build's coverage report. To be reviewed by a native speaker before launch.
 */
export const ig: Messages = {
  'checkout.retry': 'Nwaa ọzọ',
  'checkout.complete.title': 'Emechaala',
  'step.otp': 'Kwado nọmba ekwentị gị',
  'step.bank': 'Akaụntụ ụlọ akụ gị',
  'otp.send': 'Ziga koodu',
  'otp.verify': 'Kwado',
  'bank.bank': 'Ụlọ akụ',
  'bank.choose': 'Họrọ ụlọ akụ gị',
  'bank.number': 'Nọmba akaụntụ',
  'offer.amount': 'Ego ole',
  'offer.decline': 'Jụ',
};
