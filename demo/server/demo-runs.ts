import { fromJson } from '../../server/platform/db/database';
import { readBootstrap, type BootstrapResult } from '../../server/platform/domain/bootstrap';
import { ERROR_STATUS, type ErrorCode } from '../../server/platform/domain/errors';
import { createOperatorLoan } from '../../server/platform/domain/loans/create-operator-loan';
import type { Platform } from '../../server/platform/platform';
import { ensureManagedProduct } from './managed-product';
import { PartnerApi } from './partner-api';
import { DEMO_PRINCIPAL_NAIRA, DEMO_TENOR_DAYS, demoPhone, newRunId, pushBodyFor, scenarioOfRun, SCENARIOS, type ScenarioId } from './scenarios';
import { inUnitOfWork } from '../../server/platform/domain/unit-of-work';

/** What the demo page may ask the partner (or the lender's staff) to do next. */
export const DEMO_ACTIONS = ['approve', 'reject', 'disburse', 'repay'] as const;
export type DemoAction = (typeof DEMO_ACTIONS)[number];

/**
 * A refusal of the demo's own (400 bad input, 404 unknown run, 409 not now, 503 no sandbox): a code of the error table
 * (its `Sales demo` entries), answered with the code's status.
 */
export class DemoError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

interface PlatformLoan {
  id: string;
  status: string;
  kycTier: string;
  loanProductId: string;
  tenorDays: number;
  repaymentFrequency: string;
  interestRateBps: number;
  principalKobo: number;
  disbursedAmountKobo: number | null;
  outstandingKobo: number;
  amountPaidKobo: number;
  hasActiveMandate: boolean;
  activeMandateId: string | null;
  applicationUrl: string | null;
}

interface PlatformMandate {
  id: string;
  provider: string;
  status: string;
}

interface ScheduleItem {
  installmentNumber: number;
  dueDate: string;
  totalKobo: number;
  lateFeeKobo: number;
  amountPaidKobo: number;
  status: string;
}

/** One run as the demo page shows it: no key, no BVN, no token other than the borrower's own checkout link. */
export interface DemoRun {
  id: string;
  scenario: ScenarioId;
  title: string;
  borrower: { name: string; phone: string };
  /** The pre-approval as the platform answers it (`GET /v1/preapprovals/{id}`); `hasLoan`: a loan was created from it. */
  preapproval: { id: string; status: string; hasLoan: boolean } | null;
  loan:
    | (Omit<PlatformLoan, 'applicationUrl' | 'loanProductId' | 'activeMandateId'> & {
        /** The product's interest model (`flat`, `reducing_balance`): how the rate reads, as in the checkout's offer. */
        interestModel: string;
        instalmentCount: number;
        instalmentsPaid: number;
        /** The first instalment and the schedule's total, once the offer is priced (null before). */
        instalmentKobo: number | null;
        totalRepayableKobo: number | null;
        nextInstalment: { number: number; dueDate: string; amountKobo: number } | null;
      })
    | null;
  /** The loan's direct debit as the platform answers it (`GET /v1/mandates/{id}`): the active one, else the latest one set up. */
  mandate: { provider: string; status: string } | null;
  /** Same-origin path of the borrower's hosted checkout link (`/checkout/c/<token>`), once there is one. */
  checkoutPath: string | null;
  /** The steps the page may take now: only those the platform (and the partner's own rule of waiting for the mandate) would accept. */
  actions: DemoAction[];
  /** The next step the partner cannot take yet, and what it waits for (a clause that reads after "once"). */
  waiting: { action: DemoAction; needs: string } | null;
}

export interface DemoEvent {
  id: string;
  event: string;
  createdAt: string;
  data: Record<string, unknown>;
}

const checkoutPathOf = (url: string | null | undefined) => {
  if (!url) return null;
  const path = new URL(url).pathname;
  return /^\/checkout\/c\/cs_test_[0-9A-Za-z]+$/.test(path) ? path : null;
};

