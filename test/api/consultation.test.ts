import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { fromJson } from '../../server/platform/db/database';
import { sweepAppointments } from '../../server/platform/domain/appointments/sweep-appointments';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { bookAppointment } from '../support/appointments';
import { connectSignalling, openMeetingLink, pdfText, type SignallingClient } from '../support/meeting';

/**
 * The consultation behind the meeting links, without a browser: the page's cookie, the signalling
 * WebSocket, the doctor's endpoints, recordings, the sweep and the signed links, on the injectable clock.
 */
const clock = new FakeClock('2026-12-02T09:00:00.000Z');
let app: TestApp;
let tenant: Tenant;
const minutes = (n: number) => n * 60_000;

beforeAll(async () => {
  app = await startTestApp({
    clock,
    env: { APPOINTMENT_TEST_RECORDING_DELAY_SECONDS: '60', APPOINTMENT_TEST_SUMMARY_DELAY_SECONDS: '120', APPOINTMENT_EARLY_JOIN_MINUTES: '10', FILE_LINK_TTL_SECONDS: '300' },
  });
  tenant = await createTenant(app);
});
afterAll(() => app?.stop());

const sweep = () => sweepAppointments({ db: app.platform.db, files: app.platform.files, summariser: app.platform.summariser, settings: app.platform.settings, now: clock.now() });
const read = async (id: string) => (await client(app, tenant.test).get(`/api/v1/appointment?appointmentId=${id}`)).body;
async function eventNames(appointmentId: string) {
  const rows = await app.platform.db.selectFrom('events').select(['name', 'payload']).orderBy('id').execute();
  return rows.filter((r) => fromJson<{ appointmentId?: string }>(r.payload)?.appointmentId === appointmentId).map((r) => r.name);
}
const meetApi = (cookie: string, method: string, path: string, body?: unknown, type = 'application/json') =>
  fetch(`${app.url}/meet/api${path}`, {
    method,
    headers: { cookie, ...(body !== undefined ? { 'content-type': type } : {}) },
    body: body === undefined ? undefined : Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));

