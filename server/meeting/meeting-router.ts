import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import type { Platform } from '../platform/platform';
import { AppError, notFound } from '../platform/domain/errors';
import { fullName, notesOf, participantsOf, prescriptionsOf } from '../platform/domain/appointments/appointment';
import { findSeat, meetingClosedReason, openSeat, type MeetingSeat } from '../platform/domain/appointments/meeting-access';
import { meetingLocale } from '../platform/domain/appointments/meeting-locale';
import type { Locale } from '../shared/locales';
import { submitDoctorNote, submitPrescription } from '../platform/domain/appointments/consultation-records';
import { completeAppointment, delaysFor } from '../platform/domain/appointments/complete-appointment';
import { finishRecording, RECORDING_CONTENT_TYPES, startRecording, storeRecordingChunk } from '../platform/domain/appointments/recordings';
import { prescriptionPdf } from '../platform/domain/appointments/prescription-pdf';
import { signPrescriptionLink, verifyPrescriptionLink } from '../platform/domain/appointments/prescription-link';
import { FILE_LINK_PURPOSE, verifyPath } from '../platform/domain/appointments/signed-link';
import { LocalFileStorage } from '../integrations/file-storage';
import { isUuid } from '../platform/domain/ids';
import { MEETING_PAGE_CSP, renderMeetingPage } from './meeting-page';
import { staticAssets } from '../checkout/static-assets';
import { roomsOf } from './meeting-rooms';
import { attachSignalling } from './signalling';
import { safeName } from '../shared/safe-text';
import { readCookie } from '../shared/read-cookie';
import { inUnitOfWork } from '../platform/domain/unit-of-work';

/**
 * The meeting pages and their endpoints, served by the platform itself:
 * - `GET /meet/j/<participantKey>`: the link from the appointment. A key that opens a meeting now is
 *   moved into an httpOnly cookie (SameSite=Lax, path /meet) and the browser sent on to `/meet/`, so
 *   the key leaves the address bar and history; any other key gets a page that names nothing.
 * - `GET /meet/`: the page (`<tm-meeting>` + `/meet/meeting.js`, its own bundle);
 * - `/meet/api/*`: JSON for the component (state, doctor's notes, prescriptions, recordings, end);
 * - `/meet/ws`: WebRTC signalling (see signalling.ts);
 * - `GET /prescriptions/<id>.pdf` and `GET /files/<key>`: signed, short-lived links, no credential.
 */
export const MEETING_COOKIE = 'tm_meeting';
const MEETING_BUNDLE = path.resolve('dist/meeting/meeting.js');

const Text = (max: number) => z.string().trim().min(1).max(max);
const NoteBody = z
  .object({
    symptomsandIllnesses: Text(4000),
    diagnosis: Text(2000),
    treatmentandRecommendation: Text(4000),
    doctorSignature: safeName({ max: 200 }),
  })
  .strict();
const PrescriptionBody = z
  .object({
    prescribedDrugs: z.array(z.object({ drugName: Text(200), dosage: Text(100), frequency: Text(100), duration: Text(100) }).strict()).min(1).max(30),
    additionalNotes: z.string().trim().max(2000).default(''),
  })
  .strict();
