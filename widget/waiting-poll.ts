import type { ReactiveController, ReactiveElement } from 'lit';

/** Seconds between reads of the state while waiting for the lender: quick at first, then backing off to once a minute. */
export const WAITING_POLL_SECONDS = [10, 10, 15, 15, 20, 30, 45, 60] as const;

/**
 * While the borrower waits for the lender, reads the checkout state again on a backing-off
 * schedule, only while the page is visible, and at once when it becomes visible again; the
 * checkout moves on by itself when the lender issues the offer.
 */
export class WaitingPoll implements ReactiveController {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private round = 0;
  private active = false;

  constructor(
    private readonly host: ReactiveElement,
    private readonly poll: () => Promise<void>,
  ) {
    host.addController(this);
  }

  set waiting(on: boolean) {
    if (on === this.active) return;
    this.active = on;
    this.round = 0;
    clearTimeout(this.timer);
    if (on) this.schedule();
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.onVisible);
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.onVisible);
    this.waiting = false;
  }

  private schedule() {
    const seconds = WAITING_POLL_SECONDS[Math.min(this.round, WAITING_POLL_SECONDS.length - 1)]!;
    this.round += 1;
    this.timer = setTimeout(() => void this.tick(), seconds * 1000);
  }

  private async tick() {
    if (!this.active) return;
    if (document.visibilityState === 'visible') await this.poll();
    if (this.active) this.schedule();
  }

  private readonly onVisible = () => {
    if (!this.active || document.visibilityState !== 'visible') return;
    clearTimeout(this.timer);
    void this.tick();
  };
}
