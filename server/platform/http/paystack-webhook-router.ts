import express, { type Request, type Response } from 'express';
import type { Platform } from '../platform';
import { onRailNotification, type RailNotice } from '../domain/mandates/rail-notification';
import { sendError } from './envelope';
import { PAYSTACK_SIGNATURE_HEADER, PaystackWebhookPayloadError, PaystackWebhookSignatureError, parsePaystackWebhook } from '../../integrations/paystack/paystack-webhook';

/**
 * `POST /webhooks/paystack`: Paystack's push notifications for the live `rail_a` direct debit.
 * The signature (`x-paystack-signature`, HMAC-SHA512 of the raw bytes with the secret key) is
 * checked before anything is read: 401 otherwise. A signed notification is only a hint: the
 * mandate or charge it names is read back from Paystack (`onRailNotification`) and the collector
 * no longer has to wait for its next poll. Answers 200 for anything signed and understood —
 * including references we do not hold — because Paystack retries any other answer for 72 hours. Its refusals are error
 * envelopes with a `docUrl` (the `Provider webhooks` entries of the error reference).
 */
export function createPaystackWebhookRouter(platform: Platform, options: { secretKey: string }): express.Router {
  const router = express.Router();
  router.post('/', express.raw({ type: () => true, limit: '64kb' }), async (req: Request, res: Response) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    let notification;
    try {
      notification = parsePaystackWebhook(raw, req.headers[PAYSTACK_SIGNATURE_HEADER], options.secretKey);
    } catch (error) {
      if (error instanceof PaystackWebhookSignatureError) {
        sendError(res, 401, error.code, 'The notification is not signed with this integration\'s key.');
        return;
      }
      if (error instanceof PaystackWebhookPayloadError) {
        sendError(res, 400, 'invalid_notification', 'The signed body is not a Paystack event.');
        return;
      }
      throw error;
    }
    const notice: RailNotice | undefined =
      notification.kind === 'authorisation' && notification.providerReference
        ? { kind: 'authorisation', providerReference: notification.providerReference }
        : notification.kind === 'charge'
          ? { kind: 'charge', reference: notification.chargeReference }
          : undefined;
    const outcome = notice ? await onRailNotification(platform, 'rail_a', 'live', notice, platform.clock.now()) : 'ignored';
    platform.logger.info({ event: notification.event, outcome }, 'paystack notification');
    res.json({ status: 200, success: true, message: 'Received', data: { outcome } });
  });
  return router;
}
