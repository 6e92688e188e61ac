import type { Executor, Tx } from '../../db/database';
import type { MeetingSeat } from './meeting-access';
import { emitAppointmentEvent } from './appointment-events';
import { sql } from 'kysely';

/**
 * A participant's connection opened: `liveliness` becomes `active`, and the first connection inside
 * the window moves a `scheduled` appointment to `in-progress` (one conditional UPDATE, so two
 * participants joining at once start it once) with `appointment.started` in the same transaction.
 */
export async function participantConnected(db: Tx, seat: MeetingSeat, now: Date): Promise<void> {
  const stamp = now.toISOString();
  await db
    .updateTable('appointmentParticipants')
    .set((eb) => ({ connections: eb('connections', '+', 1), liveliness: 'active', firstJoinedAt: eb.fn.coalesce('firstJoinedAt', sql<string>`${stamp}`), lastSeenAt: stamp, updatedAt: stamp }))
    .where('id', '=', seat.participant.id)
    .execute();
  const started = await db
    .updateTable('appointments')
    .set({ status: 'in-progress', startedAt: stamp, updatedAt: stamp })
    .where('id', '=', seat.appointment.id)
    .where('status', '=', 'scheduled')
    .returningAll()
    .executeTakeFirst();
  if (started) await emitAppointmentEvent(db, started, 'appointment.started', now, { startedAt: stamp, firstParticipantRole: seat.participant.role });
}

/** A connection closed: `left` once the participant has no connection open. */
export async function participantDisconnected(db: Executor, participantId: string, now: Date): Promise<void> {
  const stamp = now.toISOString();
  await db
    .updateTable('appointmentParticipants')
    .set((eb) => ({
      connections: sql<number>`case when ${eb.ref('connections')} > 0 then ${eb.ref('connections')} - 1 else 0 end`,
      liveliness: sql<string>`case when ${eb.ref('connections')} > 1 then 'active' else 'left' end`,
      lastSeenAt: stamp,
      updatedAt: stamp,
    }))
    .where('id', '=', participantId)
    .execute();
}
