import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { CheckoutApiError } from './checkout-api';

export type ActionStatus = 'idle' | 'pending' | 'error' | 'done';

/**
 * One asynchronous step of a component (send a code, verify it…): its status, its error, and an
 * AbortSignal that is aborted when a newer run starts or the element leaves the page.
 */
export class AsyncAction<T> implements ReactiveController {
  status: ActionStatus = 'idle';
  error: CheckoutApiError | undefined;
  value: T | undefined;
  private controller: AbortController | undefined;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  async run(work: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    this.status = 'pending';
    this.error = undefined;
    this.host.requestUpdate();
    try {
      this.value = await work(controller.signal);
      if (controller.signal.aborted) return undefined;
      this.status = 'done';
      return this.value;
    } catch (error) {
      if (controller.signal.aborted) return undefined;
      this.status = 'error';
      this.error = error instanceof CheckoutApiError ? error : new CheckoutApiError(0, 'unexpected_error', 'Something went wrong. Please try again.');
      return undefined;
    } finally {
      if (!controller.signal.aborted) this.host.requestUpdate();
    }
  }

  /** Forgets the last result (its inputs changed); aborts a run in flight. */
  reset(): void {
    this.controller?.abort();
    this.status = 'idle';
    this.error = undefined;
    this.value = undefined;
    this.host.requestUpdate();
  }

  hostDisconnected(): void {
    this.controller?.abort();
  }
}
