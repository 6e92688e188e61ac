import { z } from 'zod';
import { getCheckoutSettings, MAX_ALLOWED_ORIGINS, updateCheckoutSettings } from '../../domain/checkout/checkout-settings';
import { defineRoute } from '../route';
import { Timestamp } from '../schemas';

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

export const CheckoutSettingsSchema = z
  .object({
    allowedOrigins: z.array(z.string()).meta({ description: ORIGINS_DESCRIPTION }),
    returnUrl: z.string().nullable().meta({ description: RETURN_URL_DESCRIPTION }),
    updatedAt: Timestamp.nullable().meta({ description: 'Null until the settings are first changed.' }),
  })
  .meta({ id: 'CheckoutSettings', description: 'Addition: how your frontends embed the borrower checkout, for the mode of the key (test and live are separate).' });

const EmbeddingSchema = CheckoutSettingsSchema.pick({ allowedOrigins: true, returnUrl: true }).meta({ id: 'CheckoutEmbedding' });

/** The organisation's checkout embedding settings: partners read and change them; a session reads its organisation's. */
export const checkoutSettingsRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/checkout-settings',
    operationId: 'getCheckoutSettings',
    tag: 'Checkout sessions',
    summary: 'Checkout embedding settings',
    description: 'Addition to the spec. The origins allowed to embed the checkout and receive its events, and the hosted page\'s return URL, for the key\'s mode.',
    access: 'tenant',
    response: { status: 200, description: 'The settings (empty until changed).', data: CheckoutSettingsSchema },
    async handle({ db, auth }) {
      return { message: 'Checkout settings', data: await getCheckoutSettings(db, auth) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/checkout-settings',
    operationId: 'updateCheckoutSettings',
    tag: 'Checkout sessions',
    summary: 'Change the checkout embedding settings',
    description:
      'Addition to the spec. Send what changes: `allowedOrigins` replaces the whole list, `returnUrl: null` removes the return URL. ' +
      'A mounted checkout server (`createCheckoutRouter`) adds its own `allowedOrigins` option to these. Bad origins or URLs: 400 `invalid_request` naming the value.',
    access: 'tenant',
    body: z
      .object({
        allowedOrigins: z.array(Origin).max(MAX_ALLOWED_ORIGINS).optional().meta({ description: ORIGINS_DESCRIPTION }),
        returnUrl: ReturnUrl.nullable().optional().meta({ description: RETURN_URL_DESCRIPTION }),
      })
      .strict(),
    response: { status: 200, description: 'The settings.', data: CheckoutSettingsSchema },
    async handle({ db, auth, body, now }) {
      return { message: 'Checkout settings updated', data: await updateCheckoutSettings(db, auth, body, now) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/checkout/settings',
    operationId: 'getCheckoutEmbedding',
    tag: 'Checkout',
    summary: 'Where this checkout may deliver its events',
    description:
      'Addition to the spec. The session\'s organisation settings for its mode: the origins the widget may `postMessage` to (and accept messages from) ' +
      'and the return URL of the hosted page. Nothing personal; readable before the OTP.',
    access: 'checkoutSession',
    response: { status: 200, description: 'The embedding settings.', data: EmbeddingSchema },
    errors: ['checkout_session_expired', 'checkout_session_revoked', 'credential_not_allowed'],
    async handle({ db, auth }) {
      const { allowedOrigins, returnUrl } = await getCheckoutSettings(db, auth);
      return { message: 'Checkout embedding settings', data: { allowedOrigins, returnUrl } };
    },
  }),
];
