import { digits } from '../inputs';

/** The OTP's length; the server checks the same. */
export const OTP_DIGITS = 6;

/**
 * What the borrower typed or pasted, as a code: every space, dash or other separator goes first,
 * then the length limit ("477 707" → "477707", "477-707" → "477707"). The other way round a paste
 * loses digits ("477 707" cut to six characters is "477 70").
 */
export const codeFrom = (typed: string): string => digits(typed, OTP_DIGITS);
