/** The NUBAN check lives in `server/shared/nuban.ts`: the widget runs the same pure function as the borrower types. */
export { isValidNuban, nubanCheckDigit, nubanPrefix, NUBAN_PATTERN } from '../../../shared/nuban';
