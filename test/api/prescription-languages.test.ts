import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { appointmentBody } from '../support/appointments';
import { openMeetingLink, pdfText } from '../support/meeting';

/** Letters print Yoruba, Hausa and Igbo characters: the prescription of a patient with a Yoruba name. */
const clock = new FakeClock('2026-12-02T09:00:00.000Z');
let app: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  app = await startTestApp({ clock, env: { APPOINTMENT_EARLY_JOIN_MINUTES: '10' } });
  tenant = await createTenant(app);
});
afterAll(() => app?.stop());

describe('a prescription for a patient with a Yoruba name', () => {
  it('prints the name with its tone marks and under-dots, and a Hausa drug note with its hooked letters', async () => {
    const body = appointmentBody({ now: clock.now(), startInMs: 5 * 60_000 });
    body.participants[0] = { ...body.participants[0]!, firstName: 'Adébáyọ̀', lastName: 'Ọládìpọ̀' };
    const booked = await client(app, tenant.test).post('/api/v1/appointment/create', body);
    expect(booked.status).toBe(200);
    const doctorLink = booked.body.participants.find((p: any) => p.participant.role === 'doctor').participantMeetingLink;
    const { cookie } = await openMeetingLink(app, doctorLink);
    const prescription = {
      prescribedDrugs: [{ drugName: 'Paracetamol', dosage: '1 g', frequency: 'every 8 hours', duration: '3 days' }],
      additionalNotes: 'A sha da ruwa bayan cin abinci; kada a ƙara ba tare da likita ba. Ẹ mu omi tó pọ̀.',
    };
    const posted = await fetch(`${app.url}/meet/api/prescriptions`, { method: 'POST', headers: { cookie: cookie!, 'content-type': 'application/json' }, body: JSON.stringify(prescription) });
    expect(posted.status).toBe(201);

    const read = await client(app, tenant.test).get(`/api/v1/appointment?appointmentId=${booked.body.appointmentId}`);
    const url = new URL(read.body.prescriptionUrl);
    const pdf = await fetch(`${app.url}${url.pathname}${url.search}`);
    const text = (await pdfText(await pdf.arrayBuffer())).replace(/\s+/g, ' ').normalize('NFC');

    expect(pdf.status).toBe(200);
    expect(text).toContain('Adébáyọ̀ Ọládìpọ̀'.normalize('NFC'));
    expect(text).toContain('kada a ƙara ba tare da likita ba. Ẹ mu omi tó pọ̀.'.normalize('NFC'));
    expect(text).not.toMatch(/[\u0000-\u0008\u000e-\u001f?]/);
  });
});
