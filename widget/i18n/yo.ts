import type { Messages } from './i18n.ts';

/**
 * Yorùbá: partial. Only texts we could translate with care; everything else falls back to English
 * and is listed by the build's coverage report. To be reviewed by a native speaker before launch.
 */
export const yo: Messages = {
  'checkout.retry': 'Gbìyànjú lẹ́ẹ̀kan síi',
  'checkout.complete.title': 'Ó ti parí',
  'step.otp': 'Jẹ́rìí sí nọ́mbà fóònù rẹ',
  'step.bank': 'Àkáǹtì báǹkì rẹ',
  'otp.send': 'Fi kóòdù ránṣẹ́',
  'otp.verify': 'Jẹ́rìí',
  'otp.resend': 'Tún kóòdù náà fi ránṣẹ́',
  'bank.bank': 'Báǹkì',
  'bank.choose': 'Yan báǹkì rẹ',
  'bank.number': 'Nọ́mbà àkáǹtì',
  'offer.amount': 'Iye owó',
  'offer.sign': 'Buwọ́lù kí o sì gbà á',
  'offer.decline': 'Kọ̀ ọ́',
};
