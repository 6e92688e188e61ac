import type { ReactiveController, ReactiveElement } from 'lit';
import type { SessionTimes } from './checkout-api';

/**
 * When the page slides its session (ms): on activity at most once a minute; while the page is
 * visible, at half the session's remaining lifetime, never more often than every 5 s nor less
 * often than every 5 minutes (a 30-minute session: every 5 minutes; a 1-minute one: every 30 s).
 */
export const KEEP_ALIVE = { activityMs: 60_000, intervalMs: 5 * 60_000, floorMs: 5_000 } as const;
/** Seconds between reads of the state while waiting for the lender: quick at first, then backing off to once a minute. */
export const WAITING_POLL_SECONDS = [10, 10, 15, 15, 20, 30, 45, 60] as const;

/** The wait until the next keep-alive for a session with `expiresInSeconds` left (unknown: the 5-minute ceiling). */
export function keepAliveDelay(expiresInSeconds: number | undefined): number {
  if (expiresInSeconds === undefined || !Number.isFinite(expiresInSeconds)) return KEEP_ALIVE.intervalMs;
  return Math.min(KEEP_ALIVE.intervalMs, Math.max(KEEP_ALIVE.floorMs, (expiresInSeconds * 1000) / 2));
}

/**
 * Keeps an open checkout alive and current:
 * - `live`: the session slides (`slide`) when the borrower does something on the page, at half its
 *   remaining lifetime while the page is visible (`keepAliveDelay`: the server says how long is
 *   left, with every state read and every slide, so the browser's own clock does not matter), and at
 *   once when the page becomes visible again (a phone woken up). The server never moves it past the
 *   session's cap; once there, this stops.
 * - `waiting` (for the lender): as `live`, and the state is read again (`poll`) on a backing-off
 *   schedule while the page is visible, so the page moves on by itself when the offer is issued.
 * A failed call is left to the next one; an ended session is reported by the API client itself.
 */
export class SessionLiveness implements ReactiveController {
  private mode: 'off' | 'live' | 'waiting' = 'off';
  private keepAliveTimer: ReturnType<typeof setTimeout> | undefined;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  private round = 0;
  private last = 0;
  private every: number = KEEP_ALIVE.intervalMs;
  private capped = false;

  constructor(
    private readonly host: ReactiveElement,
    private readonly slide: () => Promise<SessionTimes>,
    private readonly poll: () => Promise<void>,
  ) {
    host.addController(this);
  }

  set state(mode: 'off' | 'live' | 'waiting') {
    if (mode === this.mode) return;
    const was = this.mode;
    this.mode = mode;
    this.round = 0;
    if (was === 'off') {
      this.last = Date.now();
      this.planKeepAlive();
    }
    if (mode === 'off') clearTimeout(this.keepAliveTimer);
    this.planPoll();
  }

  /** The session's remaining lifetime as the server last gave it (a state read): the next keep-alive comes within half of it. */
  expiresIn(seconds: number | undefined): void {
    this.every = keepAliveDelay(seconds);
    this.planKeepAlive();
  }

  hostConnected(): void {
    for (const type of ['pointerdown', 'keydown', 'input']) this.host.addEventListener(type, this.onActivity, { capture: true, passive: true });
    document.addEventListener('visibilitychange', this.onVisible);
  }

  hostDisconnected(): void {
    for (const type of ['pointerdown', 'keydown', 'input']) this.host.removeEventListener(type, this.onActivity, { capture: true });
    document.removeEventListener('visibilitychange', this.onVisible);
    this.state = 'off';
  }

  private planKeepAlive() {
    clearTimeout(this.keepAliveTimer);
    if (this.mode === 'off' || this.capped) return;
    // Hidden: nothing slides; becoming visible slides at once.
    this.keepAliveTimer = setTimeout(() => void (document.visibilityState === 'visible' && this.keepAlive()), this.every);
  }

  private planPoll() {
    clearTimeout(this.pollTimer);
    if (this.mode !== 'waiting') return;
    const ms = WAITING_POLL_SECONDS[Math.min(this.round++, WAITING_POLL_SECONDS.length - 1)]! * 1000;
    this.pollTimer = setTimeout(() => void this.pollTick(), ms);
  }

  private async pollTick() {
    if (this.mode === 'waiting' && document.visibilityState === 'visible') await this.poll();
    this.planPoll();
  }

  private async keepAlive() {
    if (this.mode === 'off' || this.capped) return;
    this.last = Date.now();
    try {
      const times = await this.slide();
      this.capped = times.expiresAt >= times.maxExpiresAt;
      this.every = keepAliveDelay(times.expiresInSeconds);
    } catch {
      /* the next activity or keep-alive tries again */
    }
    this.planKeepAlive();
  }

  private readonly onActivity = () => {
    if (Date.now() - this.last >= Math.min(KEEP_ALIVE.activityMs, this.every)) void this.keepAlive();
  };

  private readonly onVisible = () => {
    if (this.mode !== 'off' && document.visibilityState === 'visible') {
      void this.keepAlive();
      if (this.mode === 'waiting') void this.pollTick();
    }
  };
}
