import type { Platform } from '../platform/platform';
import { onOutboxCommitted } from '../platform/domain/events/outbox-signal';
import {
  claimDueDeliveries,
  endExpiredLastAttempts,
  fanOutEvents,
  recordAttempts,
  type AttemptOutcome,
  type AttemptResult,
  type ClaimedDelivery,
  type DisabledEndpoint,
} from '../platform/domain/webhooks/deliveries';
import { signingSecrets } from '../platform/domain/webhooks/endpoint';
import { retryDelayMs } from '../platform/domain/webhooks/retry-schedule';
import { signatureHeaders } from '../platform/domain/webhooks/signature';
import { sendWebhook, type SendWebhook } from '../integrations/webhooks/send-webhook';
import { SDK_EVENT_HEADER, SDK_SIGNATURE_HEADER, sdkSigningKey, signSdkBody } from '../platform/domain/financing/sdk-webhooks';
import { publicSdkData } from '../platform/domain/financing/financing-events';

export interface DispatcherOptions {
  /** The HTTP sender (tests may wrap it to observe attempts). */
  send?: SendWebhook;
  /** Jitter source in [0, 1). */
  random?: () => number;
}

/** Headers every delivery carries besides the signature pair. */
export const DELIVERY_HEADERS = {
  eventId: 'X-Service-Event-Id',
  deliveryId: 'X-Service-Delivery-Id',
  attempt: 'X-Service-Delivery-Attempt',
} as const;

/**
 * The webhook dispatcher: fans new outbox events out to delivery rows, claims due deliveries
 * under a lease, sends them (at most WEBHOOK_CONCURRENCY at once) and records each attempt.
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

  /** Builds the signed request and sends it; an endpoint that is gone or disabled is not sent to. */
  private async attempt(claim: ClaimedDelivery): Promise<AttemptResult> {
    const { endpoint, delivery } = claim;
    if (!endpoint) return { claim, outcome: { notSent: true, error: 'not sent: the endpoint was deleted' } };
    if (endpoint.status !== 'active') return { claim, outcome: { notSent: true, error: 'not sent: the endpoint is disabled' } };
    if (endpoint.api === 'sdk') return this.attemptSdk(claim);
    const { config, secrets, clock } = this.platform;
    const now = clock.now();
    const timestamp = Math.floor(now.getTime() / 1000);
    const body = JSON.stringify({
      id: delivery.eventId,
      event: delivery.event,
      timestamp: now.toISOString(),
      data: claim.payload,
      mode: delivery.mode,
      createdAt: claim.eventCreatedAt,
    });
    let outcome: AttemptOutcome;
    try {
      outcome = await this.send({
        url: endpoint.url,
        body,
        allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'LendingPlatform-Webhooks/1.0',
          [DELIVERY_HEADERS.eventId]: delivery.eventId,
          [DELIVERY_HEADERS.deliveryId]: delivery.id,
          [DELIVERY_HEADERS.attempt]: String(claim.attempt),
          ...signatureHeaders(signingSecrets(secrets, endpoint, now), timestamp, body),
        },
      });
    } catch (error) {
      outcome = { error: `not sent: ${(error as Error).message}` };
    }
    return { claim, outcome };
  }

  /**
   * A patient-financing delivery (spec B): body `{event, timestamp, data}`, `X-Service-Event`, and `X-Service-Signature`
   * = hex HMAC-SHA256 of the raw body keyed with the organisation's newest API secret key of the event's mode.
   */
  private async attemptSdk(claim: ClaimedDelivery): Promise<AttemptResult> {
    const { delivery, endpoint } = claim;
    const { config, secrets, clock, db } = this.platform;
    const secretKey = await sdkSigningKey(db, secrets, { organisationId: delivery.organisationId, mode: delivery.mode });
    if (!secretKey) {
      return { claim, outcome: { error: 'not sent: the organisation has no API key pair that can sign (create a new key pair)' } };
    }
    const body = JSON.stringify({ event: delivery.event, timestamp: clock.now().toISOString(), data: publicSdkData(claim.payload, secrets) });
    let outcome: AttemptOutcome;
    try {
      outcome = await this.send({
        url: endpoint!.url,
        body,
        allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'LendingPlatform-Webhooks/1.0',
          [SDK_EVENT_HEADER]: delivery.event,
          [SDK_SIGNATURE_HEADER]: signSdkBody(secretKey, body),
          [DELIVERY_HEADERS.eventId]: delivery.eventId,
          [DELIVERY_HEADERS.deliveryId]: delivery.id,
          [DELIVERY_HEADERS.attempt]: String(claim.attempt),
        },
      });
    } catch (error) {
      outcome = { error: `not sent: ${(error as Error).message}` };
    }
    return { claim, outcome };
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
    for (const endpoint of disabled) await this.notifyDisabled(endpoint);
  }

  /** E-mails the organisation that an endpoint was disabled (after the change committed). */
  private async notifyDisabled(endpoint: DisabledEndpoint): Promise<void> {
    const { db, logger, mailer } = this.platform;
    logger.warn({ endpointId: endpoint.endpointId, reason: endpoint.reason }, 'webhook endpoint disabled');
    const org = await db.selectFrom('organisations').select(['name', 'notificationEmail']).where('id', '=', endpoint.organisationId).executeTakeFirst();
    if (!org?.notificationEmail) {
      logger.warn({ organisationId: endpoint.organisationId }, 'no notification e-mail configured: the organisation was not told its endpoint is disabled');
      return;
    }
    const why =
      endpoint.reason === 'gone'
        ? 'it answered 410 Gone, which we take as "stop sending"'
        : `${endpoint.consecutiveFails} consecutive delivery attempts failed since ${endpoint.failingSince}`;
    try {
      await mailer.send({
        to: org.notificationEmail,
        subject: `Webhook endpoint disabled: ${endpoint.url}`,
        text: [
          `Hello ${org.name},`,
          '',
          `We disabled your ${endpoint.mode}-mode webhook endpoint ${endpoint.url} (id ${endpoint.endpointId}) because ${why}.`,
          `Last error: ${endpoint.lastError ?? 'none recorded'}`,
          '',
          'Events are not sent to a disabled endpoint. When it is fixed, re-enable it with',
          `PATCH /v1/webhook-endpoints/${endpoint.endpointId} {"status": "active"}`,
          'and replay what it missed from the event log (GET /v1/events, POST /v1/events/{id}/redeliver).',
        ].join('\n'),
      });
    } catch (error) {
      logger.error({ err: error, endpointId: endpoint.endpointId }, 'could not e-mail the organisation about its disabled endpoint');
    }
  }
}
