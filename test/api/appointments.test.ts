import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { fromJson } from '../../server/platform/db/database';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { appointmentBody, bookAppointment, put } from '../support/appointments';

/** The telemedicine appointment API (spec part A) on the real app, on the injectable clock. */
const clock = new FakeClock('2026-12-01T08:00:00.000Z');
let app: TestApp;
let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await createTenant(app);
  other = await createTenant(app);
});
afterAll(() => app?.stop());

const api = () => client(app, tenant.test);
const minutes = (n: number) => n * 60_000;

async function counts() {
  const db = app.platform.db;
  return {
    appointments: (await db.selectFrom('appointments').select('id').execute()).length,
    participants: (await db.selectFrom('appointmentParticipants').select('id').execute()).length,
    events: (await db.selectFrom('events').select('id').execute()).length,
  };
}

async function eventsOf(appointmentId: string) {
  const rows = await app.platform.db.selectFrom('events').select(['name', 'payload']).orderBy('id').execute();
  return rows.map((r) => ({ name: r.name, data: fromJson<Record<string, unknown>>(r.payload)! })).filter((e) => e.data.appointmentId === appointmentId);
}

describe('POST /api/v1/appointment/create', () => {
  it('books a scheduled appointment and answers the spec shape with a key and a link per participant', async () => {
    const body = appointmentBody({ now: clock.now() });
    const res = await api().post('/api/v1/appointment/create', body);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      ['success', 'appointmentId', 'meetingId', 'appointmentStartTime', 'appointmentEndTime', 'appointmentStatus', 'organisationId', 'authOrgId', 'participants'].sort(),
    );
    expect(res.body).toMatchObject({
      success: true,
      appointmentStartTime: body.appointmentStartTime,
      appointmentEndTime: body.appointmentEndTime,
      appointmentStatus: 'scheduled',
      organisationId: tenant.organisationId,
      authOrgId: tenant.organisationId,
      meetingId: expect.stringMatching(/^[a-z]{3}-[a-z]{4}-[a-z]{3}$/),
    });
    expect(res.body.participants).toHaveLength(2);
    const [patient, doctor] = res.body.participants;
    expect(patient).toEqual({
      participant: { firstName: 'Amaka', lastName: 'Eze', email: 'amaka@example.com', phoneNumber: '+2348031234567', role: 'patient', communicationsUserClientID: expect.any(String) },
      participantKey: expect.stringMatching(/^mk_[0-9A-Za-z]{32}$/),
      participantMeetingLink: `${app.url.replace('127.0.0.1', 'localhost')}/meet/j/${patient.participantKey}`,
      liveliness: 'waiting',
    });
    expect(doctor.participant.role).toBe('doctor');
    expect(doctor.participantKey).not.toBe(patient.participantKey);
    const events = await eventsOf(res.body.appointmentId);
    expect(events.map((e) => e.name)).toEqual(['appointment.created']);
    expect(events[0]!.data).toMatchObject({ appointmentId: res.body.appointmentId, appointmentStatus: 'scheduled' });
    // The key is kept only hashed and sealed.
    const stored = await app.platform.db.selectFrom('appointmentParticipants').selectAll().where('appointmentId', '=', res.body.appointmentId).execute();
    expect(JSON.stringify(stored)).not.toContain(patient.participantKey);
  });

  it('accepts the key pair under lower-case header names', async () => {
    const res = await fetch(`${app.url}/api/v1/appointment/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-public-key': tenant.test.publicKey, 'x-api-secret-key': tenant.test.secretKey },
      body: JSON.stringify(appointmentBody({ now: clock.now() })),
    });
    expect(res.status).toBe(200);
  });

  it('answers 401 without a key pair', async () => {
    const res = await client(app).post('/api/v1/appointment/create', appointmentBody({ now: clock.now() }));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: 'UNAUTHENTICATED' });
  });

  const invalid: Array<[string, (b: any) => void, string]> = [
    ['no start time', (b) => delete b.appointmentStartTime, 'body.appointmentStartTime'],
    ['a start time that is not ISO 8601', (b) => (b.appointmentStartTime = '01/12/2026 10:00'), 'body.appointmentStartTime'],
    ['a start time without a zone', (b) => (b.appointmentStartTime = '2026-12-01T10:00:00'), 'body.appointmentStartTime'],
    ['an end before the start', (b) => (b.appointmentEndTime = new Date(new Date(b.appointmentStartTime).getTime() - 60_000).toISOString()), 'body.appointmentEndTime'],
    ['an end equal to the start', (b) => (b.appointmentEndTime = b.appointmentStartTime), 'body.appointmentEndTime'],
    ['no doctor', (b) => (b.participants[1].role = 'patient'), 'body.participants'],
    ['only one participant', (b) => b.participants.pop(), 'body.participants'],
    ['an unknown role', (b) => (b.participants[0].role = 'nurse'), 'body.participants.0.role'],
    ['a bad e-mail', (b) => (b.participants[0].email = 'amaka-at-example'), 'body.participants.0.email'],
    ['a bad phone number', (b) => (b.participants[1].phoneNumber = '12345'), 'body.participants.1.phoneNumber'],
    ['no first name', (b) => delete b.participants[0].firstName, 'body.participants.0.firstName'],
    ['an unknown field', (b) => (b.room = 'blue'), 'body'],
  ];
  it.each(invalid)('with %s answers 400 naming the field and creates nothing', async (_name, mutate, field) => {
    const body = appointmentBody({ now: clock.now() });
    mutate(body);
    const before = await counts();
    const res = await api().post('/api/v1/appointment/create', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, success: false, error: 'invalid_request' });
    expect(res.body.message.startsWith(field)).toBe(true);
    expect(await counts()).toEqual(before);
  });

  it('refuses a start time in the past with 400 appointment_time_in_past', async () => {
    const before = await counts();
    const res = await api().post('/api/v1/appointment/create', appointmentBody({ now: clock.now(), startInMs: -minutes(1) }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'appointment_time_in_past', message: expect.stringContaining('body.appointmentStartTime') });
    expect(await counts()).toEqual(before);
  });
});

describe('GET /api/v1/appointment', () => {
  it('returns the full appointment with notes and prescriptions empty and the later fields absent', async () => {
    const booked = await bookAppointment(app, tenant.test);
    const res = await api().get(`/api/v1/appointment?appointmentId=${booked.appointmentId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      _id: booked.appointmentId,
      meetingId: booked.meetingId,
      appointmentStatus: 'scheduled',
      organisationId: tenant.organisationId,
      authOrgId: tenant.organisationId,
      prescriptions: [],
      doctorNotes: [],
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
    });
    expect(res.body.participants).toEqual(booked.participants);
    for (const absent of ['audioRecordingURLs', 'transcriptionSummary', 'patientSummary', 'prescriptionUrl']) expect(res.body).not.toHaveProperty(absent);
  });

  it('answers 404 for another organisation\'s appointment, another mode\'s, an unknown id and a malformed one', async () => {
    const booked = await bookAppointment(app, tenant.test);
    const theirs = await client(app, other.test).get(`/api/v1/appointment?appointmentId=${booked.appointmentId}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ status: 404, success: false, message: expect.any(String), error: 'NOT_FOUND', docUrl: `${app.url}/docs/errors#NOT_FOUND` });
    expect(JSON.stringify(theirs.body)).not.toContain(booked.meetingId);
    expect((await client(app, tenant.live).get(`/api/v1/appointment?appointmentId=${booked.appointmentId}`)).status).toBe(404);
    expect((await api().get('/api/v1/appointment?appointmentId=00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await api().get('/api/v1/appointment?appointmentId=not-an-id')).status).toBe(404);
  });

  it('answers 400 naming appointmentId when it is missing', async () => {
    const res = await api().get('/api/v1/appointment');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^query\.appointmentId/);
  });

  it('answers an unknown appointment route with 404 in the error envelope', async () => {
    const res = await api().get('/api/v1/appointment/nothing-here');
    expect(res.body).toMatchObject({ status: 404, success: false, error: 'NOT_FOUND' });
  });
});

describe('GET /api/v1/appointment/organisation', () => {
  let lister: Tenant;
  beforeAll(async () => {
    lister = await createTenant(app);
    // 12 appointments on 2026-12-03 … 2026-12-14, one a day at 09:00 UTC.
    for (let day = 3; day <= 14; day++) {
      const start = new Date(`2026-12-${String(day).padStart(2, '0')}T09:00:00.000Z`);
      await bookAppointment(app, lister.test, { startInMs: start.getTime() - clock.now().getTime() });
    }
    await bookAppointment(app, other.test);
  });
  const list = (query: string) => client(app, lister.test).get(`/api/v1/appointment/organisation${query}`);

  it('pages 10 at a time by default, earliest first, with the spec\'s subset of fields', async () => {
    const first = await list('');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, total: 12, page: 1, limit: 10, totalPages: 2 });
    expect(first.body.appointments).toHaveLength(10);
    expect(first.body.appointments[0].appointmentStartTime).toBe('2026-12-03T09:00:00.000Z');
    const item = first.body.appointments[0];
    expect(Object.keys(item).sort()).toEqual(
      ['_id', 'meetingId', 'appointmentStartTime', 'appointmentEndTime', 'appointmentStatus', 'organisationId', 'authOrgId', 'participants', 'createdAt'].sort(),
    );
    expect(item.participants).toEqual([{ participant: { firstName: 'Amaka', lastName: 'Eze', role: 'patient' } }, { participant: { firstName: 'Tunde', lastName: 'Bakare', role: 'doctor' } }]);
    const second = await list('?page=2');
    expect(second.body).toMatchObject({ total: 12, page: 2, limit: 10, totalPages: 2 });
    expect(second.body.appointments.map((a: any) => a.appointmentStartTime)).toEqual(['2026-12-13T09:00:00.000Z', '2026-12-14T09:00:00.000Z']);
    const small = await list('?limit=5&page=3');
    expect(small.body).toMatchObject({ total: 12, page: 3, limit: 5, totalPages: 3 });
    expect(small.body.appointments).toHaveLength(2);
    expect((await list('?page=9')).body.appointments).toEqual([]);
  });

  it('filters by start day, both ends inclusive', async () => {
    const res = await list('?startDate=2026-12-05&endDate=2026-12-07');
    expect(res.body.total).toBe(3);
    expect(res.body.appointments.map((a: any) => a.appointmentStartTime.slice(0, 10))).toEqual(['2026-12-05', '2026-12-06', '2026-12-07']);
    expect((await list('?startDate=2026-12-14')).body.total).toBe(1);
    expect((await list('?endDate=2026-12-03')).body.total).toBe(1);
  });

  it('filters by status (CONFIRMED meaning scheduled)', async () => {
    const { body } = await list('?limit=1');
    const cancelled = body.appointments[0]._id;
    expect((await put(app, lister.test, `/api/v1/appointment/cancel?appointmentId=${cancelled}`)).status).toBe(200);
    const onlyCancelled = await list('?appointmentStatus=cancelled');
    expect(onlyCancelled.body.total).toBe(1);
    expect(onlyCancelled.body.appointments[0]._id).toBe(cancelled);
    expect((await list('?appointmentStatus=scheduled')).body.total).toBe(11);
    expect((await list('?appointmentStatus=CONFIRMED')).body.total).toBe(11);
    expect((await list('?appointmentStatus=completed')).body.total).toBe(0);
  });

  it.each([
    ['?appointmentStatus=done', 'query.appointmentStatus'],
    ['?startDate=2026-13-01', 'query.startDate'],
    ['?startDate=01-12-2026', 'query.startDate'],
    ['?endDate=2026-02-30', 'query.endDate'],
    ['?startDate=2026-12-10&endDate=2026-12-01', 'query.endDate'],
    ['?page=0', 'query.page'],
    ['?limit=101', 'query.limit'],
    ['?limit=ten', 'query.limit'],
  ])('answers 400 for %s naming %s', async (query, field) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'invalid_request' });
    expect(res.body.message.startsWith(field)).toBe(true);
  });
});

