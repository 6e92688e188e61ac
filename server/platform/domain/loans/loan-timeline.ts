import { sql } from 'kysely';
import type { Dialect, Executor } from '../../db/database';
import { fromJson } from '../../db/database';
import { toMandate, type LoanMandate } from '../mandates/mandate';
import { listRepayments, toScheduleItem, type LoanRepayment } from '../repayments/repayment';
import type { Scope } from '../scope';
import type { Secrets } from '../secrets';
import type { Services } from '../services';
import { getLoanDetail, type LoanDetail } from './get-loan-detail';
import type { LoanStatus } from './loan';
import { signOfferLetterLink, type OfferLetterLink } from './offer-letter-link';
import { DISBURSED_STATES, FROM } from './transitions';
import { SERVICE_APPROVAL_MODE } from '../products/product';

/** What a person may do to a loan from the dashboard, the same rules as the partner API's routes (`transitions.ts`). */
export type LoanAction = 'approve' | 'reject' | 'cancel' | 'disburse';

/**
 * The actions a loan's state allows now (the page shows only these; the server checks again on the action itself,
 * under the same conditional update, so a stale page gets 409). Idempotent repeats (reject a rejected loan) are not offered.
 */
export function availableActions(loan: { status: string; approvalMode: string; kycTier: string }): LoanAction[] {
  const status = loan.status as LoanStatus;
  const actions: LoanAction[] = [];
  const approveFrom: readonly string[] = loan.kycTier === 'managed' ? FROM.approveManaged : FROM.approveDelegated;
  if (loan.approvalMode === 'tenant' && approveFrom.includes(status)) actions.push('approve');
  if (loan.approvalMode !== SERVICE_APPROVAL_MODE && (FROM.reject as readonly string[]).includes(status)) actions.push('reject');
  if ((FROM.cancel as readonly string[]).includes(status) && !DISBURSED_STATES.includes(status)) actions.push('cancel');
  if (loan.approvalMode !== SERVICE_APPROVAL_MODE && (FROM.disburse as readonly string[]).includes(status)) actions.push('disburse');
  return actions;
}

export interface LoanTimelineEvent {
  id: string;
  name: string;
  at: string;
  /** The event's status field when it has one (a status change). */
  status: string | null;
  data: Record<string, unknown>;
}

export interface LoanLedgerTransaction {
  id: string;
  reference: string;
  kind: string;
  description: string | null;
  at: string;
  postings: Array<{ accountKind: string; accountCode: string; amountKobo: number }>;
}

/**
 * What the borrower did on their own loan page (a borrower session), newest last: payoff quotes they asked for (and
 * paid), and changes of the account their loan is debited from with how each ended. Their pay-now payments are among
 * the repayments (a mandate charge like the collector's).
 */
export type BorrowerAction =
  | { kind: 'payoff_quote'; at: string; status: string; amountKobo: number; paidAt: string | null }
  | { kind: 'debit_account_change'; at: string; status: string; bankName: string; accountNumberLast4: string; failureReason: string | null; replacedAt: string | null };

export interface LoanTimeline {
  loan: LoanDetail;
  borrower: { id: string; name: string; phone: string; email: string | null };
  product: { id: string; code: string; name: string };
  actions: LoanAction[];
  /** Status changes, oldest first: the loan's creation, then every event that carried a new status. */
  statusHistory: Array<{ status: string; at: string; event: string | null }>;
  events: LoanTimelineEvent[];
  consents: Array<{
    id: string;
    kind: string;
    signatureFullName: string;
    signatureEmail: string | null;
    ipAddress: string;
    userAgent: string;
    signedAt: string;
    documentReference: string;
    reason: string | null;
    recordedBy: string;
    signatureNameMatch: string | null;
  }>;
  /** A fresh signed link to the current offer letter (null before an offer), and the letters rendered so far. */
  offerLetter: OfferLetterLink | null;
  offerLetters: Array<{ documentReference: string; variant: string; createdAt: string }>;
  schedule: ReturnType<typeof toScheduleItem>[];
  repayments: LoanRepayment[];
  mandates: LoanMandate[];
  ledger: LoanLedgerTransaction[];
  borrowerActions: BorrowerAction[];
}

