import express, { type Request, type Response } from 'express';
import type { Platform } from '../platform';
import { onRailNotification, type RailNotice } from '../domain/mandates/rail-notification';
import { sendError } from './envelope';
import { MONO_WEBHOOK_SECRET_HEADER, MonoWebhookPayloadError, MonoWebhookSecretError, parseMonoWebhook } from '../../integrations/mono/mono-webhook';

/**
 * `POST /webhooks/mono`: Mono's push notifications for the live `rail_b` direct debit. The `mono-webhook-secret`
 * header must equal `MONO_WEBHOOK_SECRET` before anything is read: 401 otherwise. An authenticated notification is
 * only a hint: the mandate or debit it names is read back from Mono (`onRailNotification`) before anything changes.
 * Answers 200 for anything authenticated and understood — references we do not hold included — because Mono retries
 * any other answer.
 */
export function createMonoWebhookRouter(platform: Platform, options: { webhookSecret: string }): express.Router {
  const router = express.Router();
  router.post('/', express.raw({ type: () => true, limit: '64kb' }), async (req: Request, res: Response) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    let notification;
    try {
      notification = parseMonoWebhook(raw, req.headers[MONO_WEBHOOK_SECRET_HEADER], options.webhookSecret);
    } catch (error) {
      if (error instanceof MonoWebhookSecretError) {
        sendError(res, 401, error.code, 'The notification does not carry this platform\'s Mono webhook secret.');
        return;
      }
      if (error instanceof MonoWebhookPayloadError) {
        sendError(res, 400, 'invalid_notification', 'The authenticated body is not a Mono event.');
        return;
      }
      throw error;
    }
    const notice: RailNotice | undefined =
      notification.kind === 'mandate'
        ? { kind: 'authorisation', providerReference: notification.reference }
        : notification.kind === 'debit'
          ? // The rail's charge reference is `<mandate id>:<our reference>`; without the mandate, our reference finds an unsettled send.
            { kind: 'charge', reference: notification.mandateId ? `${notification.mandateId}:${notification.reference}` : notification.reference }
          : undefined;
    const outcome = notice ? await onRailNotification(platform, 'rail_b', 'live', notice, platform.clock.now()) : 'ignored';
    platform.logger.info({ event: notification.event, outcome }, 'mono notification');
    res.json({ status: 'successful', message: 'Received', data: { outcome } });
  });
  return router;
}
