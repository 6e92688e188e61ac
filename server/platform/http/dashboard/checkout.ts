import type { Request } from 'express';
import { z } from 'zod';
import { checkoutPageCsp, renderCheckoutPage } from '../../../checkout/page';
import { getCheckoutSettings } from '../../domain/checkout/checkout-settings';
import { previewBranding, previewCheckoutState } from '../../domain/checkout/checkout-preview';
import { saveCheckoutSettings } from '../../domain/dashboard/update-checkout-settings';
import { AppError } from '../../domain/errors';
import { requirePermission } from '../../domain/dashboard/permissions';
import { findOrganisation } from '../../domain/organisations/organisation';
import type { Mode } from '../../domain/scope';
import { CheckoutSettingsChangeInput } from '../checkout-settings-schemas';
import type { DashboardArea, DashboardKit } from './kit';

/** Where `createApp` mounts the hosted checkout: the preview loads the same widget bundle, steps and texts from it. */
const HOSTED_CHECKOUT = '/checkout';
/** The preview's mount under `/dashboard/api`; `:mode/:draft` make its base, so the widget's own calls carry both. */
const PREVIEW = '/checkout/preview/:mode/:draft';
const PREVIEW_PAGE_CSP = (mode: Mode) => checkoutPageCsp({ testSession: mode === 'test', frameAncestors: ["'self'"] });

const PreviewParams = z.object({ mode: z.enum(['test', 'live']), draft: z.string().max(12_000) });

/** The draft in the preview's path: base64url of the branding fields as JSON (`{brandColor: "#0b6e4f", …}`). */
function decodeDraft(value: string): unknown {
  try {
    return JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw new AppError('invalid_request', 'draft: not base64url JSON of the branding fields');
  }
}

/**
 * Checkout settings: the origins that may embed the checkout, the hosted page's return URL and the branding, per mode
 * — the partner API's `/v1/checkout-settings` (same schema, same domain checks) for the dashboard's session — and the
 * live preview of the hosted checkout with draft branding (docs/dashboard/checkout.md).
 */
export const checkoutRoutes: DashboardArea = (router, kit) => {
  router.get('/checkout/settings', async (req, res) => {
    const { session, mode } = await kit.caller(req, 'checkout.read');
    const settings = await getCheckoutSettings(kit.platform.db, { organisationId: session.organisationId, mode });
    const organisation = await findOrganisation(kit.platform.db, session.organisationId);
    kit.ok(res, 200, 'Checkout settings.', { ...settings, organisationName: organisation?.name ?? '', securedBy: kit.platform.settings.CHECKOUT_PLATFORM_NAME });
  });

  router.patch('/checkout/settings', async (req, res) => {
    const { session, mode, origin } = await kit.caller(req, 'checkout.manage');
    const changes = kit.parse(CheckoutSettingsChangeInput, req.body);
    const settings = await saveCheckoutSettings(kit.platform.db, { organisationId: session.organisationId, mode }, changes, {
      userId: session.userId,
      origin,
      now: kit.platform.clock.now(),
    });
    kit.ok(res, 200, 'Checkout settings saved.', settings);
  });

  // ── The live preview: the hosted checkout's own page and widget, reading a fixture state with the draft branding ──

  router.get(PREVIEW, async (req, res) => {
    const { mode } = await previewCaller(kit, req);
    previewBranding(decodeDraft(String(req.params.draft)), mode);
    res.setHeader('Content-Security-Policy', PREVIEW_PAGE_CSP(mode));
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Robots-Tag', 'noindex');
    const basePath = `${req.baseUrl}${req.path.replace(/\/$/, '')}`;
    res.status(200).type('html').send(renderCheckoutPage({ basePath, state: 'ready', widgetSrc: `${HOSTED_CHECKOUT}/widget.js`, mainLabel: 'Checkout preview' }));
  });

  router.get(`${PREVIEW}/api/state`, async (req, res) => {
    const { session, mode } = await previewCaller(kit, req);
    const { branding } = previewBranding(decodeDraft(String(req.params.draft)), mode);
    const organisation = await findOrganisation(kit.platform.db, session.organisationId);
    res.setHeader('Cache-Control', 'no-store');
    const state = previewCheckoutState({
      organisationName: organisation?.name ?? '',
      mode,
      branding,
      securedBy: kit.platform.settings.CHECKOUT_PLATFORM_NAME,
      now: kit.platform.clock.now(),
    });
    kit.ok(res, 200, 'Checkout preview state.', state);
  });

  // The preview posts its events nowhere and has no return URL.
  router.get(`${PREVIEW}/api/settings`, async (req, res) => {
    await previewCaller(kit, req);
    kit.ok(res, 200, 'Checkout preview embedding.', { allowedOrigins: [], returnUrl: null });
  });

  // The widget slides its session while a step is open: the preview's is a fixture that never ends.
  router.post(`${PREVIEW}/api/session/refresh`, async (req, res) => {
    await previewCaller(kit, req);
    const now = kit.platform.clock.now().getTime();
    kit.ok(res, 200, 'Checkout preview session.', { expiresAt: new Date(now + 30 * 60_000).toISOString(), maxExpiresAt: new Date(now + 24 * 3_600_000).toISOString() });
  });

  // The widget's other texts and its rarer steps: the hosted checkout's files, the same build.
  router.get([`${PREVIEW}/api/locales/:file`, `${PREVIEW}/api/steps/:file`], (req, res) => {
    const kind = req.path.includes('/api/locales/') ? 'locales' : 'steps';
    res.redirect(302, `${HOSTED_CHECKOUT}/api/${kind}/${encodeURIComponent(String(req.params.file))}`);
  });

  // Anything the borrower would do (send a code…): refused, nothing is sent or stored.
  router.all(`${PREVIEW}/api/{*rest}`, async (req) => {
    await previewCaller(kit, req);
    throw new AppError('checkout_preview_only', 'This is a preview of your checkout: borrowers can use this step, the preview sends nothing.');
  });
};

/**
 * The preview's caller: a signed-in member who may read the checkout settings, for the mode in the preview's path
 * (the iframe cannot send the mode header); live needs the organisation to be live-enabled. The widget's own POSTs
 * carry no CSRF token: they change nothing, so they are checked like reads.
 */
async function previewCaller(kit: DashboardKit, req: Request) {
  const params = kit.parse(PreviewParams, req.params, 'query');
  const { session } = await kit.session(req, { csrf: false });
  requirePermission(session, 'checkout.read');
  if (params.mode === 'live') {
    const organisation = await findOrganisation(kit.platform.db, session.organisationId);
    if (!organisation?.liveEnabled) throw new AppError('LIVE_MODE_NOT_ENABLED', 'Live mode is not enabled for this organisation yet; preview test mode meanwhile.');
  }
  return { session, mode: params.mode as Mode };
}