/**
 * What the page may do next, and the next step it must wait for. The platform accepts a
 * disbursement as soon as the offer is signed; the demo's partner also waits for the direct debit
 * ("mandate.active"), as a lender collecting by direct debit does, so Disburse is offered only then.
 */
export function nextSteps(loan: { status: string; hasActiveMandate: boolean }, instalmentDue: boolean): Pick<DemoRun, 'actions' | 'waiting'> {
  switch (loan.status) {
    case 'kyc_required':
    case 'kyc_pending':
      return { actions: [], waiting: { action: 'approve', needs: 'the borrower has confirmed their phone and verified their BVN in the checkout' } };
    case 'kyc_completed':
      return { actions: ['approve'], waiting: null };
    case 'under_review':
      return { actions: ['reject'], waiting: null };
    case 'awaiting_acceptance':
      return { actions: [], waiting: { action: 'disburse', needs: 'the borrower has signed the offer and approved the direct debit' } };
    case 'terms_accepted':
      return loan.hasActiveMandate
        ? { actions: ['disburse'], waiting: null }
        : { actions: [], waiting: { action: 'disburse', needs: 'the borrower’s direct debit is active (“mandate.active”)' } };
    case 'active':
      return { actions: instalmentDue ? ['repay'] : [], waiting: null };
    default:
      return { actions: [], waiting: null };
  }
}

/**
 * The demo's use cases. Partner steps (push, issue the offer, approve, reject, disburse, record a
 * repayment, read the loan) go over HTTP to the public API with the sandbox key pair; the two
 * operator steps a partner cannot do over the API (creating the demo's managed-tier product and
 * booking an application on it, as `npm run admin` does) use the domain code directly. The run's
 * state lives on the platform: a run is its `clientReference`.
 */
export class DemoRuns {
  readonly api: PartnerApi;
  private sandbox: BootstrapResult | undefined;

  constructor(
    private readonly platform: Platform,
    private readonly apiBaseUrl: string,
  ) {
    this.api = new PartnerApi(apiBaseUrl, async () => (await this.sandboxOrg()).keys);
  }

  private async sandboxOrg(): Promise<BootstrapResult> {
    this.sandbox ??= await readBootstrap(this.platform.db, this.platform.secrets);
    if (!this.sandbox) throw new DemoError('demo_unavailable', 'The sandbox organisation does not exist yet: start the service with BOOTSTRAP_SANDBOX=true.');
    return this.sandbox;
  }

  async start(scenario: ScenarioId): Promise<DemoRun> {
    const runId = newRunId(scenario);
    const phone = demoPhone();
    if (scenario === 'managed') {
      const { organisationId } = await this.sandboxOrg();
      const productId = await ensureManagedProduct(this.platform, organisationId);
      const loan = await inUnitOfWork(this.platform.db, (trx) =>
        createOperatorLoan(
          { db: trx, platform: this.platform, now: this.platform.clock.now(), scope: { organisationId, mode: 'test' }, actor: 'operator:demo' },
          { borrower: { ...SCENARIOS.managed.borrower, phone, email: `tunde.${runId.slice(-6)}@example.com` }, productId, amountKobo: DEMO_PRINCIPAL_NAIRA * 100, tenorDays: DEMO_TENOR_DAYS, repaymentFrequency: 'monthly', clientReference: runId },
        ),
      );
      // The loan has no offer yet, so no applicationUrl: the partner mints the borrower's session.
      const session = await this.api.expect<{ url: string }>([201], 'POST', `/v1/loans/${loan.id}/checkout-sessions`);
      return { ...(await this.read(runId)), checkoutPath: checkoutPathOf(session.url) };
    }
    const pushed = await this.api.expect<{ preapprovalId: string; status: string }>([202], 'POST', '/v1/preapprovals', pushBodyFor(scenario, runId, phone));
    if (pushed.status === 'received') await this.api.expect([200], 'POST', `/v1/preapprovals/${pushed.preapprovalId}/issue-offer`, {});
    return this.read(runId);
  }

