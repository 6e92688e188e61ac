import type { Platform } from '../platform/platform';
import { onOutboxCommitted } from '../platform/domain/events/outbox-signal';
import type { SendWebhook } from '../platform/domain/ports';
import { claimDueDeliveries, endExpiredLastAttempts, type ClaimedDelivery } from '../platform/domain/webhooks/claim';
import { deliver, type AttemptResult } from '../platform/domain/webhooks/deliver';
import { fanOutAndClaim, fanOutEvents } from '../platform/domain/webhooks/fan-out';
import { notifyEndpointDisabled } from '../platform/domain/webhooks/notify-endpoint-disabled';
import { recordAttempts } from '../platform/domain/webhooks/record-attempt';
import { retryDelayMs } from '../platform/domain/webhooks/retry-schedule';
import { sendWebhook } from '../integrations/webhooks/send-webhook';
import { listenForOutbox } from './outbox-bell';
import { webhookAddressPolicy } from '../shared/address-policy';

/** Results that make a batch worth recording without waiting for the loop's next pass. */
const RECORD_BATCH = 32;

export interface DispatcherOptions {
  /** The HTTP sender (tests may wrap it to observe attempts). */
  send?: SendWebhook;
  /** Jitter source in [0, 1). */
  random?: () => number;
}

/**
 * The webhook dispatcher: a loop over the steps in `domain/webhooks/`. It fans new outbox events
 * out to delivery rows, claiming as many of them as it has free sending slots in the same
 * transaction (`fan-out.ts`), claims other due deliveries under a lease (`claim.ts`), sends them
 * (`deliver.ts`, at most WEBHOOK_CONCURRENCY at once) and records each attempt (`record-attempt.ts`).
 * Recording runs beside the loop, one batch at a time, so that a fresh event never waits for the
 * previous batch's results to be written. Delivery is at least once: a worker that dies mid-attempt
 * leaves a lease that expires, and the delivery is claimed again. Run it in as many processes as you
 * like; see docs/scale/webhook-lag.md for where an event's time goes.
 */
export class WebhookDispatcher {
  private readonly send: SendWebhook;
  private readonly random: () => number;
  private readonly inFlight = new Set<Promise<void>>();
  private results: AttemptResult[] = [];
  private running: Promise<void> | undefined;
  /** The batch of results being recorded, if any (one at a time). */
  private recording: Promise<void> | undefined;
  /** Results taken for recording and not yet written. */
  private recordingCount = 0;
  /** When the due deliveries were last claimed, and whether that claim filled every free slot. */
  private lastClaimAt = 0;
  private claimBacklog = true;
  private stopped = true;
  private wake: (() => void) | undefined;
  /** Set by a poke or a finished attempt while the loop was busy, so the next idle does not sleep. */
  private signalled = false;
  private unsubscribe: (() => void) | undefined;
  /** Listening for other processes' commits (`outbox-bell.ts`), when the room bus spans processes. */
  private listening: Promise<(() => Promise<void>) | undefined> | undefined;
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
    this.listening = listenForOutbox(this.platform.roomBus, () => this.poke()).catch((error: unknown) => {
      this.platform.logger.warn({ err: error }, 'webhook dispatcher: cannot hear other processes commit; polling every WEBHOOK_POLL_INTERVAL_MS');
      return undefined;
    });
    this.running = this.loop();
  }

  /** Stops claiming, lets the attempts in flight finish and records them. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe?.();
    const listening = this.listening;
    this.listening = undefined;
    await (await listening)?.().catch(() => undefined);
    this.signal();
    await this.running;
    await Promise.all(this.inFlight);
    await this.recording;
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
        // New events first, their first attempts claimed in the same transaction and sent at once.
        let free = this.freeSlots();
        const fresh = await fanOutAndClaim(this.platform.db, this.platform.dialect, this.platform.clock.now(), { claim: free, leaseMs: config.WEBHOOK_LEASE_MS });
        for (const claim of fresh.claimed) this.launch(claim);
        free -= fresh.claimed.length;
        if (fresh.claimed.length < fresh.deliveries) this.claimBacklog = true;
        // Then the due ones (retries, deliveries fanned out past the free slots, expired leases, another process's
        // fan-out): at once while there may be a backlog, else once per poll interval, not on every wake-up.
        const backlog = this.claimBacklog || Date.now() - this.lastClaimAt >= config.WEBHOOK_POLL_INTERVAL_MS;
        let claimedAll = false;
        if (free > 0 && backlog) {
          const claimed = await this.claim(free);
          for (const claim of claimed) this.launch(claim);
          this.lastClaimAt = Date.now();
          this.claimBacklog = claimedAll = claimed.length === free;
        }
        this.startRecording();
        // Another pass at once while events or due deliveries may be waiting and a slot is free to send them; with
        // every slot taken, the loop waits for attempts to finish (they wake it when half the slots are free).
        busy = fresh.events > 0 || (claimedAll && this.freeSlots() > 0);
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

  /**
   * Sending slots free: WEBHOOK_CONCURRENCY less the attempts in flight, and less the results waiting to be recorded
   * beyond one batch's worth (if recording falls behind, claiming slows down with it, leases stay far from expiring).
   */
  private freeSlots(): number {
    const concurrency = this.platform.config.WEBHOOK_CONCURRENCY;
    const unrecorded = this.results.length + this.recordingCount;
    return Math.max(0, concurrency - this.inFlight.size - Math.max(0, unrecorded - concurrency));
  }

  private claim(limit: number): Promise<ClaimedDelivery[]> {
    const { db, dialect, clock, config } = this.platform;
    return claimDueDeliveries(db, dialect, clock.now(), limit, config.WEBHOOK_LEASE_MS);
  }

  private launch(claim: ClaimedDelivery): void {
    const task = this.attempt(claim).then((result) => {
      this.results.push(result);
      this.inFlight.delete(task);
      // Recorded in batches (each is a write transaction: on SQLite it holds the one write lock) by the loop's next
      // pass, or here once a batch has gathered or nothing else is in flight.
      if (this.results.length >= RECORD_BATCH || this.inFlight.size === 0) this.startRecording();
      // Wake the loop for a batch of free slots, not for every attempt: each pass costs a few statements whatever its size.
      const concurrency = this.platform.config.WEBHOOK_CONCURRENCY;
      if (this.inFlight.size <= concurrency / 2) this.signal();
    });
    this.inFlight.add(task);
  }

  /** Records the waiting results beside the loop, one batch at a time; the next batch starts when one ends. */
  private startRecording(): void {
    if (this.recording || this.results.length === 0) return;
    this.recordingCount = this.results.length;
    const heldBack = this.freeSlots() === 0;
    this.recording = this.flush().finally(() => {
      this.recording = undefined;
      this.recordingCount = 0;
      // Slots held back for unrecorded results are free again.
      if (heldBack) this.signal();
      if (!this.stopped && (this.results.length >= RECORD_BATCH || this.inFlight.size === 0)) this.startRecording();
    });
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
    return deliver(claim, { db, secrets, clock, send: this.send, allowLoopback: webhookAddressPolicy(config).allowLoopback, timeoutMs: config.WEBHOOK_TIMEOUT_MS });
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
