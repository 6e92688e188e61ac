/** Display only: integer kobo as `₦1,234.56`, split with integer arithmetic (no floats). */
export function formatKobo(kobo: number): string {
  const sign = kobo < 0 ? '-' : '';
  const abs = Math.abs(kobo);
  const naira = Math.trunc(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}₦${naira}.${(abs % 100).toString().padStart(2, '0')}`;
}

export const formatTime = (iso: string) => new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

export const formatDate = (iso: string) => new Date(iso).toLocaleDateString('en-NG', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A rate the platform stores a year (basis points) as Nigerian lenders quote it: a month, e.g. 4800 → `4%`. Display only. */
export const formatMonthlyRate = (annualBps: number) => `${(annualBps / 1200).toLocaleString('en-NG', { maximumFractionDigits: 2 })}%`;

/** Basis points as a percentage, e.g. 4800 → `48%`. Display only. */
export const formatBps = (bps: number) => `${(bps / 100).toLocaleString('en-NG', { maximumFractionDigits: 2 })}%`;
