import { DashboardApi } from '../api';

/** The console's one HTTP client: the dashboard's client on `/ops/api` (session cookie, CSRF token, error codes). */
export const opsApi = new DashboardApi('/ops/api');
