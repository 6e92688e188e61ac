import { client, type KeyPair, type TestApp } from './harness';

/** A valid create body: a patient and a doctor, starting `startInMs` from `now` for `minutes`. */
export function appointmentBody(options: { now?: Date; startInMs?: number; minutes?: number } = {}) {
  const now = options.now ?? new Date();
  const start = new Date(now.getTime() + (options.startInMs ?? 3_600_000));
  const end = new Date(start.getTime() + (options.minutes ?? 30) * 60_000);
  return {
    appointmentStartTime: start.toISOString(),
    appointmentEndTime: end.toISOString(),
    participants: [
      { firstName: 'Amaka', lastName: 'Eze', email: 'amaka@example.com', phoneNumber: '08031234567', role: 'patient' },
      { firstName: 'Tunde', lastName: 'Bakare', email: 'dr.bakare@example.com', phoneNumber: '+2348059876543', role: 'doctor' },
    ],
  };
}

/** Books one appointment through the API and returns the create response body. */
export async function bookAppointment(app: TestApp, key: KeyPair, options: Parameters<typeof appointmentBody>[0] = {}) {
  const res = await client(app, key).post('/api/v1/appointment/create', appointmentBody({ now: app.platform.clock.now(), ...options }));
  if (res.status !== 200) throw new Error(`create appointment: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as {
    appointmentId: string;
    meetingId: string;
    appointmentStartTime: string;
    appointmentEndTime: string;
    participants: Array<{ participant: { role: string; firstName: string; communicationsUserClientID: string }; participantKey: string; participantMeetingLink: string; liveliness: string }>;
  };
}

export const put = (app: TestApp, key: KeyPair | undefined, path: string, body?: unknown) => client(app, key).call('PUT', path, { body });
