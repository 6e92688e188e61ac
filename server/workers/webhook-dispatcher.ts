import type { Platform } from '../platform/platform';
import { onOutboxCommitted } from '../platform/domain/events/outbox-signal';
import type { SendWebhook } from '../platform/domain/ports';
import { claimDueDeliveries, endExpiredLastAttempts, type ClaimedDelivery } from '../platform/domain/webhooks/claim';
import { deliver, type AttemptResult } from '../platform/domain/webhooks/deliver';
import { fanOutEvents } from '../platform/domain/webhooks/fan-out';
import { notifyEndpointDisabled } from '../platform/domain/webhooks/notify-endpoint-disabled';
import { recordAttempts } from '../platform/domain/webhooks/record-attempt';
import { retryDelayMs } from '../platform/domain/webhooks/retry-schedule';
import { sendWebhook } from '../integrations/webhooks/send-webhook';

export interface DispatcherOptions {
  /** The HTTP sender (tests may wrap it to observe attempts). */
  send?: SendWebhook;
  /** Jitter source in [0, 1). */
  random?: () => number;
}

/**
 * The webhook dispatcher: a loop over the steps in `domain/webhooks/`. It fans new outbox events
 * out to delivery rows (`fan-out.ts`), claims due deliveries under a lease (`claim.ts`), sends them
 * (`deliver.ts`, at most WEBHOOK_CONCURRENCY at once) and records each attempt (`record-attempt.ts`).
 * Delivery is at least once: a worker that dies mid-attempt leaves a lease that expires, and
 * the delivery is claimed again. Run it in as many processes as you like.
 */
export class WebhookDispatcher {
  private readonly send: SendWebhook;
  private readonly random: () => number;
  private readonly inFlight = new Set<Promise<void>>();
  private results: AttemptResult[] = [];
  private running: Promise<void> | undefined;
  private stopped = true;
  private wake: (() => void) | undefined;
  /** Set by a poke or a finished attempt while the loop was busy, so the next idle does not sleep. */
  private signalled = false;
  private unsubscribe: (() => void) | undefined;
  private lastHousekeeping = 0;

  constructor(
    private readonly platform: Platform,
    options: DispatcherOptions = {},
  ) {
    this.send = options.send ?? sendWebhook;
    this.random = options.random ?? Math.random;
  }

  /** Runs until `stop`, polling every WEBHOOK_POLL_INTERVAL_MS when idle and woken by new events. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribe = onOutboxCommitted(() => this.poke());
    this.running = this.loop();
  }

  /** Stops claiming, lets the attempts in flight finish and records them. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe?.();
    this.signal();
    await this.running;
    await Promise.all(this.inFlight);
    await this.flush();
  }

  /** Wakes the loop (a write committed in this process). */
  poke(): void {
    if (!this.stopped) this.signal();
  }

  /**
   * One full pass, for tests and tools on an injected clock: fans out every waiting event, sends
   * every due delivery (up to WEBHOOK_CONCURRENCY) and records the results. Returns the attempts made.
   */
  async runOnce(): Promise<AttemptResult[]> {
    await endExpiredLastAttempts(this.platform.db, this.platform.clock.now());
    while ((await fanOutEvents(this.platform.db, this.platform.dialect, this.platform.clock.now())) > 0);
    const claimed = await this.claim(this.platform.config.WEBHOOK_CONCURRENCY);
    const results = await Promise.all(claimed.map((claim) => this.attempt(claim)));
    await this.record(results);
    return results;
  }

  private async loop(): Promise<void> {
    const { config, logger } = this.platform;
    while (!this.stopped) {
      let busy = false;
      try {
        if (Date.now() - this.lastHousekeeping > 10_000) {
          this.lastHousekeeping = Date.now();
          await endExpiredLastAttempts(this.platform.db, this.platform.clock.now());
        }
        const fanned = await fanOutEvents(this.platform.db, this.platform.dialect, this.platform.clock.now());
        const free = config.WEBHOOK_CONCURRENCY - this.inFlight.size;
        const claimed = free > 0 ? await this.claim(free) : [];
        for (const claim of claimed) this.launch(claim);
        await this.flush();
        busy = fanned > 0 || (free > 0 && claimed.length === free);
      } catch (error) {
        logger.warn({ err: error }, 'webhook dispatcher pass failed; retrying');
      }
      if (!busy && !this.stopped) await this.idle(config.WEBHOOK_POLL_INTERVAL_MS);
    }
  }

  private signal(): void {
    this.signalled = true;
    this.wake?.();
  }

  /** Sleeps until woken (a new event, an attempt finishing) or `ms` passes; not at all if woken meanwhile. */
  private idle(ms: number): Promise<void> {
    if (this.signalled) {
      this.signalled = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.wake = undefined;
        this.signalled = false;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.wake = finish;
    });
  }

  private claim(limit: number): Promise<ClaimedDelivery[]> {
    const { db, dialect, clock, config } = this.platform;
    return claimDueDeliveries(db, dialect, clock.now(), limit, config.WEBHOOK_LEASE_MS);
  }

  private launch(claim: ClaimedDelivery): void {
    const task = this.attempt(claim).then((result) => {
      this.results.push(result);
      this.inFlight.delete(task);
      // Wake the loop for a batch, not for every attempt: when half the slots are free or many
      // results wait to be recorded (each pass costs a few statements whatever its size).
      const concurrency = this.platform.config.WEBHOOK_CONCURRENCY;
      if (this.inFlight.size <= concurrency / 2 || this.results.length >= 32) this.signal();
    });
    this.inFlight.add(task);
  }

  private async flush(): Promise<void> {
    if (this.results.length === 0) return;
    const batch = this.results;
    this.results = [];
    try {
      await this.record(batch);
    } catch (error) {
      // Unrecorded attempts stay `delivering` until their lease expires, then go out again.
      this.platform.logger.warn({ err: error, attempts: batch.length }, 'could not record webhook attempts; they will be retried after the lease');
    }
  }

  private attempt(claim: ClaimedDelivery): Promise<AttemptResult> {
    const { db, secrets, clock, config } = this.platform;
    return deliver(claim, { db, secrets, clock, send: this.send, allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK, timeoutMs: config.WEBHOOK_TIMEOUT_MS });
  }

  private async record(results: AttemptResult[]): Promise<void> {
    if (results.length === 0) return;
    const { db, clock, config } = this.platform;
    const disabled = await recordAttempts(
      db,
      results,
      clock.now(),
      { failures: config.WEBHOOK_DISABLE_AFTER_FAILURES, minFailingMs: config.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000 },
      (n) => retryDelayMs(n, this.random()),
    );
    for (const endpoint of disabled) await notifyEndpointDisabled(this.platform, endpoint);
  }
}
