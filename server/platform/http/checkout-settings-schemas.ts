import { z } from 'zod';
import { MAX_ALLOWED_ORIGINS } from '../domain/checkout/checkout-settings';
import { Timestamp } from './schemas';

const Origin = z.string().min(1).max(200).meta({ example: 'https://shop.example' });
const ReturnUrl = z.string().min(1).max(2000).meta({ example: 'https://shop.example/checkout/done' });

const ORIGINS_DESCRIPTION =
  'Exact web origins (`https://shop.example`, no path, no wildcard; plain http only for localhost in test mode), at most ' +
  `${MAX_ALLOWED_ORIGINS}. The checkout posts its events (\`postMessage\`) to a parent or opener window only at one of these origins, ` +
  'and drops any message that comes in from another origin.';
const RETURN_URL_DESCRIPTION =
  'Where the hosted checkout sends the borrower when it ends: an https URL (plain http only for localhost in test mode) or your app\'s ' +
  'custom scheme (`myapp://checkout-done`). The checkout adds only `outcome` (`completed`, `declined`, `exited`, `expired`), `loanId` and ' +
  '`checkoutSessionId`: never anything personal. Null: no redirect (the page shows the outcome).';

const WEB_URL = 'An https URL (plain http only for localhost in test mode), without credentials.';
/** The branding fields: what each means, as the settings and the checkout state both describe it. */
export const BRANDING_DESCRIPTIONS = {
  displayName: 'The name the checkout shows in its header (and the page title); null: the organisation\'s name. 1–80 letters, digits, spaces and ordinary punctuation.',
  logoUrl: `Your logo, shown in the checkout's header instead of the name (it stays the image's alt text): ${WEB_URL} A square or wide PNG/SVG about 40 px tall reads best.`,
  brandColor: '`#rrggbb`: buttons, links and the focus ring. Text on it stays WCAG AA whatever the colour (white, ink or black, the first reaching 4.5:1; links darkened until they do).',
  supportEmail: 'Where borrowers write for help; shown in the checkout\'s footer.',
  supportPhone: 'Where borrowers call for help, any possible phone number (Nigerian national numbers accepted); stored and shown in international format, e.g. `+234 1 234 5678`.',
  supportUrl: `A help page, linked from the footer: ${WEB_URL}`,
  privacyUrl: `Your privacy notice, linked from the footer: ${WEB_URL}`,
  termsUrl: `Your terms, linked from the footer: ${WEB_URL}`,
} as const;

type BrandingKey = keyof typeof BRANDING_DESCRIPTIONS;
const MAX_LENGTH: Partial<Record<BrandingKey, number>> = { displayName: 80, brandColor: 7, supportPhone: 30, supportEmail: 150 };
const brandingValue = (field: BrandingKey) => z.string().min(1).max(MAX_LENGTH[field] ?? 2000).nullable();
const brandingFields = <T extends z.ZodType>(wrap: (value: ReturnType<typeof brandingValue>) => T) =>
  Object.fromEntries(
    Object.entries(BRANDING_DESCRIPTIONS).map(([field, description]) => [field, wrap(brandingValue(field as BrandingKey)).meta({ description })]),
  ) as Record<BrandingKey, T>;
/** In answers: always present, null when not set. */
const brandingSchema = () => brandingFields((value) => value);
/** In a change: only what changes (null removes). */
const brandingChanges = () => brandingFields((value) => value.optional());

/** The branding as the checkout state carries it (readable before the OTP: the lender's public face, nothing personal). */
export const CheckoutBrandingSchema = z.object(brandingSchema()).meta({ id: 'CheckoutBranding' });

export const CheckoutSettingsSchema = z
  .object({
    allowedOrigins: z.array(z.string()).meta({ description: ORIGINS_DESCRIPTION }),
    returnUrl: z.string().nullable().meta({ description: RETURN_URL_DESCRIPTION }),
    ...brandingSchema(),
    updatedAt: Timestamp.nullable().meta({ description: 'Null until the settings are first changed.' }),
  })
  .meta({ id: 'CheckoutSettings', description: 'How your frontends embed the borrower checkout, for the mode of the key (test and live are separate).' });

export const CheckoutEmbeddingSchema = CheckoutSettingsSchema.pick({ allowedOrigins: true, returnUrl: true }).meta({ id: 'CheckoutEmbedding' });

/** A change to the settings: only what changes (null removes). */
export const CheckoutSettingsChangeInput = z
  .object({
    allowedOrigins: z.array(Origin).max(MAX_ALLOWED_ORIGINS).optional().meta({ description: ORIGINS_DESCRIPTION }),
    returnUrl: ReturnUrl.nullable().optional().meta({ description: RETURN_URL_DESCRIPTION }),
    ...brandingChanges(),
  })
  .strict();
