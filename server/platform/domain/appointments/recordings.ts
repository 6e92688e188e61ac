import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Db, Dialect, Executor } from '../../db/database';
import type { FileStorage } from '../ports';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import { assertDoctor, type MeetingSeat } from './meeting-access';
import { emitAppointmentEvent } from './appointment-events';
import { inUnitOfWork } from '../unit-of-work';

/**
 * Consultation recordings. The doctor's page records the call's audio (its own microphone mixed with
 * the other participants') with MediaRecorder and uploads it in numbered chunks while the call runs;
 * each page session is its own recording, so a reconnect or a split session gives a second file.
 * Chunks wait in the file store; the processing step (after the configured delay from the end of the
 * consultation) joins them in order into one file, deletes the chunks and lists the recording.
 *
 * Size caps: a recording holds at most `recordingMaxBytes` and an appointment's recordings together at
 * most `appointmentMaxBytes` (config `RECORDING_MAX_BYTES`, `APPOINTMENT_RECORDINGS_MAX_BYTES`). A chunk
 * that would pass either is refused (413) before anything of it is stored. A chunk sent again counts
 * again (the count is what was accepted, an upper bound on what is kept).
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

export interface RecordingLimits {
  recordingMaxBytes: number;
  appointmentMaxBytes: number;
}

/**
 * Stores chunk `seq` (0-based). Sending the same chunk again replaces it (a retried upload is harmless).
 * The chunk's bytes are counted against both caps in one transaction (the appointment row locked on
 * PostgreSQL, so two recordings of one appointment are counted one after the other) before it is
 * written; a refused chunk leaves nothing behind, and a failed write gives its bytes back.
 */
export async function storeRecordingChunk(
  db: Db,
  files: FileStorage,
  seat: MeetingSeat,
  options: { recordingId: string; seq: number; body: Buffer; now: Date; limits: RecordingLimits; dialect: Dialect },
): Promise<void> {
  assertDoctor(seat);
  const row = await ownRecording(db, seat, options.recordingId);
  const size = options.body.length;
  await inUnitOfWork(db, async (tx) => {
    await tx
      .selectFrom('appointments')
      .select('id')
      .where('id', '=', row.appointmentId)
      .$if(options.dialect === 'postgres', (q) => q.forUpdate())
      .execute();
    const recordings = await tx.selectFrom('appointmentRecordings').select(['id', 'bytes', 'status']).where('appointmentId', '=', row.appointmentId).execute();
    const mine = recordings.find((r) => r.id === row.id);
    if (!mine || mine.status !== 'recording') throw new AppError('recording_closed', 'This recording is finished; start a new one.');
    if (mine.bytes + size > options.limits.recordingMaxBytes) {
      throw new AppError('recording_too_large', `This recording has reached its size limit (${options.limits.recordingMaxBytes} bytes); finish it and start a new one.`);
    }
    const total = recordings.reduce((sum, r) => sum + r.bytes, 0);
    if (total + size > options.limits.appointmentMaxBytes) {
      throw new AppError('appointment_recordings_too_large', `This appointment's recordings have reached their size limit (${options.limits.appointmentMaxBytes} bytes); nothing more can be recorded.`);
    }
    await tx
      .updateTable('appointmentRecordings')
      .set((eb) => ({
        // The highest chunk seen + 1 (chunks may arrive out of order); portable, unlike greatest()/max().
        chunkCount: sql<number>`case when ${eb.ref('chunkCount')} > ${options.seq + 1} then ${eb.ref('chunkCount')} else ${options.seq + 1} end`,
        bytes: eb('bytes', '+', size),
        updatedAt: options.now.toISOString(),
      }))
      .where('id', '=', row.id)
      .where('status', '=', 'recording')
      .execute();
  });
  try {
    await files.put(chunkKey(row.appointmentId, row.id, options.seq), options.body, row.contentType);
  } catch (error) {
    await db.updateTable('appointmentRecordings').set((eb) => ({ bytes: eb('bytes', '-', size) })).where('id', '=', row.id).execute();
    throw error;
  }
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
 *
 * The join streams: the chunks are read one after the other from the store and piped into the
 * file (`FileStorage.putStream`); at most one chunk's read buffer is in memory, never the recording.
 */
export async function processRecording(db: Db, files: FileStorage, recordingId: string, now: Date): Promise<boolean> {
  const row = await db.selectFrom('appointmentRecordings').selectAll().where('id', '=', recordingId).where('status', '=', 'processing').executeTakeFirst();
  if (!row) return false;
  const keys = Array.from({ length: Math.min(row.chunkCount, MAX_CHUNKS) }, (_, seq) => chunkKey(row.appointmentId, row.id, seq));
  const present: string[] = [];
  let bytes = 0;
  for (const key of keys) {
    const size = await files.size(key);
    if (size === null || size === 0) continue;
    present.push(key);
    bytes += size;
  }
  const storageKey = `recordings/${row.appointmentId}/${row.id}.${extensionOf(row.contentType)}`;
  if (bytes > 0) await files.putStream(storageKey, Readable.from(chunksInOrder(files, present)), row.contentType, bytes);
  const stamp = now.toISOString();
  const done = await inUnitOfWork(db, async (tx) => {
    const updated = await tx
      .updateTable('appointmentRecordings')
      .set(bytes > 0 ? { status: 'ready', storageKey, bytes, readyAt: stamp, updatedAt: stamp } : { status: 'empty', readyAt: stamp, updatedAt: stamp })
      .where('id', '=', row.id)
      .where('status', '=', 'processing')
      .returningAll()
      .executeTakeFirst();
    if (!updated || bytes === 0) return false;
    const appointment = await tx.selectFrom('appointments').selectAll().where('id', '=', row.appointmentId).executeTakeFirstOrThrow();
    await emitAppointmentEvent(tx, appointment, 'appointment.recording.ready', now, { recordingId: row.id, contentType: row.contentType, bytes });
    return true;
  });
  if (done || bytes === 0) await files.delete(keys);
  return done;
}

/** The chunks' bytes in order, one chunk's stream at a time. */
async function* chunksInOrder(files: FileStorage, keys: string[]): AsyncGenerator<Buffer> {
  for (const key of keys) {
    const stream = await files.getStream(key);
    if (!stream) throw new Error(`recording chunk ${key} vanished while joining`);
    for await (const piece of stream) yield piece as Buffer;
  }
}
