import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Polls one piece of server state while its host is on the page: runs `task` with an AbortSignal,
 * waits `intervalMs` after each answer (never overlapping), stops when the host leaves or `stop()`
 * is called. `now()` asks again at once (after the user did something). The last error is kept
 * for the host to show; polling goes on (the next answer clears it).
 */
export class Poller implements ReactiveController {
  error: Error | undefined;
  private active = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private controller: AbortController | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly task: (signal: AbortSignal) => Promise<void>,
    private readonly intervalMs: number,
  ) {
    host.addController(this);
  }

  start(): void {
    this.active = true;
    this.now();
  }

  stop(): void {
    this.active = false;
    clearTimeout(this.timer);
    this.controller?.abort();
  }

  now(): void {
    if (!this.active) return;
    clearTimeout(this.timer);
    this.controller?.abort();
    void this.tick();
  }

  private async tick(): Promise<void> {
    const controller = (this.controller = new AbortController());
    try {
      await this.task(controller.signal);
      if (!controller.signal.aborted) this.error = undefined;
    } catch (error) {
      if (controller.signal.aborted) return;
      this.error = error as Error;
    }
    if (controller.signal.aborted) return;
    this.host.requestUpdate();
    if (this.active) this.timer = setTimeout(() => void this.tick(), this.intervalMs);
  }

  hostConnected(): void {
    if (this.active) this.now();
  }

  hostDisconnected(): void {
    clearTimeout(this.timer);
    this.controller?.abort();
  }
}
