import { t, type MessageKey } from '../i18n/i18n';

/** A loan's status in the borrower's words (an unexpected one as the platform names it). */
export const statusText = (status: string): string =>
  ['disbursed', 'active', 'completed', 'defaulted'].includes(status) ? t(`myLoan.status.${status}` as MessageKey) : status;
