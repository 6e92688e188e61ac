import { html, LitElement, nothing } from 'lit';
import { BEFORE_RUN, captionFor, directDebitText, moneyText, preapprovalText, STATUS_LABELS, termsText } from '../captions';
import { DemoApi, type DemoAction, type DemoRun, type Scenario, type ScenarioId } from '../demo-api';
import { DEMO_NAME } from '../../shared/demo-name';
import { formatKobo } from '../format';
import { Poller } from '../poller';
import { appStyles } from './demo-app.styles';
import '../demo-feed/demo-feed';
import '../demo-fills/demo-fills';
import '../demo-inbox/demo-inbox';
import '../demo-phone/demo-phone';

const POLL_MS = 1_500;

/** A sandbox BVN for the managed-tier KYC step, made here so that no BVN ever comes from the server. */
function sandboxBvnHint(): string {
  const digits = crypto.getRandomValues(new Uint32Array(10));
  return `4${Array.from(digits, (d) => d % 10).join('')}`;
}

const PHONE_PLACEHOLDER: Record<ScenarioId | 'none', string> = {
  none: 'The borrower’s phone. Their checkout appears here once the partner sends the offer.',
  delegated: 'Sending the offer…',
  managed: 'Opening the checkout…',
  aml: 'Nothing was sent to the borrower: the loan is held for a compliance review.',
  decline: 'Nothing is sent to the borrower: the decision was a decline.',
};

function phonePlaceholder(run: DemoRun | undefined): string {
  if (run?.scenario === 'aml' && run.loan?.status === 'rejected') return 'Nothing was sent to the borrower: compliance rejected the application.';
  return PHONE_PLACEHOLDER[run?.scenario ?? 'none'];
}

/**
 * The sales demo: pick a scenario, let the page play the partner (through the demo server, which
 * holds the sandbox keys), and follow the borrower's phone, their texts and the webhooks.
 *
 * @attr api - base URL of the demo's JSON routes (`/demo/api`)
 */
export class DemoApp extends LitElement {
  static override styles = appStyles;
  static override properties = {
    api: {},
    scenarios: { state: true },
    selected: { state: true },
    run: { state: true },
    checkoutPath: { state: true },
    busy: { state: true },
    error: { state: true },
    code: { state: true },
  };

  declare api: string;
  declare private scenarios: Scenario[];
  declare private selected: ScenarioId;
  declare private run: DemoRun | undefined;
  declare private checkoutPath: string | null;
  declare private busy: 'start' | DemoAction | undefined;
  declare private error: string | undefined;
  /** The newest one-time code in the borrower's inbox, for the code chip. */
  declare private code: string | null;
  private client!: DemoApi;
  private bvnHint = sandboxBvnHint();
  private readonly poller = new Poller(this, (signal) => this.refresh(signal), POLL_MS);

  constructor() {
    super();
    this.api = '/demo/api';
    this.scenarios = [];
    this.selected = 'delegated';
    this.checkoutPath = null;
    this.code = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.client = new DemoApi(this.api);
    this.client.scenarios().then(
      (list) => (this.scenarios = list),
      (error: Error) => (this.error = error.message),
    );
  }

  private async refresh(signal: AbortSignal) {
    if (!this.run) return;
    const run = await this.client.run(this.run.id, signal);
    if (run.id === this.run?.id) this.show(run);
  }

  private show(run: DemoRun) {
    this.run = run;
    // The first link the run got stays in the frame (a re-issued offer's session shows the same loan).
    this.checkoutPath ??= run.checkoutPath;
  }

  private async start() {
    this.busy = 'start';
    this.error = undefined;
    try {
      this.show(await this.client.start(this.selected));
      this.poller.start();
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#story-title')?.focus();
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.busy = undefined;
    }
  }

  private async act(action: DemoAction) {
    if (!this.run) return;
    this.busy = action;
    this.error = undefined;
    try {
      this.show(await this.client.act(this.run.id, action));
      // The lender's approval changes what the borrower sees: the phone reloads, as its checkout would on return.
      if (action === 'approve') this.renderRoot.querySelector('demo-phone')?.reload();
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.busy = undefined;
      this.poller.now();
    }
  }

  /** The checkout's document in the phone frame (same origin), for the one-tap fills. */
  private readonly phoneDocument = () => this.renderRoot.querySelector('demo-phone')?.frameDocument() ?? null;

  private reset() {
    this.poller.stop();
    this.run = undefined;
    this.checkoutPath = null;
    this.error = undefined;
    this.bvnHint = sandboxBvnHint();
  }

  private actionLabel(action: DemoAction): string {
    const loan = this.run?.loan;
    switch (action) {
      case 'approve':
        return 'Approve as the lender';
      case 'reject':
        return 'Reject: confirmed match';
      case 'disburse':
        return `Disburse ${loan ? formatKobo(loan.principalKobo) : ''}`;
      case 'repay': {
        const next = loan?.nextInstalment;
        return next ? `Record repayment · ${formatKobo(next.amountKobo)} (instalment ${next.number} of ${loan!.instalmentCount})` : 'Record repayment';
      }
    }
  }