type TimelineServices = Pick<Services, 'secrets' | 'baseUrl'> & { settings: Pick<Services['settings'], 'OFFER_LETTER_LINK_TTL_SECONDS'> };

/** Every loan event's payload carries `loanId`; migration 0033 indexes exactly this expression. */
const loanIdOfPayload = (dialect: Dialect) => (dialect === 'postgres' ? sql<string>`(payload ->> 'loanId')` : sql<string>`json_extract(payload, '$.loanId')`);

/**
 * A loan's page in one read: the loan (as `GET /v1/loans/{id}` shows it), its borrower and product, the status
 * history and events, the consent evidence, the offer letter, schedule, repayments, mandates and ledger postings.
 * Another organisation's or mode's loan is 404 (`getLoanDetail`), before anything else is read.
 */
export async function getLoanTimeline(
  db: Executor,
  dialect: Dialect,
  services: TimelineServices,
  scope: Scope,
  loanId: string,
  now: Date,
): Promise<LoanTimeline> {
  const loan = await getLoanDetail(db, services.secrets as Pick<Secrets, 'hmac' | 'decrypt'>, scope, loanId);
  const [borrower, product, eventRows, consents, letters, scheduleRows, repayments, mandateRows, ledger] = await Promise.all([
    db.selectFrom('borrowers').select(['id', 'firstName', 'lastName', 'phone', 'email']).where('id', '=', loan.borrowerId).executeTakeFirstOrThrow(),
    db.selectFrom('loanProducts').select(['id', 'code', 'name']).where('id', '=', loan.loanProductId).executeTakeFirstOrThrow(),
    db
      .selectFrom('events')
      .select(['id', 'name', 'payload', 'createdAt'])
      .where(loanIdOfPayload(dialect), '=', loan.id)
      // The partner's own events: a financing loan's review is recorded for the service's staff only (`api = 'staff'`).
      .where('api', '!=', 'staff')
      .where('organisationId', '=', scope.organisationId)
      .where('mode', '=', scope.mode)
      .orderBy('createdAt')
      .orderBy('id')
      .limit(500)
      .execute(),
    db
      .selectFrom('loanConsents')
      .select(['id', 'kind', 'signatureFullName', 'signatureEmail', 'ipAddress', 'userAgent', 'signedAt', 'documentReference', 'reason', 'recordedBy', 'signatureNameMatch'])
      .where('loanId', '=', loan.id)
      .orderBy('createdAt')
      .execute(),
    db.selectFrom('offerLetters').select(['documentReference', 'variant', 'createdAt']).where('loanId', '=', loan.id).orderBy('createdAt').execute(),
    db.selectFrom('loanScheduleItems').selectAll().where('loanId', '=', loan.id).orderBy('installmentNumber').execute(),
    listRepayments(db, scope, loan.id),
    db.selectFrom('loanMandates').selectAll().where('loanId', '=', loan.id).where('organisationId', '=', scope.organisationId).where('mode', '=', scope.mode).orderBy('createdAt').execute(),
    loanLedger(db, scope, loan.id),
  ]);

  const events = eventRows.map((row): LoanTimelineEvent => {
    const data = fromJson<Record<string, unknown>>(row.payload) ?? {};
    return { id: row.id, name: row.name, at: row.createdAt, status: typeof data.status === 'string' ? data.status : null, data };
  });
  const statusHistory: LoanTimeline['statusHistory'] = [{ status: 'created', at: loan.createdAt, event: null }];
  for (const event of events) {
    if (event.status && event.status !== statusHistory[statusHistory.length - 1]!.status) statusHistory.push({ status: event.status, at: event.at, event: event.name });
  }
  const offerLetter = loan.documentReference
    ? signOfferLetterLink(services.secrets, {
        baseUrl: services.baseUrl,
        loanId: loan.id,
        documentReference: loan.documentReference,
        now,
        ttlSeconds: services.settings.OFFER_LETTER_LINK_TTL_SECONDS,
      })
    : null;

  return {
    loan,
    borrower: { id: borrower.id, name: `${borrower.firstName} ${borrower.lastName}`.trim(), phone: borrower.phone, email: borrower.email },
    product,
    actions: availableActions(loan),
    statusHistory,
    events,
    consents: consents.map((c) => ({ ...c, signatureNameMatch: c.signatureNameMatch ?? null })),
    offerLetter,
    offerLetters: letters,
    schedule: scheduleRows.map(toScheduleItem),
    repayments,
    mandates: mandateRows.map(toMandate),
    ledger,
    borrowerActions: await borrowerActionsOf(db, loan.id),
  };
}