describe('PUT /api/v1/appointment/cancel', () => {
  it('cancels while the start is more than 5 minutes away, once, with one event', async () => {
    const booked = await bookAppointment(app, tenant.test, { startInMs: minutes(5) + 1000 });
    const res = await put(app, tenant.test, `/api/v1/appointment/cancel?appointmentId=${booked.appointmentId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Appointment cancelled' });
    const again = await put(app, tenant.test, `/api/v1/appointment/cancel?appointmentId=${booked.appointmentId}`);
    expect(again.status).toBe(200);
    expect(again.body.success).toBe(true);
    expect((await eventsOf(booked.appointmentId)).map((e) => e.name)).toEqual(['appointment.created', 'appointment.cancelled']);
    const read = await api().get(`/api/v1/appointment?appointmentId=${booked.appointmentId}`);
    expect(read.body).toMatchObject({ appointmentStatus: 'cancelled', cancellationReason: 'organisation' });
  });

  it('answers 400 when the start is exactly 5 minutes away, and when it is 4 minutes away, changing nothing', async () => {
    const booked = await bookAppointment(app, tenant.test, { startInMs: minutes(10) });
    clock.advance(minutes(5));
    const atFloor = await put(app, tenant.test, `/api/v1/appointment/cancel?appointmentId=${booked.appointmentId}`);
    expect(atFloor.status).toBe(400);
    expect(atFloor.body).toMatchObject({ success: false, error: 'appointment_cancellation_too_late' });
    clock.advance(minutes(1));
    const inside = await put(app, tenant.test, `/api/v1/appointment/cancel?appointmentId=${booked.appointmentId}`);
    expect(inside.body.error).toBe('appointment_cancellation_too_late');
    expect((await api().get(`/api/v1/appointment?appointmentId=${booked.appointmentId}`)).body.appointmentStatus).toBe('scheduled');
    expect((await eventsOf(booked.appointmentId)).map((e) => e.name)).toEqual(['appointment.created']);
  });

  it('answers 400 once the start time has passed, and for an appointment in progress', async () => {
    const booked = await bookAppointment(app, tenant.test, { startInMs: minutes(6) });
    clock.advance(minutes(7));
    const late = await put(app, tenant.test, `/api/v1/appointment/cancel?appointmentId=${booked.appointmentId}`);
    expect(late.status).toBe(400);
    expect(late.body.error).toBe('appointment_already_started');
    await app.platform.db.updateTable('appointments').set({ status: 'in-progress' }).where('id', '=', booked.appointmentId).execute();
    const started = await put(app, tenant.test, `/api/v1/appointment/cancel?appointmentId=${booked.appointmentId}`);
    expect(started.status).toBe(400);
    expect(started.body.error).toBe('appointment_already_started');
  });

  it('answers 404 for another organisation\'s appointment and leaves it alone', async () => {
    const booked = await bookAppointment(app, tenant.test);
    const res = await put(app, other.test, `/api/v1/appointment/cancel?appointmentId=${booked.appointmentId}`);
    expect(res.status).toBe(404);
    expect((await api().get(`/api/v1/appointment?appointmentId=${booked.appointmentId}`)).body.appointmentStatus).toBe('scheduled');
  });
});

describe('PUT /api/v1/appointment/modify-time', () => {
  it('moves a scheduled appointment and answers the nested shape; keys stay valid', async () => {
    const booked = await bookAppointment(app, tenant.test);
    const startTime = new Date(clock.now().getTime() + minutes(180)).toISOString();
    const endTime = new Date(clock.now().getTime() + minutes(200)).toISOString();
    const res = await put(app, tenant.test, `/api/v1/appointment/modify-time?appointmentId=${booked.appointmentId}`, { startTime, endTime });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: expect.any(String), appointment: { success: true, message: expect.any(String) } });
    const updated = res.body.appointment.updatedAppointment;
    expect(updated).toMatchObject({ _id: booked.appointmentId, appointmentStartTime: startTime, appointmentEndTime: endTime, appointmentStatus: 'scheduled' });
    expect(updated.participants.map((p: any) => p.participantKey)).toEqual(booked.participants.map((p) => p.participantKey));
    const events = await eventsOf(booked.appointmentId);
    expect(events.map((e) => e.name)).toEqual(['appointment.created', 'appointment.rescheduled']);
    expect(events[1]!.data).toMatchObject({ previousStartTime: booked.appointmentStartTime, appointmentStartTime: startTime });
  });

  it('refuses a start in the past with a message telling the caller to cancel instead, changing nothing', async () => {
    const booked = await bookAppointment(app, tenant.test);
    const res = await put(app, tenant.test, `/api/v1/appointment/modify-time?appointmentId=${booked.appointmentId}`, {
      startTime: new Date(clock.now().getTime() - minutes(30)).toISOString(),
      endTime: new Date(clock.now().getTime() + minutes(30)).toISOString(),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'appointment_time_in_past' });
    expect(res.body.message).toMatch(/cancel/i);
    expect((await api().get(`/api/v1/appointment?appointmentId=${booked.appointmentId}`)).body.appointmentStartTime).toBe(booked.appointmentStartTime);
  });

  it.each([
    ['an end before the start', (s: string) => ({ startTime: s, endTime: new Date(new Date(s).getTime() - 60_000).toISOString() }), 'body.endTime'],
    ['no end time', (s: string) => ({ startTime: s }), 'body.endTime'],
    ['a start that is not a date', () => ({ startTime: 'tomorrow', endTime: '2026-12-30T10:00:00Z' }), 'body.startTime'],
  ])('answers 400 for %s naming %s', async (_name, body, field) => {
    const booked = await bookAppointment(app, tenant.test);
    const res = await put(app, tenant.test, `/api/v1/appointment/modify-time?appointmentId=${booked.appointmentId}`, body(new Date(clock.now().getTime() + minutes(90)).toISOString()));
    expect(res.status).toBe(400);
    expect(res.body.message.startsWith(field)).toBe(true);
  });

  it('answers 400 for a cancelled appointment and 404 for another organisation\'s', async () => {
    const booked = await bookAppointment(app, tenant.test);
    const times = { startTime: new Date(clock.now().getTime() + minutes(120)).toISOString(), endTime: new Date(clock.now().getTime() + minutes(150)).toISOString() };
    expect((await put(app, other.test, `/api/v1/appointment/modify-time?appointmentId=${booked.appointmentId}`, times)).status).toBe(404);
    await put(app, tenant.test, `/api/v1/appointment/cancel?appointmentId=${booked.appointmentId}`);
    const res = await put(app, tenant.test, `/api/v1/appointment/modify-time?appointmentId=${booked.appointmentId}`, times);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_appointment_state');
  });
});
