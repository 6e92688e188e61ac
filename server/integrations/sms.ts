import type { Db } from '../platform/db/database';
import type { Mode } from '../platform/domain/scope';
import { newId } from '../shared/ids';
import type { SmsMessage, SmsSender } from '../platform/domain/ports';

export type { SmsMessage, SmsSender };

/**
 * The sandbox SMS provider: a message is a row in `sandbox_sms` (shared by every process on the
 * database), readable at `GET /sandbox/sms?phone=…`. It refuses live-mode messages, so the inbox
 * only ever holds test-mode data.
 */
export class SandboxSms implements SmsSender {
  constructor(
    private readonly db: Db,
    private readonly sender: string,
    private readonly now: () => Date,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    if (message.mode !== 'test') throw new Error('the sandbox SMS inbox takes test-mode messages only');
    await this.db
      .insertInto('sandboxSms')
      .values({ id: newId(), phone: message.to, sender: this.sender, body: message.body, createdAt: this.now().toISOString() })
      .execute();
  }
}

/** Newest first, at most `limit`, sent after `since`. */
export async function readSandboxSms(db: Db, phone: string, since: Date, limit = 20) {
  return db
    .selectFrom('sandboxSms')
    .select(['id', 'phone', 'sender', 'body', 'createdAt'])
    .where('phone', '=', phone)
    .where('createdAt', '>=', since.toISOString())
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Every phone's sandbox texts sent after `since`, newest first, at most `limit` (the sandbox inbox page). */
export async function readRecentSandboxSms(db: Db, since: Date, limit = 50) {
  return db
    .selectFrom('sandboxSms')
    .select(['id', 'phone', 'sender', 'body', 'createdAt'])
    .where('createdAt', '>=', since.toISOString())
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