async function borrowerActionsOf(db: Executor, loanId: string): Promise<BorrowerAction[]> {
  const [quotes, changes] = await Promise.all([
    db.selectFrom('settlementQuotes').select(['createdAt', 'status', 'totalKobo', 'paidAt']).where('loanId', '=', loanId).orderBy('createdAt').limit(200).execute(),
    db.selectFrom('mandateReplacements').select(['createdAt', 'status', 'bankName', 'accountNumber', 'failureReason', 'replacedAt']).where('loanId', '=', loanId).orderBy('createdAt').limit(200).execute(),
  ]);
  const actions: BorrowerAction[] = [
    ...quotes.map((q): BorrowerAction => ({ kind: 'payoff_quote', at: q.createdAt, status: q.status, amountKobo: Number(q.totalKobo), paidAt: q.paidAt })),
    ...changes.map((c): BorrowerAction => ({
      kind: 'debit_account_change',
      at: c.createdAt,
      status: c.status,
      bankName: c.bankName,
      accountNumberLast4: c.accountNumber.slice(-4),
      failureReason: c.failureReason,
      replacedAt: c.replacedAt,
    })),
  ];
  return actions.sort((a, b) => a.at.localeCompare(b.at));
}

/** Every ledger transaction that moved the loan's receivable (disbursement, repayments), with all its postings. */
async function loanLedger(db: Executor, scope: Scope, loanId: string): Promise<LoanLedgerTransaction[]> {
  const receivable = await db
    .selectFrom('ledgerAccounts')
    .select('id')
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .where('kind', '=', 'loan_receivable')
    .where('code', '=', loanId)
    .executeTakeFirst();
  if (!receivable) return [];
  const rows = await db
    .selectFrom('ledgerPostings as mine')
    .innerJoin('ledgerTransactions as t', 't.id', 'mine.transactionId')
    .innerJoin('ledgerPostings as p', 'p.transactionId', 't.id')
    .innerJoin('ledgerAccounts as a', 'a.id', 'p.accountId')
    .select(['t.id', 't.reference', 't.kind', 't.description', 't.createdAt', 'a.kind as accountKind', 'a.code as accountCode', 'p.amountKobo', 'p.id as postingId'])
    .where('mine.accountId', '=', receivable.id)
    .orderBy('t.createdAt')
    .orderBy('t.id')
    .orderBy('p.id')
    .limit(2000)
    .execute();
  const byId = new Map<string, LoanLedgerTransaction>();
  for (const row of rows) {
    let tx = byId.get(row.id);
    if (!tx) byId.set(row.id, (tx = { id: row.id, reference: row.reference, kind: row.kind, description: row.description, at: row.createdAt, postings: [] }));
    tx.postings.push({ accountKind: row.accountKind, accountCode: row.accountCode, amountKobo: Number(row.amountKobo) });
  }
  return [...byId.values()];
}
