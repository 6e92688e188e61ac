import type { Executor } from '../../db/database';
import { fromJson, toJson } from '../../db/database';
import type { Mode } from '../../db/schema';
import { AppError } from '../errors';

/**
 * How an organisation embeds the checkout, per mode:
 * - `allowedOrigins`: the web origins that may embed `<lc-checkout>` and receive its events by
 *   `postMessage` (the target origin is always one of these, and messages coming in from any
 *   other origin are dropped);
 * - `returnUrl`: where the hosted page sends the borrower when the checkout ends, with only opaque
 *   ids and the outcome added to the query string (an https URL or an app's custom scheme).
 */
export interface CheckoutSettings {
  allowedOrigins: string[];
  returnUrl: string | null;
  updatedAt: string | null;
}

export interface CheckoutSettingsChanges {
  allowedOrigins?: string[];
  returnUrl?: string | null;
}

export const MAX_ALLOWED_ORIGINS = 10;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Schemes that would run code or read local data where a return URL is opened. */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:', 'filesystem:', 'ws:', 'wss:', 'ftp:']);

/** A DNS name or an IP literal: URL parsing alone lets `*` and other oddities through as host names. */
const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$|^\[[0-9a-f:.]+\]$/;

const EMPTY: CheckoutSettings = { allowedOrigins: [], returnUrl: null, updatedAt: null };

/** Plain http only for loopback, and only in test mode (a developer's machine); live needs https. */
function httpAllowed(url: URL, mode: Mode): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && mode === 'test' && LOOPBACK.has(url.hostname));
}

/** An exact web origin (`https://shop.example` or `https://shop.example:8443`): no path, no trailing slash, no wildcard. */
export function checkOrigin(value: string, mode: Mode): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError('invalid_request', `allowedOrigins: "${value}" is not an origin (expected e.g. https://shop.example)`);
  }
  if (!HOSTNAME.test(url.hostname)) throw new AppError('invalid_request', `allowedOrigins: "${value}" has no valid host name (wildcards are not allowed: list each origin)`);
  if (url.origin !== value) throw new AppError('invalid_request', `allowedOrigins: "${value}" must be exactly an origin, e.g. ${url.origin === 'null' ? 'https://shop.example' : url.origin} (no path or trailing slash)`);
  if (!httpAllowed(url, mode)) throw new AppError('invalid_request', `allowedOrigins: "${value}" must use https (plain http only for localhost in test mode)`);
  return value;
}

/** An https URL (http on loopback in test mode) or an app's custom scheme (`myapp://checkout-done`). */
export function checkReturnUrl(value: string, mode: Mode): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError('invalid_request', 'returnUrl: not an absolute URL (expected https://… or yourapp://…)');
  }
  if (url.username || url.password) throw new AppError('invalid_request', 'returnUrl: must not carry credentials');
  if (FORBIDDEN_SCHEMES.has(url.protocol)) throw new AppError('invalid_request', `returnUrl: the ${url.protocol} scheme is not allowed`);
  if ((url.protocol === 'http:' || url.protocol === 'https:') && !httpAllowed(url, mode)) {
    throw new AppError('invalid_request', 'returnUrl: must use https (plain http only for localhost in test mode)');
  }
  return value;
}

function toSettings(row: { allowedOrigins: unknown; returnUrl: string | null; updatedAt: string } | undefined): CheckoutSettings {
  if (!row) return { ...EMPTY };
  return { allowedOrigins: fromJson<string[]>(row.allowedOrigins) ?? [], returnUrl: row.returnUrl, updatedAt: row.updatedAt };
}

export async function getCheckoutSettings(db: Executor, scope: { organisationId: string; mode: Mode }): Promise<CheckoutSettings> {
  const row = await db
    .selectFrom('checkoutSettings')
    .select(['allowedOrigins', 'returnUrl', 'updatedAt'])
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .executeTakeFirst();
  return toSettings(row);
}

/** Changes what is given (a list replaces the list; `returnUrl: null` removes it); one upsert, so two writers never lose the row. */
export async function updateCheckoutSettings(
  db: Executor,
  scope: { organisationId: string; mode: Mode },
  changes: CheckoutSettingsChanges,
  now: Date,
): Promise<CheckoutSettings> {
  const origins = changes.allowedOrigins && [...new Set(changes.allowedOrigins.map((o) => checkOrigin(o, scope.mode)))];
  if (origins && origins.length > MAX_ALLOWED_ORIGINS) throw new AppError('invalid_request', `allowedOrigins: at most ${MAX_ALLOWED_ORIGINS} origins`);
  const returnUrl = changes.returnUrl && checkReturnUrl(changes.returnUrl, scope.mode);
  const current = await getCheckoutSettings(db, scope);
  const at = now.toISOString();
  const next = {
    allowedOrigins: toJson(origins ?? current.allowedOrigins)!,
    returnUrl: changes.returnUrl === undefined ? current.returnUrl : (returnUrl ?? null),
    updatedAt: at,
  };
  await db
    .insertInto('checkoutSettings')
    .values({ organisationId: scope.organisationId, mode: scope.mode, ...next, createdAt: at })
    .onConflict((oc) => oc.columns(['organisationId', 'mode']).doUpdateSet(next))
    .execute();
  return getCheckoutSettings(db, scope);
}
