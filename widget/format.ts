/** Display formatting only: amounts stay integer kobo everywhere else. */
const naira = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN', minimumFractionDigits: 2 });

export const formatKobo = (kobo: number) => naira.format(kobo / 100);

export const formatBps = (bps: number) => `${(bps / 100).toLocaleString('en-NG', { maximumFractionDigits: 2 })}%`;

export const formatDate = (iso: string) => new Date(iso).toLocaleDateString('en-NG', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
