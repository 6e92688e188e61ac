/** The demo page's typed client for the demo server's JSON routes (`/demo/api`). No key ever passes here. */

/** The server's own types, imported as types only: nothing of the server is bundled into the page. */
export type { ScenarioId } from '../server/scenarios';
export type { DemoAction, DemoEvent, DemoRun } from '../server/demo-runs';
import type { ScenarioId } from '../server/scenarios';
import type { DemoAction, DemoEvent, DemoRun } from '../server/demo-runs';

/** A scenario as the page lists it (the server keeps the borrower it plays to itself). */
export interface Scenario {
  id: ScenarioId;
  title: string;
  summary: string;
}

export interface SmsMessage {
  id: string;
  from: string;
  body: string;
  sentAt: string;
}

/** A refusal or failure from the demo server, with its machine-readable code. */
export class DemoApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class DemoApi {
  constructor(private readonly base: string) {}

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        signal,
        headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new DemoApiError(0, 'network_error', 'The demo server could not be reached. Check the service is running, then try again.');
    }
    const envelope = (await res.json().catch(() => ({}))) as { data?: T; message?: string; error?: string };
    if (!res.ok) throw new DemoApiError(res.status, envelope.error ?? 'unexpected_error', envelope.message ?? `The demo server answered ${res.status}.`);
    return envelope.data as T;
  }

  scenarios = (signal?: AbortSignal) => this.call<Scenario[]>('GET', '/scenarios', undefined, signal);
  start = (scenario: ScenarioId) => this.call<DemoRun>('POST', '/runs', { scenario });
  run = (id: string, signal?: AbortSignal) => this.call<DemoRun>('GET', `/runs/${encodeURIComponent(id)}`, undefined, signal);
  events = (id: string, after: string | null, signal?: AbortSignal) =>
    this.call<{ events: DemoEvent[]; cursor: string | null }>('GET', `/runs/${encodeURIComponent(id)}/events${after ? `?after=${encodeURIComponent(after)}` : ''}`, undefined, signal);
  sms = (id: string, signal?: AbortSignal) => this.call<{ messages: SmsMessage[] }>('GET', `/runs/${encodeURIComponent(id)}/sms`, undefined, signal);
  act = (id: string, action: DemoAction) => this.call<DemoRun>('POST', `/runs/${encodeURIComponent(id)}/actions/${action}`, {});
}
