/**
 * The "back from your bank" address. The rail sends the borrower to the checkout page the mandate
 * was set up from; that page must show the loan whose mandate was just decided, never whatever
 * session the browser's cookie holds (a shared phone may still hold another borrower's checkout).
 * So the platform adds the mandate's loan id to the address (an opaque id, like the return URL's),
 * and the page shows the cookie's session only when it is for that loan.
 */
export const RETURNED_LOAN_PARAM = 'loan';

/** `callbackUrl` with the mandate's loan id added (kept: the query the caller gave). */
export function bindReturnToLoan(callbackUrl: string, loanId: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.set(RETURNED_LOAN_PARAM, loanId);
  return url.href;
}
