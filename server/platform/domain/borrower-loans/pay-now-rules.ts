/** The smallest payment a borrower can make now: ₦100, or the whole outstanding when that is less. */
export const MIN_PAYMENT_KOBO = 10_000;

/** What pay now accepts for a loan that still owes `outstandingKobo` (both 0 when nothing is owed). */
export function paymentRange(outstandingKobo: number): { minKobo: number; maxKobo: number } {
  const maxKobo = Math.max(0, outstandingKobo);
  return { minKobo: Math.min(MIN_PAYMENT_KOBO, maxKobo), maxKobo };
}
