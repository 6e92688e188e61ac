import { getCheckoutSettings, updateCheckoutSettings } from '../../domain/checkout/checkout-settings';
import { defineRoute } from '../route';
import { CheckoutSettingsChangeInput, CheckoutSettingsSchema, CheckoutEmbeddingSchema } from '../checkout-settings-schemas';

/** The organisation's checkout embedding settings: partners read and change them; a session reads its organisation's. */
export const checkoutSettingsRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/checkout-settings',
    operationId: 'getCheckoutSettings',
    tag: 'Checkout sessions',
    summary: 'Checkout embedding settings',
    description: 'The origins allowed to embed the checkout and receive its events, and the hosted page\'s return URL, for the key\'s mode.',
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
    summary: 'Change the checkout embedding settings and branding',
    description:
      'Send what changes: `allowedOrigins` replaces the whole list, `returnUrl: null` removes the return URL, and any branding field set to null is removed. ' +
      'A mounted checkout server (`createCheckoutRouter`) adds its own `allowedOrigins` option to these. Bad origins, URLs, colours, e-mails or phones: 400 `invalid_request` naming the field, and nothing changes.',
    access: 'tenant',
    body: CheckoutSettingsChangeInput,
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
      'The session\'s organisation settings for its mode: the origins the widget may `postMessage` to (and accept messages from) ' +
      'and the return URL of the hosted page. Nothing personal; readable before the OTP.',
    access: 'checkoutSession',
    response: { status: 200, description: 'The embedding settings.', data: CheckoutEmbeddingSchema },
    errors: ['checkout_session_expired', 'checkout_session_revoked', 'credential_not_allowed'],
    async handle({ db, auth }) {
      const { allowedOrigins, returnUrl } = await getCheckoutSettings(db, auth);
      return { message: 'Checkout embedding settings', data: { allowedOrigins, returnUrl } };
    },
  }),
];
