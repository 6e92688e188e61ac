import type { ReactiveController, ReactiveElement } from 'lit';
import type { SessionTimes } from './checkout-api';

/** Slide the session at most once a minute on activity, and every 5 minutes while the page is visible (ms). */
export const KEEP_ALIVE = { activityMs: 60_000, intervalMs: 5 * 60_000 } as const;
/** Seconds between reads of the state while waiting for the lender: quick at first, then backing off to once a minute. */
export const WAITING_POLL_SECONDS = [10, 10, 15, 15, 20, 30, 45, 60] as const;

/**
 * Keeps an open checkout alive and current:
 * - `live`: the session slides (`slide`) when the borrower does something on the page (at most once
 *   a minute), every 5 minutes while the page is visible, and at once when it becomes visible again
 *   (a phone woken up). The server never moves it past the session's cap; once there, this stops.
 * - `waiting` (for the lender): as `live`, and the state is read again (`poll`) on a backing-off
 *   schedule while the page is visible, so the page moves on by itself when the offer is issued.
 * A failed call is left to the next one; an ended session is reported by the API client itself.
 */
export class SessionLiveness implements ReactiveController {
  private mode: 'off' | 'live' | 'waiting' = 'off';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private round = 0;
  private last = 0;
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
    if (this.mode === 'off') this.last = Date.now();
    this.mode = mode;
    this.round = 0;
    this.schedule();
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

  private schedule() {
    clearTimeout(this.timer);
    if (this.mode === 'off') return;
    const ms = this.mode === 'waiting' ? WAITING_POLL_SECONDS[Math.min(this.round++, WAITING_POLL_SECONDS.length - 1)]! * 1000 : KEEP_ALIVE.intervalMs;
    this.timer = setTimeout(() => void this.tick(), ms);
  }

  private async tick() {
    if (document.visibilityState === 'visible') {
      if (this.mode === 'waiting') await this.poll();
      if (Date.now() - this.last >= KEEP_ALIVE.intervalMs) await this.keepAlive();
    }
    this.schedule();
  }

  private async keepAlive() {
    if (this.mode === 'off' || this.capped) return;
    this.last = Date.now();
    try {
      const times = await this.slide();
      this.capped = times.expiresAt >= times.maxExpiresAt;
    } catch {
      /* the next activity or tick tries again */
    }
  }

  private readonly onActivity = () => {
    if (Date.now() - this.last >= KEEP_ALIVE.activityMs) void this.keepAlive();
  };

  private readonly onVisible = () => {
    if (this.mode !== 'off' && document.visibilityState === 'visible') {
      void this.keepAlive();
      if (this.mode === 'waiting') void this.tick();
    }
  };
}
