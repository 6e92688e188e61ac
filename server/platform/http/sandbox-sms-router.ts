import express from 'express';
import { AppError } from '../domain/errors';
import { normalisePhone } from '../domain/users/phone';
import type { Platform } from '../platform';
import { readSandboxSms } from '../../integrations/sms';

/**
 * `GET /sandbox/sms?phone=+2348012345678`: the sandbox inbox for one phone, newest first, the
 * last 24 hours. No credential: only test-mode messages are ever stored there (the sandbox
 * adapter refuses live ones), and the route is not mounted when SANDBOX_ROUTES_ENABLED is false.
 * The phone in the query string is sandbox data, the one exception to "no personal data in URLs".
 */
export function createSandboxSmsRouter(platform: Pick<Platform, 'db' | 'clock'>): express.Router {
  const router = express.Router();
  router.get('/', async (req, res) => {
    const phone = normalisePhone(String(req.query.phone ?? ''));
    if (!phone) throw new AppError('invalid_request', 'query.phone: a phone number, e.g. +2348012345678');
    const since = new Date(platform.clock.now().getTime() - 24 * 3_600_000);
    const messages = await readSandboxSms(platform.db, phone, since);
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      status: 200,
      success: true,
      message: 'Sandbox SMS inbox (test mode only)',
      data: { phone, messages: messages.map((m) => ({ id: m.id, from: m.sender, body: m.body, sentAt: m.createdAt })) },
    });
  });
  return router;
}
