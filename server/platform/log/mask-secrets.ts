/**
 * The one masking function every log line goes through (the platform's logger applies it to each
 * line it writes; the request log also applies it to the path before logging). What it hides:
 *
 * - credentials and bearer references, wherever they appear (path, query, message, error text):
 *   checkout-session tokens `cs_test_…`/`cs_live_…`, meeting keys `mk_…`, API secret keys `sk_…`,
 *   webhook signing secrets `whsec_…`, rail mandate and charge references `mdt_…`/`chg_…` and rail
 *   authorisation codes `AUTH_…` (the rail's GET/POST routes take the reference as the credential);
 *   each keeps its prefix and last 4 characters so a line can still be matched to a record:
 *   `cs_test_****Ab12`. Public keys `pk_…` are not secret and stay;
 * - `Bearer …` / `CheckoutSession …` credentials after the scheme word;
 * - the values of query parameters that carry signatures, tokens, codes or personal data
 *   (`signature` of offer-letter, prescription and file links, `token`, `code`, `reference`, `phone`, …);
 * - any standalone run of exactly 11 digits (a BVN, a NIN, a national phone number).
 *
 * Masking is idempotent (a masked value is never masked again) and leaves other text as it is.
 * New secret formats (a real provider's references) are added to `PREFIXED` below, with a row in
 * test/unit/mask-secrets.test.ts.
 */

/** Prefixes of secret tokens, and the characters their random part is made of. */
const PREFIXED: Array<[prefix: string, body: string]> = [
  ['cs_(?:test|live)_', '[A-Za-z0-9]'],
  ['sk_(?:test|live)_', '[A-Za-z0-9]'],
  ['mk_', '[A-Za-z0-9]'],
  ['whsec_', '[A-Za-z0-9_-]'],
  ['mdt_', '[A-Za-z0-9]'],
  ['chg_', '[A-Za-z0-9]'],
  ['AUTH_', '[A-Za-z0-9]'],
];

const TOKEN = new RegExp(`(?<![A-Za-z0-9])(${PREFIXED.map(([prefix, body]) => `${prefix}${body}{8,}`).join('|')})`, 'g');
const TOKEN_PREFIX = new RegExp(`^(${PREFIXED.map(([prefix]) => prefix).join('|')})`);

/** Query parameters whose values are never logged. */
const SECRET_PARAMS = [
  'signature', 'sig', 'token', 'access_token', 'key', 'api_key', 'apikey', 'secret', 'password', 'code', 'otp',
  'reference', 'trxref', 'authorization_code', 'bvn', 'nin', 'phone', 'email',
];
const QUERY_VALUE = new RegExp(`([?&;](?:${SECRET_PARAMS.join('|')})=)([^&#\\s"'<>]+)`, 'gi');

const SCHEME_CREDENTIAL = /\b(Bearer|CheckoutSession)\s+(?!\*)([^\s"',;]+)/g;

const ELEVEN_DIGITS = /(?<![A-Za-z0-9])\d{11}(?![A-Za-z0-9])/g;

export const DIGITS_MASK = '***********';

function maskToken(token: string): string {
  const prefix = TOKEN_PREFIX.exec(token)?.[1] ?? '';
  return `${prefix}****${token.slice(-4)}`;
}

/** `text` with every secret token, credential, secret query value and 11-digit run masked. */
export function maskSecrets(text: string): string {
  return text
    .replace(TOKEN, maskToken)
    .replace(SCHEME_CREDENTIAL, (_all, scheme: string) => `${scheme} ***`)
    .replace(QUERY_VALUE, (_all, name: string) => `${name}***`)
    .replace(ELEVEN_DIGITS, DIGITS_MASK);
}

function maskValue(value: unknown): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  if (Array.isArray(value)) return value.map(maskValue);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskValue(v);
    return out;
  }
  return value;
}

/**
 * One serialised log line (pino's JSON) with every string value masked. Numbers stay numbers (an
 * amount in kobo is not a BVN) and the line stays valid JSON; a line that is not JSON is masked as text.
 */
export function maskLogLine(line: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return maskSecrets(line);
  }
  const masked = JSON.stringify(maskValue(parsed));
  return line.endsWith('\n') ? `${masked}\n` : masked;
}
