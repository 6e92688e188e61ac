import { sql } from 'kysely';
import type { Db, Executor } from '../../db/database';
import type { FileStorage } from '../../../integrations/file-storage';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import { assertDoctor, type MeetingSeat } from './meeting-access';
import { emitAppointmentEvent } from './appointment-events';

/**
 * Consultation recordings. The doctor's page records the call's audio (its own microphone mixed with
 * the other participants') with MediaRecorder and uploads it in numbered chunks while the call runs;
 * each page session is its own recording, so a reconnect or a split session gives a second file.
 * Chunks wait in the file store; the processing step (after the configured delay from the end of the
 * consultation) joins them in order into one file, deletes the chunks and lists the recording.
 */
export const RECORDING_CONTENT_TYPES = ['audio/webm', 'audio/ogg', 'audio/mp4'] as const;
export const MAX_CHUNKS = 100_000;

const chunkKey = (appointmentId: string, recordingId: string, seq: number) => `recordings/${appointmentId}/${recordingId}/chunk-${String(seq).padStart(6, '0')}`;
const extensionOf = (contentType: string) => (contentType === 'audio/ogg' ? 'ogg' : contentType === 'audio/mp4' ? 'm4a' : 'webm');

export async function startRecording(db: Executor, seat: MeetingSeat, contentType: string, now: Date): Promise<{ id: string }> {
  assertDoctor(seat);
  const stamp = now.toISOString();
  const id = newId();
  await db
    .insertInto('appointmentRecordings')
    .values({ id, appointmentId: seat.appointment.id, participantId: seat.participant.id, contentType, status: 'recording', chunkCount: 0, bytes: 0, storageKey: null, startedAt: stamp, finishedAt: null, readyAt: null, createdAt: stamp, updatedAt: stamp })
    .execute();
  return { id };
}

async function ownRecording(db: Executor, seat: MeetingSeat, recordingId: string) {
  const row = await db
    .selectFrom('appointmentRecordings')
    .selectAll()
    .where('id', '=', recordingId)
    .where('appointmentId', '=', seat.appointment.id)
    .where('participantId', '=', seat.participant.id)
    .executeTakeFirst();
  if (!row) throw notFound('Recording');
  if (row.status !== 'recording') throw new AppError('recording_closed', 'This recording is finished; start a new one.');
  return row;
}

/** Stores chunk `seq` (0-based). Sending the same chunk again replaces it (a retried upload is harmless). */
export async function storeRecordingChunk(db: Db, files: FileStorage, seat: MeetingSeat, options: { recordingId: string; seq: number; body: Buffer; now: Date }): Promise<void> {
  assertDoctor(seat);
  const row = await ownRecording(db, seat, options.recordingId);
  await files.put(chunkKey(row.appointmentId, row.id, options.seq), options.body, row.contentType);
  await db
    .updateTable('appointmentRecordings')
    .set((eb) => ({
      // The highest chunk seen + 1 (chunks may arrive out of order); portable, unlike greatest()/max().
      chunkCount: sql<number>`case when ${eb.ref('chunkCount')} > ${options.seq + 1} then ${eb.ref('chunkCount')} else ${options.seq + 1} end`,
      bytes: eb('bytes', '+', options.body.length),
      updatedAt: options.now.toISOString(),
    }))
    .where('id', '=', row.id)
    .where('status', '=', 'recording')
    .execute();
}

/** The page stopped recording: no more chunks; the file is processed after the delay. */
export async function finishRecording(db: Executor, seat: MeetingSeat, recordingId: string, now: Date): Promise<void> {
  assertDoctor(seat);
  const row = await ownRecording(db, seat, recordingId);
  await db.updateTable('appointmentRecordings').set({ status: 'processing', finishedAt: now.toISOString(), updatedAt: now.toISOString() }).where('id', '=', row.id).where('status', '=', 'recording').execute();
}

/**
 * Joins the chunks of one `processing` recording into a single file and lists it (`ready`, with
 * `appointment.recording.ready`). Safe to run twice: the file's key is fixed and only one
 * conditional UPDATE wins, so the event is written once. Missing chunks (an upload lost for good)
 * are skipped: the file holds what arrived.
 */
export async function processRecording(db: Db, files: FileStorage, recordingId: string, now: Date): Promise<boolean> {
  const row = await db.selectFrom('appointmentRecordings').selectAll().where('id', '=', recordingId).where('status', '=', 'processing').executeTakeFirst();
  if (!row) return false;
  const keys = Array.from({ length: Math.min(row.chunkCount, MAX_CHUNKS) }, (_, seq) => chunkKey(row.appointmentId, row.id, seq));
  const parts = (await Promise.all(keys.map((key) => files.get(key)))).filter((part): part is Buffer => part !== null);
  const body = Buffer.concat(parts);
  const storageKey = `recordings/${row.appointmentId}/${row.id}.${extensionOf(row.contentType)}`;
  if (body.length > 0) await files.put(storageKey, body, row.contentType);
  const stamp = now.toISOString();
  const done = await db.transaction().execute(async (tx) => {
    const updated = await tx
      .updateTable('appointmentRecordings')
      .set(body.length > 0 ? { status: 'ready', storageKey, bytes: body.length, readyAt: stamp, updatedAt: stamp } : { status: 'empty', readyAt: stamp, updatedAt: stamp })
      .where('id', '=', row.id)
      .where('status', '=', 'processing')
      .returningAll()
      .executeTakeFirst();
    if (!updated || body.length === 0) return false;
    const appointment = await tx.selectFrom('appointments').selectAll().where('id', '=', row.appointmentId).executeTakeFirstOrThrow();
    await emitAppointmentEvent(tx, appointment, 'appointment.recording.ready', now, { recordingId: row.id, contentType: row.contentType, bytes: body.length });
    return true;
  });
  if (done || body.length === 0) await files.delete(keys);
  return done;
}
