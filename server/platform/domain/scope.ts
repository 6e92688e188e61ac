import type { Mode } from '../db/schema';

/**
 * The tenant every domain call runs for: an organisation and a mode, taken from the credential
 * (API key, checkout session, meeting link), never from the request body. Test and live data of
 * one organisation never meet: every read and write is scoped by both. (`Mode` is the column type
 * the database declares; the domain and the adapters take it from here.)
 */
export type { Mode };
export type Scope = { organisationId: string; mode: Mode };
