import { fromJson } from '../../server/platform/db/database';
import { readBootstrap, type BootstrapResult } from '../../server/platform/domain/bootstrap';
import { createOperatorLoan } from '../../server/platform/domain/loans/create-operator-loan';
import type { Platform } from '../../server/platform/platform';
import { ensureManagedProduct } from './managed-product';
import { PartnerApi } from './partner-api';
import { DEMO_PRINCIPAL_NAIRA, DEMO_TENOR_DAYS, demoPhone, newRunId, pushBodyFor, scenarioOfRun, SCENARIOS, type ScenarioId } from './scenarios';

/** What the demo page may ask the partner (or the lender's staff) to do next. */
export const DEMO_ACTIONS = ['approve', 'reject', 'disburse', 'repay'] as const;
export type DemoAction = (typeof DEMO_ACTIONS)[number];

/** A refusal of the demo's own (400 bad input, 404 unknown run, 409 not now, 503 no sandbox). */
export class DemoError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface PlatformLoan {
  id: string;
  status: string;
  kycTier: string;
  principalKobo: number;
  outstandingKobo: number;
  amountPaidKobo: number;
  hasActiveMandate: boolean;
  applicationUrl: string | null;
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
  preapproval: { id: string; status: string } | null;
  loan:
    | (Omit<PlatformLoan, 'applicationUrl'> & {
        instalmentCount: number;
        instalmentsPaid: number;
        nextInstalment: { number: number; dueDate: string; amountKobo: number } | null;
      })
    | null;
  /** Same-origin path of the borrower's hosted checkout link (`/checkout/c/<token>`), once there is one. */
  checkoutPath: string | null;
  actions: DemoAction[];
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
    if (!this.sandbox) throw new DemoError(503, 'demo_unavailable', 'The sandbox organisation does not exist yet: start the service with BOOTSTRAP_SANDBOX=true.');
    return this.sandbox;
  }

  async start(scenario: ScenarioId): Promise<DemoRun> {
    const runId = newRunId(scenario);
    const phone = demoPhone();
    if (scenario === 'managed') {
      const { organisationId } = await this.sandboxOrg();
      const productId = await ensureManagedProduct(this.platform, organisationId);
      const loan = await this.platform.db.transaction().execute((trx) =>
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
    if (!scenario) throw new DemoError(400, 'invalid_run_id', 'runId: a demo run id, e.g. demo-delegated-0123456789ab.');
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
    if (!first) throw new DemoError(404, 'run_not_found', 'No demo run with this id: start a new scenario.');
    return { scenario, preapproval, loan, borrowerId: first.borrowerId, startedAt: first.createdAt };
  }

  async read(runId: string): Promise<DemoRun> {
    const { scenario, preapproval, loan: loanRow, borrowerId } = await this.records(runId);
    const borrower = await this.platform.db.selectFrom('borrowers').select(['firstName', 'lastName', 'phone']).where('id', '=', borrowerId).executeTakeFirstOrThrow();
    const loan = loanRow ? await this.api.expect<PlatformLoan>([200], 'GET', `/v1/loans/${loanRow.id}`) : undefined;
    const schedule = loan && ['active', 'completed', 'defaulted'].includes(loan.status) ? await this.api.expect<ScheduleItem[]>([200], 'GET', `/v1/loans/${loan.id}/schedule`) : [];
    const next = schedule.find((item) => item.status !== 'paid' && item.status !== 'waived');
    const actions: DemoAction[] = [];
    if (loan?.status === 'kyc_completed') actions.push('approve');
    if (loan?.status === 'under_review') actions.push('reject');
    if (loan?.status === 'terms_accepted') actions.push('disburse');
    if (loan?.status === 'active' && next) actions.push('repay');
    return {
      id: runId,
      scenario,
      title: SCENARIOS[scenario].title,
      borrower: { name: `${borrower.firstName} ${borrower.lastName}`, phone: borrower.phone },
      preapproval: preapproval ? { id: preapproval.id, status: preapproval.status } : null,
      loan: loan
        ? {
            id: loan.id,
            status: loan.status,
            kycTier: loan.kycTier,
            principalKobo: loan.principalKobo,
            outstandingKobo: loan.outstandingKobo,
            amountPaidKobo: loan.amountPaidKobo,
            hasActiveMandate: loan.hasActiveMandate,
            instalmentCount: schedule.length,
            instalmentsPaid: schedule.filter((item) => item.status === 'paid').length,
            nextInstalment: next ? { number: next.installmentNumber, dueDate: next.dueDate, amountKobo: next.totalKobo + next.lateFeeKobo - next.amountPaidKobo } : null,
          }
        : null,
      checkoutPath: checkoutPathOf(loan?.applicationUrl),
      actions,
    };
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
    if (res.status !== 200) throw new DemoError(502, 'sandbox_sms_unavailable', 'The sandbox SMS inbox could not be read; it is safe to retry.');
    return ((await res.json()) as { data: { messages: Array<{ id: string; from: string; body: string; sentAt: string }> } }).data.messages;
  }

  /** One of the run's next steps, as the partner (or the lender's staff) would take it. */
  async act(runId: string, action: DemoAction): Promise<DemoRun> {
    const run = await this.read(runId);
    const loan = run.loan;
    if (!loan || !run.actions.includes(action)) {
      throw new DemoError(409, 'action_not_available', `"${action}" is not a next step of this run (${loan ? `loan ${loan.status}` : `pre-approval ${run.preapproval?.status}`}).`);
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