  private async records(runId: string) {
    const scenario = scenarioOfRun(runId);
    if (!scenario) throw new DemoError('invalid_run_id', 'runId: a demo run id, e.g. demo-delegated-0123456789ab.');
    const { organisationId } = await this.sandboxOrg();
    const { db } = this.platform;
    const preapproval = await db
      .selectFrom('preapprovals')
      .select(['id', 'status', 'borrowerId', 'createdAt'])
      .where('organisationId', '=', organisationId)
      .where('mode', '=', 'test')
      .where('clientReference', '=', runId)
      .executeTakeFirst();
    const loan = await db
      .selectFrom('loans')
      .select(['id', 'borrowerId', 'createdAt'])
      .where('organisationId', '=', organisationId)
      .where('mode', '=', 'test')
      .where('clientReference', '=', runId)
      .executeTakeFirst();
    const first = preapproval ?? loan;
    if (!first) throw new DemoError('run_not_found', 'No demo run with this id: start a new scenario.');
    return { scenario, preapproval, loan, borrowerId: first.borrowerId, startedAt: first.createdAt };
  }

  async read(runId: string): Promise<DemoRun> {
    const { scenario, preapproval: preapprovalRow, loan: loanRow, borrowerId } = await this.records(runId);
    const borrower = await this.platform.db.selectFrom('borrowers').select(['firstName', 'lastName', 'phone']).where('id', '=', borrowerId).executeTakeFirstOrThrow();
    const preapproval = preapprovalRow ? await this.api.expect<{ id: string; status: string; loanId: string | null }>([200], 'GET', `/v1/preapprovals/${preapprovalRow.id}`) : undefined;
    const loan = loanRow ? await this.api.expect<PlatformLoan>([200], 'GET', `/v1/loans/${loanRow.id}`) : undefined;
    const base = {
      id: runId,
      scenario,
      title: SCENARIOS[scenario].title,
      borrower: { name: `${borrower.firstName} ${borrower.lastName}`, phone: borrower.phone },
      preapproval: preapproval ? { id: preapproval.id, status: preapproval.status, hasLoan: preapproval.loanId !== null } : null,
    };
    if (!loan) return { ...base, loan: null, mandate: null, checkoutPath: null, actions: [], waiting: null };
    const [schedule, product, mandate] = await Promise.all([
      this.api.expect<ScheduleItem[]>([200], 'GET', `/v1/loans/${loan.id}/schedule`),
      this.api.expect<{ interestModel: string }>([200], 'GET', `/v1/products/${loan.loanProductId}`),
      this.mandateOf(loan),
    ]);
    const next = schedule.find((item) => item.status !== 'paid' && item.status !== 'waived');
    return {
      ...base,
      loan: {
        id: loan.id,
        status: loan.status,
        kycTier: loan.kycTier,
        tenorDays: loan.tenorDays,
        repaymentFrequency: loan.repaymentFrequency,
        interestRateBps: loan.interestRateBps,
        interestModel: product.interestModel,
        principalKobo: loan.principalKobo,
        disbursedAmountKobo: loan.disbursedAmountKobo,
        outstandingKobo: loan.outstandingKobo,
        amountPaidKobo: loan.amountPaidKobo,
        hasActiveMandate: loan.hasActiveMandate,
        instalmentCount: schedule.length,
        instalmentsPaid: schedule.filter((item) => item.status === 'paid').length,
        instalmentKobo: schedule[0]?.totalKobo ?? null,
        totalRepayableKobo: schedule.length ? schedule.reduce((sum, item) => sum + item.totalKobo, 0) : null,
        nextInstalment: next ? { number: next.installmentNumber, dueDate: next.dueDate, amountKobo: next.totalKobo + next.lateFeeKobo - next.amountPaidKobo } : null,
      },
      mandate,
      checkoutPath: checkoutPathOf(loan.applicationUrl),
      ...nextSteps(loan, Boolean(next)),
    };
  }

