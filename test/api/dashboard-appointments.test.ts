import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { bookAppointment, put } from '../support/appointments';
import { signedInOwner } from '../support/dashboard';
import { memberOf, setRole } from '../support/dashboard-members';

/**
 * The dashboard's appointments: the organisation's, in the mode, newest start first, keyset-paged, filtered
 * by status and day; a detail with participants, status and times, never medical content or meeting links; every role
 * reads; tenant and mode isolation.
 */
const clock = new FakeClock(new Date('2026-03-02T08:00:00.000Z'));
let app: TestApp;
let clinic: Tenant;
const booked: string[] = [];
beforeAll(async () => {
  app = await startTestApp({ clock });
  clinic = await createTenant(app);
  // Five appointments a day apart (03-02 09:00 … 03-06 09:00); the second one cancelled.
  for (let day = 0; day < 5; day += 1) booked.push((await bookAppointment(app, clinic.test, { startInMs: 3_600_000 + day * 86_400_000 })).appointmentId);
  expect((await put(app, clinic.test, `/api/v1/appointment/cancel?appointmentId=${booked[1]}`)).status).toBe(200);
});
afterAll(() => app.stop());

describe('GET /dashboard/api/appointments', () => {
  it('lists the organisation\'s appointments newest first in keyset pages, with participants\' names and roles only', async () => {
    const member = await memberOf(app, clinic.organisationId, 'analyst');
    const first = await member.get('/appointments?limit=2');
    expect(first.status).toBe(200);
    expect(first.json.data.map((a: { _id: string }) => a._id)).toEqual([booked[4], booked[3]]);
    expect(first.json.data[0].participants).toEqual([
      { firstName: 'Amaka', lastName: 'Eze', role: 'patient', liveliness: expect.any(String), firstJoinedAt: null },
      { firstName: 'Tunde', lastName: 'Bakare', role: 'doctor', liveliness: expect.any(String), firstJoinedAt: null },
    ]);
    expect(JSON.stringify(first.json.data)).not.toMatch(/participantKey|MeetingLink|doctorNotes|prescriptions|@example\.com/);
    const second = await member.get(`/appointments?limit=2&cursor=${first.json.nextCursor}`);
    expect(second.json.data.map((a: { _id: string }) => a._id)).toEqual([booked[2], booked[1]]);
    const last = await member.get(`/appointments?limit=2&cursor=${second.json.nextCursor}`);
    expect(last.json.data.map((a: { _id: string }) => a._id)).toEqual([booked[0]]);
    expect(last.json.nextCursor).toBeNull();
  });

  it('filters by status and by day', async () => {
    const member = await memberOf(app, clinic.organisationId, 'developer');
    const cancelled = await member.get('/appointments?status=cancelled');
    expect(cancelled.json.data.map((a: { _id: string }) => a._id)).toEqual([booked[1]]);
    expect(cancelled.json.data[0].appointmentStatus).toBe('cancelled');
    const oneDay = await member.get('/appointments?from=2026-03-04&to=2026-03-04');
    expect(oneDay.json.data.map((a: { _id: string }) => a._id)).toEqual([booked[2]]);
    const fromDay = await member.get('/appointments?from=2026-03-05');
    expect(fromDay.json.data.map((a: { _id: string }) => a._id)).toEqual([booked[4], booked[3]]);
  });

  it.each([['status=lost'], ['from=03-04-2026'], ['limit=0'], ['cursor=nonsense']])('when the query has %s, then 400 invalid_request', async (query) => {
    const member = await memberOf(app, clinic.organisationId);
    const res = await member.get(`/appointments?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_request');
  });

  it('shows one appointment\'s status, times and participants, with counts of medical records but not their content', async () => {
    const member = await memberOf(app, clinic.organisationId);
    const res = await member.get(`/appointments/${booked[1]}`);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      _id: booked[1],
      appointmentStatus: 'cancelled',
      cancellationReason: 'organisation',
      appointmentStartTime: '2026-03-03T09:00:00.000Z',
      participants: [{ firstName: 'Amaka', role: 'patient' }, { firstName: 'Tunde', role: 'doctor' }],
      records: { doctorNotes: 0, prescriptions: 0, recordings: 0, summaries: false },
    });
  });

  it('another organisation\'s appointment answers 404, its list is empty, and live mode does not see test appointments', async () => {
    const stranger = await signedInOwner(app);
    expect((await stranger.get(`/appointments/${booked[0]}`)).status).toBe(404);
    expect((await stranger.get('/appointments')).json.data).toEqual([]);
    const member = await memberOf(app, clinic.organisationId);
    member.mode = 'live';
    expect((await member.get('/appointments')).json.data).toEqual([]);
    expect((await member.get(`/appointments/${booked[0]}`)).status).toBe(404);
  });

  it('every role reads; signed out answers 401', async () => {
    const member = await memberOf(app, clinic.organisationId);
    for (const role of ['owner', 'admin', 'developer', 'analyst'] as const) {
      await setRole(app, member.userId, role);
      expect((await member.get('/appointments')).status).toBe(200);
    }
    member.cookie = undefined;
    expect((await member.get('/appointments')).json.error).toBe('session_required');
  });
});
