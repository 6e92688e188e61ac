import { isLocale, type Locale } from '../../../shared/locales';
import type { Db } from '../../db/database';
import type { DomainSettings } from '../services';
import type { FileStorage, SpeechToText, Summariser } from '../ports';
import { fullName, notesOf, participantsOf, prescriptionsOf } from './appointment';
import { emitAppointmentEvent } from './appointment-events';
import { completeAppointment, delaysFor } from './complete-appointment';
import { processRecording } from './recordings';
import { inUnitOfWork } from '../unit-of-work';

export interface SweepContext {
  db: Db;
  files: FileStorage;
  summariser: Summariser;
  /** Optional: transcripts of the processed recordings feed the summaries. */
  speechToText?: SpeechToText;
  settings: DomainSettings;
  now: Date;
}

/** A recording whose page went away without finishing is closed once no chunk has arrived for this long after the consultation ended. */
const ABANDONED_RECORDING_MS = 30_000;
const BATCH = 50;

/**
 * The appointment sweep: restartable, safe in several processes (every change is a conditional
 * UPDATE with its event in the same transaction). In order:
 * 1. `scheduled` past its end time with nobody ever joined → `cancelled` (`unattended`);
 * 2. `in-progress` past its end time with nobody connected, or past end + overrun → `completed` (`end_time`);
 * 3. recordings left `recording` after the consultation ended → `processing`;
 * 4. recordings `processing` whose delay (from the end of the consultation) has passed → joined into one file, `ready`;
 * 5. completed appointments whose summaries are due → summarised (`appointment.summary.ready`).
 */
export async function sweepAppointments(ctx: SweepContext): Promise<{ unattended: number; completed: number; recordings: number; summaries: number }> {
  const { db, now } = ctx;
  const stamp = now.toISOString();
  const out = { unattended: 0, completed: 0, recordings: 0, summaries: 0 };

  const missed = await db.selectFrom('appointments').selectAll().where('status', '=', 'scheduled').where('endTime', '<', stamp).limit(BATCH).execute();
  for (const row of missed) {
    await inUnitOfWork(db, async (tx) => {
      const cancelled = await tx
        .updateTable('appointments')
        .set({ status: 'cancelled', cancellationReason: 'unattended', updatedAt: stamp })
        .where('id', '=', row.id)
        .where('status', '=', 'scheduled')
        .returningAll()
        .executeTakeFirst();
      if (!cancelled) return;
      out.unattended += 1;
      await emitAppointmentEvent(tx, cancelled, 'appointment.cancelled', now, { reason: 'unattended' });
    });
  }

  const overrunCutoff = new Date(now.getTime() - ctx.settings.APPOINTMENT_OVERRUN_MINUTES * 60_000).toISOString();
  const over = await db.selectFrom('appointments').selectAll().where('status', '=', 'in-progress').where('endTime', '<', stamp).limit(BATCH).execute();
  for (const row of over) {
    const active = await db.selectFrom('appointmentParticipants').select('id').where('appointmentId', '=', row.id).where('liveliness', '=', 'active').executeTakeFirst();
    if (active && row.endTime >= overrunCutoff) continue;
    const done = await inUnitOfWork(db, (tx) => completeAppointment(tx, row, { now, by: 'end_time', delays: delaysFor(ctx.settings, row.mode) }));
    if (done) out.completed += 1;
  }

  const idleCutoff = new Date(now.getTime() - ABANDONED_RECORDING_MS).toISOString();
  await db
    .updateTable('appointmentRecordings')
    .set((eb) => ({ status: 'processing', finishedAt: eb.ref('updatedAt'), updatedAt: stamp }))
    .where('status', '=', 'recording')
    .where('updatedAt', '<', idleCutoff)
    .where('appointmentId', 'in', (eb) => eb.selectFrom('appointments').select('id').where('status', 'in', ['completed', 'cancelled']))
    .execute();

  const processing = await db
    .selectFrom('appointmentRecordings as r')
    .innerJoin('appointments as a', 'a.id', 'r.appointmentId')
    .select(['r.id', 'r.finishedAt', 'a.endedAt', 'a.mode'])
    .where('r.status', '=', 'processing')
    .where('a.status', '=', 'completed')
    .limit(BATCH)
    .execute();
  for (const rec of processing) {
    const from = Math.max(new Date(rec.endedAt ?? stamp).getTime(), new Date(rec.finishedAt ?? stamp).getTime());
    if (from + delaysFor(ctx.settings, rec.mode).recordingDelaySeconds * 1000 > now.getTime()) continue;
    if (await processRecording(db, ctx.files, rec.id, now)) out.recordings += 1;
  }

  const patientLocale = (own: string | null, people: Array<{ role: string; locale: string | null }>): Locale =>
    [own, ...people.filter((p) => p.role === 'patient').map((p) => p.locale)].find(isLocale) ?? 'en';
  const due = await db.selectFrom('appointments').selectAll().where('status', '=', 'completed').where('summarisedAt', 'is', null).where('summaryDueAt', '<=', stamp).limit(BATCH).execute();
  for (const row of due) {
    const [people, notes, prescriptions] = await Promise.all([participantsOf(db, [row.id]), notesOf(db, row.id), prescriptionsOf(db, row.id)]);
    const names = (role: string) => people.filter((p) => p.role === role).map(fullName).join(' and ') || `the ${role}`;
    // Outside any transaction: transcription and a model-backed summariser may take seconds.
    const transcript = ctx.speechToText ? await transcribe(ctx, row.id) : undefined;
    const summaries = await ctx.summariser.summarise({
      patientName: names('patient'),
      doctorName: names('doctor'),
      startedAt: row.startedAt ?? row.startTime,
      endedAt: row.endedAt ?? row.endTime,
      notes,
      prescriptions,
      ...(transcript ? { transcript } : {}),
      locale: patientLocale(row.locale, people),
    });
    await inUnitOfWork(db, async (tx) => {
      const updated = await tx
        .updateTable('appointments')
        .set({ transcriptionSummary: summaries.transcriptionSummary, patientSummary: summaries.patientSummary, summarisedAt: stamp, updatedAt: stamp })
        .where('id', '=', row.id)
        .where('summarisedAt', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (!updated) return;
      out.summaries += 1;
      await emitAppointmentEvent(tx, updated, 'appointment.summary.ready', now);
    });
  }
  return out;
}

/** The transcripts of the appointment's processed recordings, in order (undefined when none says anything). */
async function transcribe(ctx: SweepContext, appointmentId: string): Promise<string | undefined> {
  const recordings = await ctx.db
    .selectFrom('appointmentRecordings')
    .select(['storageKey', 'contentType'])
    .where('appointmentId', '=', appointmentId)
    .where('status', '=', 'ready')
    .orderBy('startedAt')
    .orderBy('id')
    .execute();
  const parts: string[] = [];
  for (const recording of recordings) {
    const audio = await ctx.files.get(recording.storageKey!);
    const text = audio ? await ctx.speechToText!.transcribe(audio, recording.contentType) : null;
    if (text?.trim()) parts.push(text.trim());
  }
  return parts.length ? parts.join('\n') : undefined;
}
