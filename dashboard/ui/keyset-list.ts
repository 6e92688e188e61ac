import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { api, DashboardApiError, type DashboardApi } from '../api';

type Query = Record<string, string | number | boolean | undefined | null>;

/**
 * One keyset-paged list of a page (loans, appointments, the audit log…): its rows, the cursor of the next page, what
 * is loading (`first`: a new list, e.g. after a filter; `more`: the next page under the rows), and the server's
 * message when a load failed. A newer load aborts the one in flight, so a slow answer to an old filter never
 * replaces the answer to the new one; leaving the page aborts too.
 *
 * `private list = new KeysetList<LoanRow>(this, { path: '/loans', limit: 50, failure: 'The loans could not be loaded.', query: () => this.applied });`
 */
export class KeysetList<T> implements ReactiveController {
  rows: T[] = [];
  nextCursor: string | null = null;
  loading: '' | 'first' | 'more' = '';
  error = '';
  private controller: AbortController | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: { path: string; limit?: number; failure: string; /** Another API than the dashboard's (the operations console's). */ client?: DashboardApi; /** The filters, as query parameters (strings, numbers, booleans; empty ones are left out). */ query?: () => object },
  ) {
    host.addController(this);
  }

  /** The first page again (`more` false: the rows are replaced) or the next one (appended). */
  async load(more = false): Promise<void> {
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    this.loading = more ? 'more' : 'first';
    this.error = '';
    this.host.requestUpdate();
    try {
      const page = await (this.options.client ?? api).page<T>(this.options.path, { ...(this.options.query?.() as Query | undefined), limit: this.options.limit ?? 50, cursor: more ? this.nextCursor : undefined }, controller.signal);
      if (controller.signal.aborted) return;
      this.rows = more ? [...this.rows, ...page.data] : page.data;
      this.nextCursor = page.nextCursor;
    } catch (error) {
      if (controller.signal.aborted || (error as Error).name === 'AbortError') return;
      this.error = error instanceof DashboardApiError ? error.message : this.options.failure;
      if (!more) {
        this.rows = [];
        this.nextCursor = null;
      }
    }
    this.loading = '';
    this.host.requestUpdate();
  }

  hostDisconnected(): void {
    this.controller?.abort();
  }
}
