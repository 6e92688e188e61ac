/**
 * Reviews in people's words, shared by the reviews page and a loan's page: why a review opened, how long it has
 * waited, and its evidence split into what the automatic check saw and what the borrower gave. An unknown reason or
 * evidence field is shown as it is, never hidden.
 */
export const REVIEW_REASON_WORDS: Record<string, string> = {
  aml_not_screened: 'Not screened for sanctions (no AML provider)',
  aml_hit: 'Possible sanctions or watch-list match',
  kyc_undecided: 'Identity check could not decide',
  name_mismatch: 'Bank account in another name',
};

export const reasonInWords = (reason: string): string => REVIEW_REASON_WORDS[reason] ?? reason.replaceAll('_', ' ');

/** "open 3 h", "open 2 d", "open 5 min": how long a review has waited, to the coarsest whole unit. */
export function reviewAge(openedAt: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(openedAt)) / 60_000));
  if (minutes < 60) return `open ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `open ${hours} h` : `open ${Math.floor(hours / 24)} d`;
}

const text = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(date);
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};

const SCREEN: Record<string, string> = { pending: 'Not screened', hit: 'Match found', clear: 'No match' };
const DOCUMENT: Record<string, string> = { verified: 'Verified', failed: 'Failed', pending: 'No answer yet', undecided: 'The provider could not decide', mismatch: 'Does not match' };
const MATCH: Record<string, string> = { match: 'Same name', partial: 'Partly the same (initials, one name)', mismatch: 'Another name' };

type Rows = Array<[string, string]>;

/**
 * The evidence as two lists of (label, value): what the automatic check saw, and what came with the loan (the partner's
 * attested checks, the borrower's submissions and confirmations).
 */
export function reviewEvidence(reason: string, evidence: Record<string, unknown>): { check: Rows; borrower: Rows } {
  const check: Rows = [];
  const borrower: Rows = [];
  const shown = new Set<string>();
  const put = (side: Rows, key: string, label: string, value: (v: unknown) => string = text) => {
    if (!(key in evidence)) return;
    shown.add(key);
    side.push([label, value(evidence[key])]);
  };
  if (reason.startsWith('aml_')) {
    put(check, 'amlScreenStatus', 'Screening result', (v) => SCREEN[String(v)] ?? text(v));
    put(check, 'amlScreenDetail', 'Screening detail (matched entries)');
    put(check, 'amlScreenedAt', 'Screened');
    const attested = evidence.attestedChecks;
    shown.add('attestedChecks');
    if (attested && typeof attested === 'object') {
      for (const [name, value] of Object.entries(attested as Record<string, unknown>)) borrower.push([name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase(), text(value)]);
    }
    shown.add('attestationId');
  } else if (reason === 'kyc_undecided') {
    shown.add('documents');
    for (const document of (evidence.documents as Array<{ type: string; status: string }> | undefined) ?? []) check.push([`${document.type.toUpperCase()} check`, DOCUMENT[document.status] ?? document.status]);
    put(borrower, 'submissions', 'Identity submissions');
    put(borrower, 'ninGiven', 'NIN given');
    shown.add('kycSubmissionId');
  } else if (reason === 'name_mismatch') {
    put(check, 'nameMatch', 'Name comparison', (v) => MATCH[String(v)] ?? text(v));
    put(check, 'scorePercent', 'Similarity score', (v) => `${text(v)}%`);
    put(check, 'nameOnRecord', 'Name on record');
    put(borrower, 'accountName', 'Account name (the bank)');
    put(borrower, 'bankName', 'Bank');
    put(borrower, 'accountNumberLast4', 'Account number ends', (v) => `…${text(v)}`);
    put(borrower, 'confirmedAt', 'Borrower confirmed it is theirs', (v) => (v ? `yes, ${text(v)}` : 'no'));
  }
  for (const [key, value] of Object.entries(evidence)) if (!shown.has(key)) check.push([key, text(value)]);
  return { check, borrower };
}
