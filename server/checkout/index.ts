/**
 * The package entry `<package>/checkout-server` (built to dist/checkout-server/ by
 * `npm run build:checkout-server`): the checkout server a partner mounts in its own Express app,
 * the same one the platform mounts at `/checkout`. Only this folder's code and its small helpers are
 * in it (and in its types); the platform itself is reached over HTTP.
 *
 * ```ts
 * import { createCheckoutRouter } from '<package>/checkout-server';
 * app.use('/checkout', createCheckoutRouter({ apiBaseUrl, publicKey, secretKey, allowedOrigins: ['https://shop.example'] }));
 * ```
 */
export { createCheckoutRouter } from './create-checkout-router';
export { clientIp } from './forward-table';
export { ORGANISATION_ORIGINS_TTL_MS } from './embedding-cors';
export type { CheckoutRouter, CheckoutRouterOptions } from './create-checkout-router';
export type { MintedSession } from './platform-client';
export type { PasskeyOptions } from './passkeys';
export type { CheckoutTheme } from '../../widget/theme';
