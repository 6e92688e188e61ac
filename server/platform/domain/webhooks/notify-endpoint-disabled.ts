import type { Logger } from 'pino';
import type { Executor } from '../../db/database';
import type { Mailer } from '../ports';
import type { DisabledEndpoint } from './record-attempt';

/**
 * E-mails the organisation that one of its endpoints was disabled (410 or repeated failures), with
 * how to turn it back on and replay what it missed. Called after the change committed; a mail that
 * cannot go out is logged, never retried.
 */
export async function notifyEndpointDisabled(services: { db: Executor; logger: Logger; mailer: Mailer }, endpoint: DisabledEndpoint): Promise<void> {
  const { db, logger, mailer } = services;
  logger.warn({ endpointId: endpoint.endpointId, reason: endpoint.reason }, 'webhook endpoint disabled');
  const org = await db.selectFrom('organisations').select(['name', 'notificationEmail']).where('id', '=', endpoint.organisationId).executeTakeFirst();
  if (!org?.notificationEmail) {
    logger.warn({ organisationId: endpoint.organisationId }, 'no notification e-mail configured: the organisation was not told its endpoint is disabled');
    return;
  }
  const why =
    endpoint.reason === 'gone'
      ? 'it answered 410 Gone, which we take as "stop sending"'
      : `${endpoint.consecutiveFails} consecutive delivery attempts failed since ${endpoint.failingSince}`;
  try {
    await mailer.send({
      to: org.notificationEmail,
      subject: `Webhook endpoint disabled: ${endpoint.url}`,
      text: [
        `Hello ${org.name},`,
        '',
        `We disabled your ${endpoint.mode}-mode webhook endpoint ${endpoint.url} (id ${endpoint.endpointId}) because ${why}.`,
        `Last error: ${endpoint.lastError ?? 'none recorded'}`,
        '',
        'Events are not sent to a disabled endpoint. When it is fixed, re-enable it with',
        `PATCH /v1/webhook-endpoints/${endpoint.endpointId} {"status": "active"}`,
        'and replay what it missed from the event log (GET /v1/events, POST /v1/events/{id}/redeliver).',
      ].join('\n'),
    });
  } catch (error) {
    logger.error({ err: error, endpointId: endpoint.endpointId }, 'could not e-mail the organisation about its disabled endpoint');
  }
}
