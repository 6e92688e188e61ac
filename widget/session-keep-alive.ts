import type { ReactiveController, ReactiveElement } from 'lit';
import type { SessionTimes } from './checkout-api';

/** How often a visible page slides the session, and how often the borrower's activity may (ms). */
export const KEEP_ALIVE = { intervalMs: 5 * 60_000, activityMs: 60_000 } as const;

const ACTIVITY = ['pointerdown', 'keydown', 'input'] as const;

/**
 * Keeps the checkout session alive while the page is open: it slides the session (`refresh`) when
 * the borrower does something on the page (at most once a minute), every 5 minutes while the page
 * is visible, and at once when the page becomes visible again (a phone woken up). The server never
 * moves the expiry past the session's cap (12 hours by default); once there, this stops. A failed
 * refresh is left to the next one, and an ended session is reported by the API client itself.
 */
export class SessionKeepAlive implements ReactiveController {
  private timer: ReturnType<typeof setInterval> | undefined;
  private last = 0;
  private inFlight = false;
  private capped = false;
  private active = false;

  constructor(
    private readonly host: ReactiveElement,
    private readonly refresh: () => Promise<SessionTimes>,
  ) {
    host.addController(this);
  }

  /** Only while the checkout shows a live session. */
  set enabled(on: boolean) {
    if (on === this.active) return;
    this.active = on;
    if (on) {
      this.last = Date.now();
      this.timer = setInterval(() => this.slide(false), KEEP_ALIVE.intervalMs);
    } else clearInterval(this.timer);
  }

  hostConnected(): void {
    for (const type of ACTIVITY) this.host.addEventListener(type, this.onActivity, { capture: true, passive: true });
    document.addEventListener('visibilitychange', this.onVisible);
  }

  hostDisconnected(): void {
    for (const type of ACTIVITY) this.host.removeEventListener(type, this.onActivity, { capture: true });
    document.removeEventListener('visibilitychange', this.onVisible);
    this.enabled = false;
  }

  private readonly onActivity = () => {
    if (Date.now() - this.last >= KEEP_ALIVE.activityMs) void this.slide(true);
  };

  private readonly onVisible = () => {
    if (document.visibilityState === 'visible') void this.slide(true);
  };

  private async slide(always: boolean): Promise<void> {
    if (!this.active || this.capped || this.inFlight) return;
    if (!always && document.visibilityState !== 'visible') return;
    this.inFlight = true;
    this.last = Date.now();
    try {
      const times = await this.refresh();
      if (times.expiresAt >= times.maxExpiresAt) {
        this.capped = true;
        this.enabled = false;
      }
    } catch {
      /* the next activity or tick tries again; an ended session is handled by the API client */
    } finally {
      this.inFlight = false;
    }
  }
}
