import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Executor } from '../../db/database';
import { fromJson, toJson } from '../../db/database';
import type { Mode } from '../scope';
import { AppError } from '../errors';
import type { Scope } from '../scope';

/**
 * How an organisation embeds the checkout, per mode:
 * - `allowedOrigins`: the web origins that may embed `<lc-checkout>` and receive its events by
 *   `postMessage` (the target origin is always one of these, and messages coming in from any
 *   other origin are dropped);
 * - `returnUrl`: where the hosted page sends the borrower when the checkout ends, with only opaque
 *   ids and the outcome added to the query string (an https URL or an app's custom scheme);
 * - the branding (`CheckoutBranding`): the lender's public face on the checkout, shown before the
 *   OTP, so nothing in it may be personal.
 */
export interface CheckoutSettings extends CheckoutBranding {
  allowedOrigins: string[];
  returnUrl: string | null;
  updatedAt: string | null;
}

/** The branding fields and `CheckoutBranding` (what the checkout shows of the lender) are the checkout contract's. */
export { BRANDING_FIELDS, type CheckoutBranding } from '../../../shared/checkout-contract';
import { BRANDING_FIELDS, type CheckoutBranding } from '../../../shared/checkout-contract';
type BrandingField = (typeof BRANDING_FIELDS)[number];

export type CheckoutSettingsChanges = { allowedOrigins?: string[]; returnUrl?: string | null } & Partial<CheckoutBranding>;

export const MAX_ALLOWED_ORIGINS = 10;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Schemes that would run code or read local data where a return URL is opened. */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:', 'filesystem:', 'ws:', 'wss:', 'ftp:']);

/** A DNS name or an IP literal: URL parsing alone lets `*` and other oddities through as host names. */
const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$|^\[[0-9a-f:.]+\]$/;

const NO_BRANDING = Object.fromEntries(BRANDING_FIELDS.map((f) => [f, null])) as CheckoutBranding;
const EMPTY: CheckoutSettings = { allowedOrigins: [], returnUrl: null, ...NO_BRANDING, updatedAt: null };

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

/** A web page or image the borrower's browser loads or opens: https (http on loopback in test mode), no credentials. */
function checkWebUrl(field: BrandingField, value: string, mode: Mode): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError('invalid_request', `${field}: not an absolute URL (expected https://…)`);
  }
  if (url.username || url.password) throw new AppError('invalid_request', `${field}: must not carry credentials`);
  if (!HOSTNAME.test(url.hostname) || !httpAllowed(url, mode)) {
    throw new AppError('invalid_request', `${field}: must be an https URL (plain http only for localhost in test mode)`);
  }
  return url.href;
}

const BRAND_COLOR = /^#[0-9a-f]{6}$/i;
const EMAIL = /^[^\s@<>()"',;:]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i;
/** Letters, digits, spaces and ordinary punctuation: no control characters or markup. */
const DISPLAY_NAME = /^[\p{L}\p{M}\p{N} &'’.,()+\-/!]+$/u;

/** One branding value, checked and normalised (a colour in lower case, a phone in international format). */
export function checkBrandingValue(field: BrandingField, raw: string, mode: Mode): string {
  const value = raw.trim();
  switch (field) {
    case 'displayName':
      if (value.length < 1 || value.length > 80 || !DISPLAY_NAME.test(value)) throw new AppError('invalid_request', 'displayName: 1 to 80 letters, digits, spaces and ordinary punctuation');
      return value;
    case 'brandColor':
      if (!BRAND_COLOR.test(value)) throw new AppError('invalid_request', `brandColor: "${value}" is not a #rrggbb colour`);
      return value.toLowerCase();
    case 'supportEmail':
      if (value.length > 150 || !EMAIL.test(value)) throw new AppError('invalid_request', 'supportEmail: not an e-mail address');
      return value;
    case 'supportPhone': {
      // Nigerian numbers may be written nationally (0…); landlines and short-code-free service lines are fine.
      const parsed = /^[+\d][\d\s()-]{4,24}$/.test(value) ? parsePhoneNumberFromString(value, 'NG') : undefined;
      if (!parsed?.isPossible()) throw new AppError('invalid_request', 'supportPhone: not a phone number (e.g. +234 1 234 5678 or 0800 123 4567)');
      return parsed.formatInternational();
    }
    default:
      return checkWebUrl(field, value, mode);
  }
}

type SettingsRow = { allowedOrigins: unknown; returnUrl: string | null; updatedAt: string } & CheckoutBranding;

function toSettings(row: SettingsRow | undefined): CheckoutSettings {
  if (!row) return { ...EMPTY };
  const branding = Object.fromEntries(BRANDING_FIELDS.map((f) => [f, row[f]])) as CheckoutBranding;
  return { allowedOrigins: fromJson<string[]>(row.allowedOrigins) ?? [], returnUrl: row.returnUrl, ...branding, updatedAt: row.updatedAt };
}

export async function getCheckoutSettings(db: Executor, scope: Scope): Promise<CheckoutSettings> {
  const row = await db
    .selectFrom('checkoutSettings')
    .select(['allowedOrigins', 'returnUrl', 'updatedAt', ...BRANDING_FIELDS])
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .executeTakeFirst();
  return toSettings(row);
}

/** Changes what is given (a list replaces the list; `returnUrl: null` removes it); one upsert, so two writers never lose the row. */
export async function updateCheckoutSettings(
  db: Executor,
  scope: Scope,
  changes: CheckoutSettingsChanges,
  now: Date,
): Promise<CheckoutSettings> {
  const origins = changes.allowedOrigins && [...new Set(changes.allowedOrigins.map((o) => checkOrigin(o, scope.mode)))];
  if (origins && origins.length > MAX_ALLOWED_ORIGINS) throw new AppError('invalid_request', `allowedOrigins: at most ${MAX_ALLOWED_ORIGINS} origins`);
  const returnUrl = changes.returnUrl && checkReturnUrl(changes.returnUrl, scope.mode);
  // Every value is checked before anything is written: one bad field changes nothing.
  const branding: Partial<CheckoutBranding> = {};
  for (const field of BRANDING_FIELDS) {
    const value = changes[field];
    if (value !== undefined) branding[field] = value === null ? null : checkBrandingValue(field, value, scope.mode);
  }
  const current = await getCheckoutSettings(db, scope);
  const at = now.toISOString();
  const next = {
    allowedOrigins: toJson(origins ?? current.allowedOrigins)!,
    returnUrl: changes.returnUrl === undefined ? current.returnUrl : (returnUrl ?? null),
    ...Object.fromEntries(BRANDING_FIELDS.map((f) => [f, current[f]])),
    ...branding,
    updatedAt: at,
  };
  await db
    .insertInto('checkoutSettings')
    .values({ organisationId: scope.organisationId, mode: scope.mode, ...next, createdAt: at })
    .onConflict((oc) => oc.columns(['organisationId', 'mode']).doUpdateSet(next))
    .execute();
  return getCheckoutSettings(db, scope);
}