const RecordingBody = z.object({ contentType: z.string().transform((v) => v.split(';')[0]!.trim()).pipe(z.enum(RECORDING_CONTENT_TYPES)) }).strict();

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError('invalid_request', `${['body', ...issue.path.map(String)].join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

export function createMeetingRouter(platform: Platform) {
  const router = express.Router();
  const window = { earlyJoinMinutes: platform.config.APPOINTMENT_EARLY_JOIN_MINUTES };
  const rooms = roomsOf(platform);
  const page = (res: Response, status: number, html: string) => {
    // The language may come from Accept-Language (meetingLocale).
    res.setHeader('Vary', 'Accept-Language');
    res.setHeader('Content-Security-Policy', MEETING_PAGE_CSP);
    res.setHeader('Permissions-Policy', 'camera=(self), microphone=(self), display-capture=()');
    res.setHeader('Cache-Control', 'no-store');
    res.status(status).type('html').send(html);
  };
  const seatOf = (req: Request) => openSeat(platform.db, platform.secrets, readCookie(req.headers.cookie, MEETING_COOKIE) ?? '', platform.clock.now(), window);

  /**
   * The page for a seat that opens nothing now (null: it opens), in the participant's language
   * (`meetingLocale`); a key that names no seat gets the invalid page in the browser's language.
   */
  const closedPage = (seat: MeetingSeat | null, locale: Locale): { status: number; html: string } | null => {
    if (!seat) return { status: 404, html: renderMeetingPage('invalid', { locale }) };
    const closed = meetingClosedReason(seat.appointment, platform.clock.now(), window);
    if (closed === 'too_early') {
      const opensAt = new Date(new Date(seat.appointment.startTime).getTime() - window.earlyJoinMinutes * 60_000).toISOString();
      return { status: 403, html: renderMeetingPage('too_early', { locale, opensAt }) };
    }
    if (closed) return { status: 410, html: renderMeetingPage(closed === 'cancelled' ? 'cancelled' : 'ended', { locale }) };
    return null;
  };

  router.get('/meet/j/:key', async (req, res) => {
    const seat = await findSeat(platform.db, platform.secrets, req.params.key);
    const closed = closedPage(seat, meetingLocale(seat, req.get('accept-language')).locale);
    if (closed) return page(res, closed.status, closed.html);
    // Secure whenever the public origin is https, also when TLS ends at a proxy in front of this plain-http server.
    res.cookie(MEETING_COOKIE, req.params.key, { httpOnly: true, secure: platform.baseUrl.startsWith('https:') || req.secure, sameSite: 'lax', path: '/meet' });
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, '/meet/');
  });

  router.get('/meet/', async (req, res) => {
    const key = readCookie(req.headers.cookie, MEETING_COOKIE);
    const seat = key ? await findSeat(platform.db, platform.secrets, key) : null;
    const { locale } = meetingLocale(seat, req.get('accept-language'));
    const closed = closedPage(seat, locale);
    if (closed) return page(res, closed.status, closed.html);
    page(res, 200, renderMeetingPage('ready', { locale }));
  });

  const meetingAssets = staticAssets(path.dirname(MEETING_BUNDLE));
  router.get('/meet/meeting.js', (req, res) => {
    // Precompressed at build (brotli, gzip), picked by Accept-Encoding.
    const hashed = meetingAssets.hashed(path.basename(MEETING_BUNDLE));
    if (hashed) return meetingAssets.send(req, res, hashed, 'short');
    if (!fs.existsSync(MEETING_BUNDLE)) throw new AppError('SERVICE_UNAVAILABLE', 'The meeting page is not built (npm run build:meeting).');
    res.sendFile(MEETING_BUNDLE, { maxAge: '5m', headers: { 'content-type': 'application/javascript; charset=utf-8' } });
  });

  const api = express.Router();
  api.use((req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    if (req.method === 'POST' && !req.is('application/json')) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
    next();
  });
  api.use(express.json({ limit: 64 * 1024, strict: true }));

  const stateOf = async (seat: MeetingSeat) => {
    const { appointment, participant } = seat;
    const people = await participantsOf(platform.db, [appointment.id]);
    const doctor = participant.role === 'doctor';
    return {
      meetingId: appointment.meetingId,
      appointmentStartTime: appointment.startTime,
      appointmentEndTime: appointment.endTime,
      appointmentStatus: appointment.status,
      self: { clientId: participant.clientId, name: fullName(participant), role: participant.role },
      participants: people.map((p) => ({ clientId: p.clientId, name: fullName(p), role: p.role, liveliness: p.liveliness })),
      iceServers: platform.config.MEETING_ICE_SERVERS.map((urls) => ({ urls })),
      recordingChunkMaxBytes: platform.config.RECORDING_CHUNK_MAX_BYTES,
      // The doctor sees what has been submitted; the patient gets the summary from the clinic later.
      ...(doctor ? { doctorNotes: await notesOf(platform.db, appointment.id), prescriptions: await prescriptionsOf(platform.db, appointment.id) } : {}),
    };
  };
  const ok = (res: Response, status: number, message: string, data?: unknown) => res.status(status).json({ status, success: true, message, ...(data === undefined ? {} : { data }) });

  api.get('/state', async (req, res) => ok(res, 200, 'Meeting', await stateOf(await seatOf(req))));

  api.post('/notes', async (req, res) => {
    const seat = await seatOf(req);
    const body = parse(NoteBody, req.body);
    await submitDoctorNote(platform.db, seat, body, platform.clock.now());
    ok(res, 201, 'Notes saved', { doctorNotes: await notesOf(platform.db, seat.appointment.id) });
  });

  api.post('/prescriptions', async (req, res) => {
    const seat = await seatOf(req);
    const body = parse(PrescriptionBody, req.body);
    const now = platform.clock.now();
    await submitPrescription(platform.db, seat, body, now);
    const link = signPrescriptionLink(platform.secrets, { baseUrl: '', appointmentId: seat.appointment.id, now, ttlSeconds: platform.config.FILE_LINK_TTL_SECONDS });
    ok(res, 201, 'Prescription saved', { prescriptions: await prescriptionsOf(platform.db, seat.appointment.id), prescriptionUrl: link.url });
  });

  api.post('/end', async (req, res) => {
    const seat = await seatOf(req);
    if (seat.participant.role !== 'doctor') throw new AppError('doctor_only', 'Only the doctor can end the consultation.');
    const now = platform.clock.now();
    const completed = await inUnitOfWork(platform.db, (tx) => completeAppointment(tx, seat.appointment, { now, by: 'doctor', delays: delaysFor(platform.config, seat.appointment.mode) }));
    if (!completed) throw new AppError('invalid_appointment_state', 'The consultation has not started (nobody has joined yet).');
    // Every process closes its sockets of the room (through the bus); the appointment is completed either way.
    await rooms.end(seat.appointment.id).catch((error) => platform.logger.warn({ err: error }, 'meeting: could not announce the end'));
    ok(res, 200, 'Consultation ended', { appointmentStatus: completed.status });
  });

  api.post('/recordings', async (req, res) => {
    const seat = await seatOf(req);
    const body = parse(RecordingBody, req.body);
    ok(res, 201, 'Recording started', await startRecording(platform.db, seat, body.contentType, platform.clock.now()));
  });

  // Chunks may arrive a little after the doctor ended the call (the recorder's last slice): the key
  // must still be the doctor's, and the recording still open, but the meeting need not be.
  const recordingSeat = async (req: Request) => {
    const seat = await findSeat(platform.db, platform.secrets, readCookie(req.headers.cookie, MEETING_COOKIE) ?? '');
    if (!seat || seat.appointment.status === 'cancelled') throw new AppError('meeting_not_open', 'This meeting link is not valid now.');
    return seat;
  };
  api.put(
    '/recordings/:id/chunks/:seq',
    (req, _res, next) => {
      if (!req.is('audio/*')) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the chunk as audio/webm (or audio/ogg, audio/mp4).');
      next();
    },
    express.raw({ type: 'audio/*', limit: platform.config.RECORDING_CHUNK_MAX_BYTES }),
    async (req, res) => {
      const seat = await recordingSeat(req);
      const id = String(req.params.id);
      const seq = Number(req.params.seq);
      if (!isUuid(id)) throw notFound('Recording');
      if (!/^\d{1,6}$/.test(String(req.params.seq)) || seq >= 100_000) throw new AppError('invalid_request', 'path.seq: a chunk number from 0 to 99999');
      if (!Buffer.isBuffer(req.body) || req.body.length === 0) throw new AppError('invalid_request', 'body: an empty chunk');
      await storeRecordingChunk(platform.db, platform.files, seat, {
        recordingId: id,
        seq,
        body: req.body,
        now: platform.clock.now(),
        limits: { recordingMaxBytes: platform.config.RECORDING_MAX_BYTES, appointmentMaxBytes: platform.config.APPOINTMENT_RECORDINGS_MAX_BYTES },
        dialect: platform.dialect,
      });
      ok(res, 200, 'Chunk stored');
    },
  );

  api.post('/recordings/:id/finish', async (req, res) => {
    const seat = await recordingSeat(req);
    if (!isUuid(req.params.id)) throw notFound('Recording');
    await finishRecording(platform.db, seat, req.params.id, platform.clock.now());
    ok(res, 200, 'Recording finished');
  });
  api.use((req) => {
    throw new AppError('NOT_FOUND', `No route ${req.method} /meet/api${req.path}.`);
  });
  router.use('/meet/api', api);

  router.get('/prescriptions/:file', async (req, res) => {
    const match = /^([0-9a-f-]{36})\.pdf$/.exec(req.params.file);
    const appointmentId = match?.[1] ?? '';
    if (!match || !verifyPrescriptionLink(platform.secrets, { appointmentId, expires: req.query.expires, signature: req.query.signature }, platform.clock.now())) {
      throw new AppError('LINK_INVALID', 'This prescription link is invalid or has expired; read the appointment again for a fresh one.');
    }
    const appointment = await platform.db.selectFrom('appointments').selectAll().where('id', '=', appointmentId).executeTakeFirst();
    const pdf = appointment && (await prescriptionPdf(platform.db, appointment));
    if (!pdf) throw new AppError('NOT_FOUND', 'No such prescription.');
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('Content-Disposition', `inline; filename="prescription-${appointment!.meetingId}.pdf"`);
    res.type('application/pdf').send(pdf);
  });

  router.get(/^\/files\/(.+)$/, async (req, res) => {
    const key = (req.params as unknown as string[])[0]!;
    const files = platform.files;
    if (!(files instanceof LocalFileStorage) || !verifyPath(platform.secrets, FILE_LINK_PURPOSE, { path: `/files/${key}`, expires: req.query.expires, signature: req.query.signature }, platform.clock.now())) {
      throw new AppError('LINK_INVALID', 'This file link is invalid or has expired; read the appointment again for a fresh one.');
    }
    const file = files.pathOf(key);
    if (!fs.existsSync(file)) throw new AppError('NOT_FOUND', 'No such file.');
    const type = key.endsWith('.ogg') ? 'audio/ogg' : key.endsWith('.m4a') ? 'audio/mp4' : key.endsWith('.webm') ? 'audio/webm' : 'application/octet-stream';
    // sendFile answers Range requests, which audio players use to seek.
    res.sendFile(file, { headers: { 'content-type': type, 'cache-control': 'private, no-store' } });
  });
  return router;
}

export function attachMeetingSignalling(server: http.Server, platform: Platform): { close(): void } {
  return attachSignalling(server, platform, roomsOf(platform));
}
