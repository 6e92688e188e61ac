import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import type { Clock, MailMessage, Mailer } from '../ports';

/** What the dashboard's account use cases run with (the composition root's `Platform` satisfies it). */
export interface DashboardServices {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  logger: Logger;
  /** Public origin for the links in e-mails. */
  baseUrl: string;
}

/**
 * Sends once the transaction has committed, without waiting for the provider: the answer (and its timing) must not
 * depend on whether a message was sent, or it would tell whether an e-mail has an account. A failure is logged.
 */
export function sendAfterCommit(services: DashboardServices, message: MailMessage): void {
  void services.mailer.send(message).catch((error: unknown) => services.logger.error({ err: error }, 'dashboard e-mail failed'));
}

export const dashboardLink = (services: DashboardServices, path: string, token: string) =>
  `${services.baseUrl.replace(/\/$/, '')}/dashboard/${path}?token=${encodeURIComponent(token)}`;
