import { AppError } from '../errors';
import type { Mode } from '../scope';
import { BRANDING_FIELDS, checkBrandingValue, type CheckoutBranding } from './checkout-settings';
import type { CheckoutState } from './checkout-state';

/** The preview's ids: fixed, obviously not a loan's (the widget puts them in its public events). */
const PREVIEW_ID = '00000000-0000-4000-8000-000000000000';

/**
 * Draft branding for the dashboard's live preview, as the settings page sends it while the partner types:
 * every branding field, a value or null. Each value goes through the same check as a save (`checkBrandingValue`);
 * a value that would be refused is left out (the preview shows the field unset), and `rejected` names it, so the
 * preview never shows what a save would not keep.
 */
export function previewBranding(draft: unknown, mode: Mode): { branding: CheckoutBranding; rejected: string[] } {
  const given = draft && typeof draft === 'object' && !Array.isArray(draft) ? (draft as Record<string, unknown>) : {};
  const unknown = Object.keys(given).filter((key) => !(BRANDING_FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) throw new AppError('invalid_request', `draft: unknown field ${unknown[0]}`);
  const branding = Object.fromEntries(BRANDING_FIELDS.map((f) => [f, null])) as CheckoutBranding;
  const rejected: string[] = [];
  for (const field of BRANDING_FIELDS) {
    const value = given[field];
    if (typeof value !== 'string' || value.trim() === '') continue;
    try {
      branding[field] = checkBrandingValue(field, value.slice(0, 2000), mode);
    } catch {
      rejected.push(field);
    }
  }
  return { branding, rejected };
}

/**
 * The checkout state the preview's widget reads: the first screen a borrower sees (the phone-code step, before the
 * OTP), with the draft branding, the organisation's name and the mode's TEST MODE badge. A fixture, not a loan:
 * no borrower, no amounts, a made-up phone ending; nothing in it comes from the organisation's data but its name.
 */
export function previewCheckoutState(options: { organisationName: string; mode: Mode; branding: CheckoutBranding; securedBy: string; now: Date }): CheckoutState {
  const now = options.now.getTime();
  const at = (ms: number) => new Date(now + ms).toISOString();
  return {
    session: { id: PREVIEW_ID, loanId: PREVIEW_ID, source: 'partner', expiresAt: at(30 * 60_000), maxExpiresAt: at(24 * 3_600_000), revokedAt: null, createdAt: at(0), otpVerified: false, expiresInSeconds: 30 * 60 },
    organisationName: options.organisationName,
    mode: options.mode,
    branding: { ...options.branding, securedBy: options.securedBy },
    phoneHint: '•••• 0000',
    otpChallenge: null,
    status: 'in_progress',
    nextStep: 'otp',
    steps: [
      { name: 'otp', done: false },
      { name: 'offer', done: false },
      { name: 'bank', done: false },
      { name: 'mandate', done: false },
    ],
    borrower: null,
    loan: null,
    offer: null,
    bank: null,
    mandate: null,
    guarantorsRequired: 0,
    guarantors: null,
    settlementCatalog: false,
    settlementMerchant: null,
    payout: null,
    financing: null,
  };
}
