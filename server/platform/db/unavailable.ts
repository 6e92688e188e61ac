/**
 * Whether an error means the database could not be reached or dropped the connection (PostgreSQL
 * restarting, shutting down, refusing connections, a socket cut mid-query), as opposed to a bug or
 * a refused statement. Such a request is answered 503 with Retry-After, not 500: nothing it did
 * committed (its transaction went with the connection), so the same request may be sent again.
 */
const UNAVAILABLE_CODES = new Set([
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections.
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // Node sockets.
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);

const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'the database system is starting up',
  'the database system is shutting down',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((m) => (e.message as string).includes(m))) return true;
  // `AggregateError` from a connect attempt to several addresses (localhost: ::1 and 127.0.0.1).
  return Array.isArray(e.errors) && e.errors.some(isDatabaseUnavailable);
}

/**
 * PostgreSQL errors that say "try the transaction again": serialization_failure, deadlock_detected, lock_not_available
 * (a lock timeout), query_canceled (a statement timeout). Nothing of the failed transaction committed.
 */
const RETRYABLE_CODES = new Set(['40001', '40P01', '55P03', '57014']);

/** Whether a transaction failed for a passing reason (the database unavailable, or a retryable conflict): running it again may succeed. */
export function isTransientDatabaseError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return isDatabaseUnavailable(error) || (typeof code === 'string' && RETRYABLE_CODES.has(code));
}
