import crypto from 'node:crypto';
import ipaddr from 'ipaddr.js';
import express from 'express';
import { z } from 'zod';
import { AppError } from '../domain/errors';
import type { Platform } from '../platform';
import { sendSignInCode, verifySignInCode } from '../domain/borrower-loans/sign-in';
import { OTP_RULES } from '../domain/checkout/otp';
import { LOCALES } from '../../shared/locales';
import { takeSignInSlot, type SignInAction } from '../domain/borrower-loans/sign-in-limits';
import { successBody } from './envelope';

/**
 * `POST /v1/borrower/sign-in/send` and `/verify`: how a borrower gets a borrower session without the partner, by phone
 * and a one-time code. No credential (the borrower has none yet), so they are mounted before the API's authentication;
 * the OTP rules limit each phone (a code every 30 s, 5 an hour) and each client address has an hourly budget per route
 * (`sign-in-limits.ts`: 429 `borrower_sign_in_rate_limited` with `Retry-After`, before any code is sent or checked). The
 * answers never say whether the phone has loans: the send answers the same either way, and only a verified code lists
 * the sessions (one per lender).
 *
 * Body of both: `phone`, optional `organisation` (one lender's id; without it every lender the phone has loans with)
 * and `mode` (`live` by default; `test` for sandbox loans). Verify adds `code`.
 */
const SignIn = z
  .object({
    phone: z.string().min(5).max(32),
    organisation: z.uuid().optional(),
    mode: z.enum(['test', 'live']).default('live'),
  })
  .strict();
/** `locale`: the language the borrower picked on the page; the code's text goes in it. */
const Send = SignIn.extend({ locale: z.enum(LOCALES).optional() }).strict();
const Verify = SignIn.extend({ code: z.string().regex(new RegExp(`^\\d{${OTP_RULES.digits}}$`), `${OTP_RULES.digits} digits`) }).strict();

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError('invalid_request', `${['body', ...issue.path.map(String)].join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * The key the platform's own checkout mount sends with a loan-page sign-in (`X-Checkout-Relay`), derived from the
 * master key so every process of one deployment agrees on it.
 */
export const signInRelayKey = (platform: Platform): string => platform.secrets.hmac('borrower-sign-in-relay', 'v1');

/**
 * The address a sign-in counts against: the socket's; or, for a call relayed by the platform's own checkout mount
 * (the loan page at `/checkout/my-loan`, which calls over HTTP from this machine), the browser's address that mount
 * names in `X-Borrower-Client-Ip` — only with the relay key, so no other caller can pick the address it is counted as.
 */
export function signInAddress(req: express.Request, relayKey: string): string {
  const socket = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  const claimed = req.get('x-borrower-client-ip');
  const key = req.get('x-checkout-relay');
  if (!claimed || !key || !ipaddr.isValid(claimed)) return socket;
  const given = Buffer.from(key);
  const expected = Buffer.from(relayKey);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? claimed : socket;
}

export function createBorrowerSignInRouter(platform: Platform): express.Router {
  const router = express.Router();
  router.use(express.json({ limit: platform.config.BODY_LIMIT_BYTES, strict: true }));
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  const limits = { send: platform.config.BORROWER_SIGN_IN_SENDS_PER_IP_PER_HOUR, verify: platform.config.BORROWER_SIGN_IN_VERIFIES_PER_IP_PER_HOUR };
  const relayKey = signInRelayKey(platform);
  const perAddress = (action: SignInAction): express.RequestHandler => async (req, _res, next) => {
    await takeSignInSlot(platform.db, { ip: signInAddress(req, relayKey), action, limits, now: platform.clock.now() });
    next();
  };
  router.post('/send', perAddress('send'), async (req, res) => {
    const body = parse(Send, req.body);
    const data = await sendSignInCode(platform, { phone: body.phone, mode: body.mode, organisationId: body.organisation ?? null, locale: body.locale, acceptLanguage: req.get('accept-language') }, platform.clock.now());
    res.status(200).json(successBody(200, 'If this phone has loans, a code is on its way', data));
  });
  router.post('/verify', perAddress('verify'), async (req, res) => {
    const body = parse(Verify, req.body);
    const data = await verifySignInCode(platform, { phone: body.phone, mode: body.mode, organisationId: body.organisation ?? null, code: body.code }, platform.clock.now());
    res.status(200).json(successBody(200, 'Signed in', data));
  });
  return router;
}