  /** The loan's active mandate, else the latest one set up for it (awaiting the borrower, or refused), as the platform answers it. */
  private async mandateOf(loan: { id: string; activeMandateId: string | null }): Promise<DemoRun['mandate']> {
    const id =
      loan.activeMandateId ??
      (await this.platform.db.selectFrom('loanMandates').select('id').where('loanId', '=', loan.id).orderBy('createdAt', 'desc').orderBy('id', 'desc').executeTakeFirst())?.id;
    if (!id) return null;
    const mandate = await this.api.expect<PlatformMandate>([200], 'GET', `/v1/mandates/${id}`);
    return { provider: mandate.provider, status: mandate.status };
  }

  /** The run's events from the platform's outbox, in creation order, after `after` (an event id). */
  async events(runId: string, after?: string): Promise<{ events: DemoEvent[]; cursor: string | null }> {
    const { startedAt } = await this.records(runId);
    const { organisationId } = await this.sandboxOrg();
    // Events of a run are written in the transactions that created its records, or later.
    const since = new Date(new Date(startedAt).getTime() - 1_000).toISOString();
    let query = this.platform.db
      .selectFrom('events')
      .select(['id', 'name', 'payload', 'createdAt'])
      .where('organisationId', '=', organisationId)
      .where('mode', '=', 'test')
      .where('createdAt', '>=', since)
      .orderBy('id')
      .limit(500);
    if (after) query = query.where('id', '>', after);
    const rows = await query.execute();
    const events = rows
      .map((row) => ({ id: row.id, event: row.name, createdAt: row.createdAt, data: fromJson<Record<string, unknown>>(row.payload) ?? {} }))
      .filter((event) => event.data.clientReference === runId);
    return { events, cursor: rows.at(-1)?.id ?? after ?? null };
  }

  /** The borrower's sandbox SMS inbox, read through the sandbox route (newest first). */
  async inbox(runId: string): Promise<Array<{ id: string; from: string; body: string; sentAt: string }>> {
    const { borrowerId } = await this.records(runId);
    const { phone } = await this.platform.db.selectFrom('borrowers').select('phone').where('id', '=', borrowerId).executeTakeFirstOrThrow();
    const res = await fetch(`${this.apiBaseUrl}/sandbox/sms?phone=${encodeURIComponent(phone)}`, { signal: AbortSignal.timeout(15_000) });
    if (res.status !== 200) throw new DemoError('sandbox_sms_unavailable', 'The sandbox SMS inbox could not be read; it is safe to retry.');
    return ((await res.json()) as { data: { messages: Array<{ id: string; from: string; body: string; sentAt: string }> } }).data.messages;
  }

  /** One of the run's next steps, as the partner (or the lender's staff) would take it. */
  async act(runId: string, action: DemoAction): Promise<DemoRun> {
    const run = await this.read(runId);
    const loan = run.loan;
    if (!loan || !run.actions.includes(action)) {
      throw new DemoError('action_not_available', `"${action}" is not a next step of this run (${loan ? `loan ${loan.status}` : `pre-approval ${run.preapproval?.status}`}).`);
    }
    const path = `/v1/loans/${loan.id}`;
    if (action === 'approve') await this.api.expect([200], 'POST', `${path}/approve`, { notes: 'Approved by the lender in the sales demo.' });
    if (action === 'reject') await this.api.expect([200], 'POST', `${path}/reject`, { reason: 'AML screen match confirmed by compliance.' });
    if (action === 'disburse') await this.api.expect([200], 'POST', `${path}/disburse`);
    if (action === 'repay') {
      // The reference is fixed by the loan's state, so a double click records the instalment once.
      const externalReference = `${runId}-paid-${loan.amountPaidKobo}`;
      await this.api.expect([200, 201], 'POST', `${path}/repayments`, { method: 'external', amountKobo: loan.nextInstalment!.amountKobo, externalReference });
    }
    return this.read(runId);
  }
}
