import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * Borrower reminders by text, and a per-address limit on the borrower's sign-in.
 * - `loan_products.reminders_enabled` (default on) and `reminder_lead_days` (0–14, default 3): whether the product's
 *   borrowers get a text before each direct debit, and how many days before (`borrower-loans/reminders.ts`).
 * - `organisations.quiet_hours_start`, `quiet_hours_end` (`HH:MM`, default 21:00 and 08:00) and `quiet_hours_time_zone`
 *   (IANA, default Africa/Lagos): no reminder goes out between them; one due then waits until they end.
 * - `borrower_reminders`: one row per reminder, claimed before the text goes out. The unique key
 *   (`schedule_item_id`, `kind`) makes a reminder at most once per instalment, whichever worker claims it first.
 *   `kind` `debit_upcoming` | `debit_failed`; `status` `sending` → `sent` (with its `loan.reminder.sent` event, in one
 *   transaction) or `not_sent` (no phone that takes texts); `repayment_id` is the failed charge a `debit_failed` is about.
 * - `borrower_sign_in_ip_windows`: requests to `/v1/borrower/sign-in/send` and `/verify` per client address and clock
 *   hour (`action` `send` | `verify`); one conditional upsert takes a slot, as the OTP's per-phone hourly count does.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  const yes = t.bool === 'boolean' ? sql`true` : sql`1`;
  await db.schema.alterTable('loan_products').addColumn('reminders_enabled', t.bool, (c) => c.notNull().defaultTo(yes)).execute();
  await db.schema.alterTable('loan_products').addColumn('reminder_lead_days', 'integer', (c) => c.notNull().defaultTo(3)).execute();
  await db.schema.alterTable('organisations').addColumn('quiet_hours_start', 'text', (c) => c.notNull().defaultTo('21:00')).execute();
  await db.schema.alterTable('organisations').addColumn('quiet_hours_end', 'text', (c) => c.notNull().defaultTo('08:00')).execute();
  await db.schema.alterTable('organisations').addColumn('quiet_hours_time_zone', 'text', (c) => c.notNull().defaultTo('Africa/Lagos')).execute();

  await db.schema
    .createTable('borrower_reminders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('loan_id', 'text', (c) => c.notNull().references('loans.id'))
    .addColumn('schedule_item_id', 'text', (c) => c.notNull().references('loan_schedule_items.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('repayment_id', 'text', (c) => c.references('loan_repayments.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('locale', 'text')
    .addColumn('sent_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('borrower_reminders_item_kind_uq').unique().on('borrower_reminders').columns(['schedule_item_id', 'kind']).execute();
  await db.schema.createIndex('borrower_reminders_loan_idx').on('borrower_reminders').columns(['loan_id', 'created_at']).execute();

  await db.schema
    .createTable('borrower_sign_in_ip_windows')
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('window_start', t.timestamp, (c) => c.notNull())
    .addColumn('request_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('borrower_sign_in_ip_windows_pk', ['ip', 'action', 'window_start'])
    .execute();
}
