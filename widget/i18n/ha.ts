import type { Messages } from './i18n.ts';

/**
 * Hausa: partial. Only texts we could translate with care; everything else falls back to English
 * and is listed by the build's coverage report. To be reviewed by a native speaker before launch.
 */
export const ha: Messages = {
  'checkout.retry': 'Sake gwadawa',
  'checkout.complete.title': 'An gama',
  'step.otp': 'Tabbatar da lambar wayarka',
  'step.bank': 'Asusun bankinka',
  'otp.send': 'Aika lamba',
  'otp.verify': 'Tabbatar',
  'otp.resend': 'Sake aika lambar',
  'bank.bank': 'Banki',
  'bank.choose': 'Zaɓi bankinka',
  'bank.number': 'Lambar asusu',
  'offer.amount': 'Adadi',
  'offer.sign': 'Sa hannu ka karɓa',
  'offer.decline': 'Ƙi',
};
