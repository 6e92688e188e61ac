/** The provider's closed set of error codes and the HTTP status each answers with. */
export const RAIL_PROVIDER_ERRORS = {
  /** A field is missing or malformed; the message names it. */
  invalid_request: 400,
  /** The body is not valid JSON. */
  invalid_json: 400,
  /** No such rail, authorisation, charge or route. */
  not_found: 404,
  /** The body is larger than the provider accepts. */
  payload_too_large: 413,
  /** The body is not `application/json` (or a form, on the authorisation page). */
  unsupported_media_type: 415,
  /** The reference was used before with other details. */
  reference_conflict: 409,
  /** The borrower already gave the other answer, or the authorisation was cancelled. */
  authorisation_already_decided: 409,
  /** The authorisation behind the code is not `active` (not yet confirmed, refused or cancelled). */
  authorisation_not_active: 409,
  /** No authorisation on this rail has this code. */
  authorization_code_invalid: 422,
} as const;

export type RailProviderErrorCode = keyof typeof RAIL_PROVIDER_ERRORS;

/** A refusal by the sandbox provider; answered as `{error, message}` with the code's status. */
export class RailProviderError extends Error {
  override readonly name = 'RailProviderError';
  readonly status: number;
  constructor(readonly code: RailProviderErrorCode, message: string) {
    super(message);
    this.status = RAIL_PROVIDER_ERRORS[code];
  }
}