describe('meeting links', () => {
  it('open nothing for a wrong key, before the early-join margin, or once cancelled', async () => {
    const booked = await bookAppointment(app, tenant.test, { startInMs: minutes(30) });
    const [patient] = booked.participants;
    const wrong = await openMeetingLink(app, `${app.url}/meet/j/mk_${'A'.repeat(32)}`);
    expect(wrong.status).toBe(404);
    expect(wrong.cookie).toBeUndefined();
    expect(wrong.html).not.toContain('tm-meeting');
    const early = await openMeetingLink(app, patient!.participantMeetingLink);
    expect(early.status).toBe(403);
    expect(early.html).not.toContain('tm-meeting');
    expect(early.html).not.toContain('Amaka');
    await client(app, tenant.test).call('PUT', `/api/v1/appointment/cancel?appointmentId=${booked.appointmentId}`);
    clock.advance(minutes(25));
    const cancelled = await openMeetingLink(app, patient!.participantMeetingLink);
    expect(cancelled.status).toBe(410);
    expect(cancelled.html).not.toContain('tm-meeting');
    await expect(connectSignalling(app, `tm_meeting=${patient!.participantKey}`)).rejects.toMatchObject({ status: 403 });
  });

  it('move the key into a cookie within the window and refuse the WebSocket from another origin or without the key', async () => {
    const booked = await bookAppointment(app, tenant.test, { startInMs: minutes(5) });
    const opened = await openMeetingLink(app, booked.participants[0]!.participantMeetingLink);
    expect(opened.status).toBe(303);
    expect(opened.location).toBe('/meet/');
    expect(opened.cookie).toBe(`tm_meeting=${booked.participants[0]!.participantKey}`);
    const page = await fetch(`${app.url}/meet/`, { headers: { cookie: opened.cookie! } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<tm-meeting');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    await expect(connectSignalling(app, opened.cookie!, 'https://evil.example')).rejects.toMatchObject({ status: 403 });
    await expect(connectSignalling(app, 'tm_meeting=mk_nope')).rejects.toMatchObject({ status: 403 });
  });
});

describe('a consultation', () => {
  let booked: Awaited<ReturnType<typeof bookAppointment>>;
  let patientCookie: string;
  let doctorCookie: string;
  let patient: SignallingClient;
  let doctor: SignallingClient;
  const chunks = [Buffer.from('chunk-one:'), Buffer.from('chunk-two:'), Buffer.from('chunk-three')];

  beforeAll(async () => {
    clock.advance(minutes(60));
    booked = await bookAppointment(app, tenant.test, { startInMs: minutes(8), minutes: 30 });
    patientCookie = (await openMeetingLink(app, booked.participants[0]!.participantMeetingLink)).cookie!;
    doctorCookie = (await openMeetingLink(app, booked.participants[1]!.participantMeetingLink)).cookie!;
  });

  it('starts when the first participant joins inside the window, and liveliness shows who is connected', async () => {
    patient = await connectSignalling(app, patientCookie);
    const welcome = await patient.next((m) => m.type === 'welcome');
    expect(welcome).toEqual({ type: 'welcome', self: booked.participants[0]!.participant.communicationsUserClientID, peers: [] });
    const appointment = await read(booked.appointmentId);
    expect(appointment.appointmentStatus).toBe('in-progress');
    expect(appointment.participants.map((p: any) => p.liveliness)).toEqual(['active', 'waiting']);
    expect(await eventNames(booked.appointmentId)).toEqual(['appointment.created', 'appointment.started']);
    // Started: the organisation can no longer cancel it.
    expect((await client(app, tenant.test).call('PUT', `/api/v1/appointment/cancel?appointmentId=${booked.appointmentId}`)).body.error).toBe('appointment_already_started');
  });

  it('relays signalling between the two participants only', async () => {
    doctor = await connectSignalling(app, doctorCookie);
    const doctorId = booked.participants[1]!.participant.communicationsUserClientID;
    const patientId = booked.participants[0]!.participant.communicationsUserClientID;
    expect(await doctor.next((m) => m.type === 'welcome')).toMatchObject({ peers: [{ clientId: patientId, role: 'patient', name: 'Amaka Eze' }] });
    expect(await patient.next((m) => m.type === 'peer-joined')).toMatchObject({ peer: { clientId: doctorId, role: 'doctor' } });
    doctor.socket.send(JSON.stringify({ type: 'signal', to: patientId, data: { description: { type: 'offer', sdp: 'v=0' } } }));
    expect(await patient.next((m) => m.type === 'signal')).toEqual({ type: 'signal', from: doctorId, data: { description: { type: 'offer', sdp: 'v=0' } } });
    expect((await read(booked.appointmentId)).participants.map((p: any) => p.liveliness)).toEqual(['active', 'active']);
  });

  it('takes the doctor\'s notes and prescriptions (not the patient\'s), shown on the appointment at once', async () => {
    const note = { symptomsandIllnesses: 'Fever and chills for three days, headache', diagnosis: 'Uncomplicated malaria', treatmentandRecommendation: 'Artemether-lumefantrine, fluids and rest; return if vomiting', doctorSignature: 'Dr T. Bakare' };
    expect((await meetApi(patientCookie, 'POST', '/notes', note)).body).toMatchObject({ success: false, error: 'doctor_only' });
    const bad = await meetApi(doctorCookie, 'POST', '/notes', { ...note, diagnosis: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^body\.diagnosis/);
    expect((await meetApi(doctorCookie, 'POST', '/notes', note)).status).toBe(201);
    const prescription = { prescribedDrugs: [{ drugName: 'Artemether-Lumefantrine', dosage: '80/480 mg', frequency: 'twice daily', duration: '3 days' }, { drugName: 'Paracetamol', dosage: '1 g', frequency: 'every 8 hours as needed', duration: '5 days' }], additionalNotes: 'Take with food.' };
    expect((await meetApi(doctorCookie, 'POST', '/prescriptions', { ...prescription, prescribedDrugs: [] })).status).toBe(400);
    expect((await meetApi(doctorCookie, 'POST', '/prescriptions', prescription)).status).toBe(201);
    const appointment = await read(booked.appointmentId);
    expect(appointment.doctorNotes).toEqual([{ ...note, createdAt: expect.any(String) }]);
    expect(appointment.prescriptions).toEqual([{ ...prescription, createdAt: expect.any(String) }]);
    expect(appointment.prescriptionUrl).toMatch(/\/prescriptions\/[0-9a-f-]{36}\.pdf\?expires=\d+&signature=[0-9a-f]{64}$/);
  });

  it('serves the prescription PDF at its signed link, with prescriber, patient, each drug and the signature; tampered or expired links 403', async () => {
    const url = new URL((await read(booked.appointmentId)).prescriptionUrl);
    const res = await fetch(`${app.url}${url.pathname}${url.search}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const text = await pdfText(await res.arrayBuffer());
    for (const expected of ['Prescription', 'Tunde Bakare', 'Amaka Eze', 'Artemether-Lumefantrine', '80/480 mg', 'twice daily', '3 days', 'Paracetamol', 'Take with food.', 'Dr T. Bakare', 'Uncomplicated malaria']) {
      expect(text).toContain(expected);
    }
    // One hex digit changed (to another digit: a signature that already starts with 0 must still change).
    const tampered = await fetch(`${app.url}${url.pathname}${url.search.replace(/signature=(.)/, (_, c: string) => `signature=${c === '0' ? '1' : '0'}`)}`);
    expect(tampered.status).toBe(403);
    clock.advance(301_000);
    expect((await fetch(`${app.url}${url.pathname}${url.search}`)).status).toBe(403);
    clock.advance(-301_000);
  });

  it('records audio in chunks: a second session is a second file', async () => {
    const first = await meetApi(doctorCookie, 'POST', '/recordings', { contentType: 'audio/webm;codecs=opus' });
    expect(first.status).toBe(201);
    expect((await meetApi(patientCookie, 'POST', '/recordings', { contentType: 'audio/webm' })).body.error).toBe('doctor_only');
    // Out of order on purpose: the file follows the chunk numbers.
    expect((await meetApi(doctorCookie, 'PUT', `/recordings/${first.body.data.id}/chunks/1`, chunks[1], 'audio/webm')).status).toBe(200);
    expect((await meetApi(doctorCookie, 'PUT', `/recordings/${first.body.data.id}/chunks/0`, chunks[0], 'audio/webm')).status).toBe(200);
    expect((await meetApi(doctorCookie, 'PUT', `/recordings/${first.body.data.id}/chunks/2`, chunks[2], 'audio/webm')).status).toBe(200);
    expect((await meetApi(doctorCookie, 'PUT', `/recordings/${first.body.data.id}/chunks/3`, Buffer.from('x'), 'text/plain')).status).toBe(415);
    expect((await meetApi(doctorCookie, 'POST', `/recordings/${first.body.data.id}/finish`, {})).status).toBe(200);
    expect((await meetApi(doctorCookie, 'PUT', `/recordings/${first.body.data.id}/chunks/3`, Buffer.from('late'), 'audio/webm')).body.error).toBe('recording_closed');
    clock.advance(1_000);
    const second = await meetApi(doctorCookie, 'POST', '/recordings', { contentType: 'audio/webm' });
    expect((await meetApi(doctorCookie, 'PUT', `/recordings/${second.body.data.id}/chunks/0`, Buffer.from('second-session'), 'audio/webm')).status).toBe(200);
    // The second session's page goes away without finishing: the sweep closes it after the end.
  });

  it('completes when the doctor ends it: everyone is told, the links close', async () => {
    expect((await meetApi(patientCookie, 'POST', '/end', {})).body.error).toBe('doctor_only');
    const ended = await meetApi(doctorCookie, 'POST', '/end', {});
    expect(ended.body).toMatchObject({ success: true, data: { appointmentStatus: 'completed' } });
    expect(await patient.next((m) => m.type === 'ended')).toEqual({ type: 'ended' });
    await doctor.next((m) => m.type === 'ended');
    const appointment = await read(booked.appointmentId);
    expect(appointment.appointmentStatus).toBe('completed');
    expect(appointment.participants.map((p: any) => p.liveliness)).toEqual(['left', 'left']);
    for (const absent of ['audioRecordingURLs', 'transcriptionSummary', 'patientSummary']) expect(appointment).not.toHaveProperty(absent);
    expect((await openMeetingLink(app, booked.participants[0]!.participantMeetingLink)).status).toBe(410);
    expect((await meetApi(doctorCookie, 'POST', '/end', {})).body.error).toBe('meeting_not_open');
  });

  it('lists the recordings after the processing delay, as signed links that serve the joined audio (the unfinished session too)', async () => {
    clock.advance(59_000);
    await sweep();
    expect(await read(booked.appointmentId)).not.toHaveProperty('audioRecordingURLs');
    // The second session's page never said it finished: idle since before the end, it was closed by that sweep.
    expect((await app.platform.db.selectFrom('appointmentRecordings').select('status').where('appointmentId', '=', booked.appointmentId).execute()).map((r) => r.status).sort()).toEqual(['processing', 'processing']);
    clock.advance(2_000);
    await sweep();
    const appointment = await read(booked.appointmentId);
    expect(appointment.audioRecordingURLs).toHaveLength(2);
    const first = new URL(appointment.audioRecordingURLs[0]);
    const audio = await fetch(`${app.url}${first.pathname}${first.search}`);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/webm');
    expect(Buffer.from(await audio.arrayBuffer())).toEqual(Buffer.concat(chunks));
    expect((await fetch(`${app.url}${first.pathname}`)).status).toBe(403);
    const second = new URL(appointment.audioRecordingURLs[1]);
    expect(await (await fetch(`${app.url}${second.pathname}${second.search}`)).text()).toBe('second-session');
    // The chunks are gone once joined.
    const recordings = await app.platform.db.selectFrom('appointmentRecordings').selectAll().where('appointmentId', '=', booked.appointmentId).execute();
    for (const r of recordings) {
      expect(r.status).toBe('ready');
      expect(await app.platform.files.get(`recordings/${booked.appointmentId}/${r.id}/chunk-000000`)).toBeNull();
    }
  });

  it('adds both summaries after the summary delay, mentioning the diagnosis, once (with the transcript when speech-to-text is configured)', async () => {
    const appointment = await read(booked.appointmentId);
    expect(appointment).not.toHaveProperty('transcriptionSummary');
    clock.advance(minutes(2));
    // A speech-to-text adapter that reads the test's "audio" (text chunks) as its transcript.
    const speechToText = { transcribe: async (audio: Buffer) => `Patient reports: ${audio.toString()}` };
    await sweepAppointments({ db: app.platform.db, files: app.platform.files, summariser: app.platform.summariser, speechToText, settings: app.platform.settings, now: clock.now() });
    await sweep();
    const summarised = await read(booked.appointmentId);
    expect(summarised.transcriptionSummary).toContain('Uncomplicated malaria'.toLowerCase());
    expect(summarised.transcriptionSummary).toContain('Artemether-Lumefantrine 80/480 mg, twice daily, for 3 days');
    expect(summarised.patientSummary).toContain('Hello Amaka');
    expect(summarised.transcriptionSummary).toContain('Transcript excerpt: "Patient reports: chunk-one:chunk-two:chunk-three');
    expect(summarised.patientSummary).toContain("The doctor's diagnosis is uncomplicated malaria.");
    expect(summarised.patientSummary).toContain('Take Artemether-Lumefantrine (80/480 mg) twice a day for 3 days.');
    expect(await eventNames(booked.appointmentId)).toEqual([
      'appointment.created',
      'appointment.started',
      'appointment.completed',
      'appointment.recording.ready',
      'appointment.recording.ready',
      'appointment.summary.ready',
    ]);
    await patient.close();
    await doctor.close();
  });
});

describe('the sweep', () => {
  it('cancels an appointment nobody attended once its end time passes (unattended)', async () => {
    const booked = await bookAppointment(app, tenant.test, { startInMs: minutes(10), minutes: 20 });
    clock.advance(minutes(29));
    await sweep();
    expect((await read(booked.appointmentId)).appointmentStatus).toBe('scheduled');
    clock.advance(minutes(2));
    await sweep();
    await sweep();
    expect(await read(booked.appointmentId)).toMatchObject({ appointmentStatus: 'cancelled', cancellationReason: 'unattended' });
    expect(await eventNames(booked.appointmentId)).toEqual(['appointment.created', 'appointment.cancelled']);
  });

  it('completes an appointment in progress once its end time passes and nobody is connected', async () => {
    const booked = await bookAppointment(app, tenant.test, { startInMs: minutes(1), minutes: 15 });
    const cookie = (await openMeetingLink(app, booked.participants[0]!.participantMeetingLink)).cookie!;
    const patient = await connectSignalling(app, cookie);
    await patient.next((m) => m.type === 'welcome');
    clock.advance(minutes(20));
    await sweep();
    // Still connected: an overrunning consultation is not cut off (until the overrun limit).
    expect((await read(booked.appointmentId)).appointmentStatus).toBe('in-progress');
    await patient.close();
    await expect.poll(async () => (await read(booked.appointmentId)).participants[0].liveliness).toBe('left');
    await sweep();
    const appointment = await read(booked.appointmentId);
    expect(appointment.appointmentStatus).toBe('completed');
    expect(await eventNames(booked.appointmentId)).toEqual(['appointment.created', 'appointment.started', 'appointment.completed']);
  });
});
