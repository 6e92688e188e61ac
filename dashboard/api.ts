/**
 * The dashboard's one HTTP client: same-origin JSON to `/dashboard/api`, the session cookie sent by the browser, the
 * CSRF token (from `GET /session` or sign-in) on every state-changing request, the chosen mode (`X-Dashboard-Mode`).
 * Never an API key. Errors become `DashboardApiError` carrying the server's machine-readable `error`.
 */
import { inFormWords } from './plain-words';

export type Mode = 'test' | 'live';

export class DashboardApiError extends Error {
  /** The server's message as it came (field code names and all), for a form to map onto its own labels (`fieldError`). */
  readonly serverMessage: string;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data?: unknown,
  ) {
    // What any page shows: never a field's code name (`inFormWords`).
    super(inFormWords(message));
    this.serverMessage = message;
  }
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

type Query = Record<string, string | number | boolean | undefined | null>;

const BASE = '/dashboard/api';
const MODE_KEY = 'dashboard-mode';

/** Also the operations console's client (`new DashboardApi('/ops/api')`): same envelope, cookie and CSRF rules. */
export class DashboardApi extends EventTarget {
  constructor(private readonly base = BASE) {
    super();
  }

  csrfToken: string | undefined;
  mode: Mode = (sessionStorage.getItem(MODE_KEY) as Mode | null) === 'live' ? 'live' : 'test';

  setMode(mode: Mode): void {
    this.mode = mode;
    sessionStorage.setItem(MODE_KEY, mode);
    this.dispatchEvent(new Event('mode-change'));
  }

  url(path: string, query?: Query): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
    const search = params.toString();
    return `${this.base}${path}${search ? `?${search}` : ''}`;
  }

  /** A link that downloads (CSV): the mode goes in the query, a plain link cannot send headers. */
  downloadUrl(path: string, query?: Query): string {
    return this.url(path, { ...query, mode: this.mode });
  }

  async request<T>(method: string, path: string, options: { body?: unknown; query?: Query; signal?: AbortSignal; page?: boolean } = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', 'x-dashboard-mode': this.mode };
    if (options.body !== undefined || method !== 'GET') headers['content-type'] = 'application/json';
    if (method !== 'GET' && this.csrfToken) headers['x-csrf-token'] = this.csrfToken;
    let response: Response;
    try {
      response = await fetch(this.url(path, options.query), {
        method,
        headers,
        credentials: 'same-origin',
        body: method === 'GET' ? undefined : JSON.stringify(options.body ?? {}),
        signal: options.signal,
      });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new DashboardApiError(0, 'network_error', 'We could not reach the server. Check your connection and try again.');
    }
    const body = (await response.json().catch(() => undefined)) as { data?: unknown; error?: string; message?: string; nextCursor?: string | null } | undefined;
    if (!response.ok) {
      const error = new DashboardApiError(response.status, body?.error ?? 'unexpected_error', body?.message ?? `The server answered ${response.status}.`, body?.data);
      // The session ended (idle, expired, signed out elsewhere): the shell shows the sign-in page.
      if (error.code === 'session_required') this.dispatchEvent(new Event('signed-out'));
      throw error;
    }
    if (options.page) return { data: body?.data ?? [], nextCursor: body?.nextCursor ?? null } as T;
    return body?.data as T;
  }

  /** One keyset page of a list (`?limit=&cursor=` plus filters); pass the previous `nextCursor` for the next one. */
  page<T>(path: string, query?: Query, signal?: AbortSignal): Promise<Page<T>> {
    return this.request<Page<T>>('GET', path, { query, signal, page: true });
  }

  get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<T> {
    return this.request<T>('GET', path, { query, signal });
  }
  post<T>(path: string, body: unknown = {}): Promise<T> {
    return this.request<T>('POST', path, { body });
  }
  patch<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('PATCH', path, { body });
  }
  delete<T>(path: string): Promise<T> {
    return this.request<T>('DELETE', path, { body: {} });
  }
}

/** The app's one client. */
export const api = new DashboardApi();