  private renderPicker() {
    return html`<p class="step">${BEFORE_RUN.step}</p>
      <h2 id="story-title" tabindex="-1">${BEFORE_RUN.title}</h2>
      <p class="caption">${BEFORE_RUN.text}</p>
      <fieldset>
        <legend>Scenario</legend>
        ${this.scenarios.map(
          (s) => html`<label class="scenario">
            <input type="radio" name="scenario" value=${s.id} .checked=${this.selected === s.id} @change=${() => (this.selected = s.id)} />
            <span><strong>${s.title}</strong><span>${s.summary}</span></span>
          </label>`,
        )}
      </fieldset>
      ${this.error ? html`<p class="alert" role="alert">${this.error}</p>` : nothing}
      <div class="start">
        <button class="primary" type="button" ?disabled=${this.busy !== undefined || this.scenarios.length === 0} @click=${() => this.start()}>
          ${this.busy === 'start' ? 'Sending…' : this.selected === 'managed' ? 'Book the application' : 'Push pre-approval'}
        </button>
      </div>`;
  }

  private renderRun(run: DemoRun) {
    const caption = captionFor(run, this.bvnHint);
    const loan = run.loan;
    const status = loan?.status ?? run.preapproval?.status ?? '';
    const terms = loan ? termsText(loan) : undefined;
    const money = loan ? moneyText(loan) : undefined;
    const waiting = run.waiting;
    const disbursed = loan?.disbursedAmountKobo != null;
    return html`<p class="step">${caption.step} <span class="scenario-name">· ${run.title}</span></p>
      <h2 id="story-title" tabindex="-1">${caption.title}</h2>
      <p class="caption" aria-live="polite">${caption.text}</p>
      ${this.checkoutPath
        ? html`<demo-fills
            .frame=${this.phoneDocument}
            .code=${this.code}
            signature=${run.borrower.name}
            bvn=${run.scenario === 'managed' ? this.bvnHint : ''}
          ></demo-fills>`
        : nothing}
      ${this.error ? html`<p class="alert" role="alert">${this.error}</p>` : nothing}
      ${run.actions.length
        ? html`<div class="actions">
            ${run.actions.map(
              (action) => html`<button class="primary" type="button" ?disabled=${this.busy !== undefined} @click=${() => this.act(action)}>
                ${this.busy === action ? 'Working…' : this.actionLabel(action)}
              </button>`,
            )}
          </div>`
        : nothing}
      ${waiting
        ? html`<p class="waiting" data-testid="waiting"><strong>Next: ${this.actionLabel(waiting.action)}</strong> — once ${waiting.needs}.</p>`
        : nothing}
      <dl aria-label="The run as the platform reports it">
        <div class="state">
          <dt>${loan ? 'Loan' : 'Status'}</dt>
          <dd><span class="status" data-status=${status} data-testid="loan-status">${STATUS_LABELS[status] ?? status}</span></dd>
        </div>
        ${loan && terms && money
          ? html`<div><dt>Direct debit</dt><dd data-testid="direct-debit">${directDebitText(run)}</dd></div>
              <div><dt>Lent</dt><dd data-testid="lent">${money.lent}</dd></div>
              ${money.outstanding ? html`<div><dt>Outstanding</dt><dd data-testid="outstanding">${money.outstanding}</dd></div>` : nothing}
              ${disbursed ? html`<div><dt>Paid</dt><dd>${formatKobo(loan.amountPaidKobo)}</dd></div>` : nothing}
              ${disbursed && loan.instalmentCount ? html`<div><dt>Instalments paid</dt><dd>${loan.instalmentsPaid} of ${loan.instalmentCount}</dd></div>` : nothing}
              <div><dt>Amount</dt><dd>${formatKobo(loan.principalKobo)}</dd></div>
              <div><dt>Rate</dt><dd data-testid="rate">${terms.rate}</dd></div>
              ${terms.repayment ? html`<div><dt>Repayments</dt><dd>${terms.repayment}</dd></div>` : nothing}
              ${terms.total ? html`<div><dt>Total to repay</dt><dd>${terms.total}</dd></div>` : nothing}`
          : nothing}
        <div><dt>Borrower</dt><dd>${run.borrower.name}</dd></div>
        ${run.preapproval ? html`<div><dt>Pre-approval</dt><dd data-testid="preapproval-status">${preapprovalText(run)}</dd></div>` : nothing}
      </dl>`;
  }

  override render() {
    const run = this.run;
    return html`<header class="top">
        <div>
          <h1>${DEMO_NAME}</h1>
          <p>Sandbox (test mode): realistic data, no real money; the partner’s keys stay on the server.</p>
        </div>
        ${run ? html`<button class="secondary" type="button" @click=${() => this.reset()}>New scenario</button>` : nothing}
      </header>
      <main class="grid" aria-label="Live demo">
        <section class="story" aria-label="The story">${run ? this.renderRun(run) : this.renderPicker()}</section>
        <section class="phone-col" aria-label="The borrower’s phone">
          <demo-phone .src=${this.checkoutPath} placeholder=${phonePlaceholder(run)}></demo-phone>
        </section>
        <section class="side" aria-label="What the borrower and the partner receive">
          <demo-inbox
            .api=${this.client}
            .runId=${run?.id ?? null}
            .contacted=${run?.scenario !== 'aml' && run?.scenario !== 'decline'}
            phone=${run?.borrower.phone ?? ''}
            @demo-code=${(e: CustomEvent<{ code: string | null }>) => (this.code = e.detail.code)}
          ></demo-inbox>
          <demo-feed .api=${this.client} .runId=${run?.id ?? null}></demo-feed>
        </section>
      </main>`;
  }
}
