import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../migrate';

/**
 * The borrower's and the patient's language, kept server side so texts, e-mails and
 * letters follow the borrower out of the browser. Every column is a language tag the platform
 * ships (`en`, `pcm`, `yo`, `ha`, `ig`) or null; `domain/languages/negotiate-locale.ts` decides.
 *
 * - `checkout_sessions.partner_locale`: the partner's `locale` when it created the session.
 * - `checkout_sessions.locale`: what the borrower picked in this session's language menu.
 * - `borrowers.preferred_locale`: the borrower's last pick, for later sessions and for texts sent
 *   outside a session (offer ready, receipt).
 * - `appointments.locale`, `appointment_participants.locale`: the patient's language for the
 *   meeting page and `patientSummary` (the appointment's, else the patient's).
 */
export async function up(db: Kysely<unknown>, _t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('checkout_sessions').addColumn('partner_locale', 'text').execute();
  await db.schema.alterTable('checkout_sessions').addColumn('locale', 'text').execute();
  await db.schema.alterTable('borrowers').addColumn('preferred_locale', 'text').execute();
  await db.schema.alterTable('appointments').addColumn('locale', 'text').execute();
  await db.schema.alterTable('appointment_participants').addColumn('locale', 'text').execute();
}
