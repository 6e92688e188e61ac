import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { MEETING_PAGE_EN, MEETING_PAGE_TEXTS } from '../../server/shared/meeting-page-texts';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { appointmentBody } from '../support/appointments';

/**
 * The meeting page in the patient's language, without a browser. The language is the
 * participant's own, else (a patient's) the appointment's, else Accept-Language, else English; the
 * closed states (not valid, not open yet, ended, cancelled) are rendered in it by the server, and the
 * ready page hands it to `<tm-meeting locale>`. Every request here says `Accept-Language: en`, so
 * only the stored language can make a page Yorùbá.
 */
const clock = new FakeClock('2026-12-02T09:00:00.000Z');
const minutes = (n: number) => n * 60_000;
let app: TestApp;
let tenant: Tenant;

beforeAll(async () => {
  app = await startTestApp({ clock, env: { APPOINTMENT_EARLY_JOIN_MINUTES: '10' } });
  tenant = await createTenant(app);
});
afterAll(() => app?.stop());

const yo = MEETING_PAGE_TEXTS.yo;

async function book(options: { startInMs: number; locale?: string; patientLocale?: string; doctorLocale?: string }) {
  const body = appointmentBody({ now: clock.now(), startInMs: options.startInMs, minutes: 30 });
  const [patient, doctor] = body.participants as unknown as [Record<string, unknown>, Record<string, unknown>];
  if (options.patientLocale) patient.locale = options.patientLocale;
  if (options.doctorLocale) doctor.locale = options.doctorLocale;
  const res = await client(app, tenant.test).post('/api/v1/appointment/create', { ...body, ...(options.locale ? { locale: options.locale } : {}) });
  expect(res.status).toBe(200);
  const link = (role: string) => new URL(res.body.participants.find((p: any) => p.participant.role === role).participantMeetingLink).pathname;
  return { id: res.body.appointmentId as string, patient: link('patient'), doctor: link('doctor') };
}

/** A page as a browser asking for English gets it: the link, then (when it opens) the page behind the cookie. */
async function open(path: string, acceptLanguage = 'en-GB,en;q=0.9') {
  const link = await fetch(`${app.url}${path}`, { redirect: 'manual', headers: { 'accept-language': acceptLanguage } });
  if (link.status !== 303) return { status: link.status, html: await link.text(), vary: link.headers.get('vary') };
  const cookie = link.headers.get('set-cookie')!.split(';')[0]!;
  const page = await fetch(`${app.url}/meet/`, { headers: { cookie, 'accept-language': acceptLanguage } });
  return { status: page.status, html: await page.text(), vary: page.headers.get('vary') };
}

describe("the meeting page in the patient's language", () => {
  it('a Yorùbá appointment: the patient\'s page carries <tm-meeting locale="yo"> and <html lang="yo">, whatever the browser asks; the doctor\'s follows the doctor', async () => {
    const booked = await book({ startInMs: minutes(5), locale: 'yo' });
    const patient = await open(booked.patient);
    expect(patient.status).toBe(200);
    expect(patient.html).toContain('<html lang="yo">');
    expect(patient.html).toContain('<tm-meeting api="/meet/api" signalling="/meet/ws" locale="yo">');
    expect(patient.html).toContain(`<title>${yo['ready.title']}</title>`);
    expect(patient.html).toContain(yo['ready.body']);
    expect(patient.vary).toContain('Accept-Language');
    // The appointment's locale is the patient's language: the doctor (no locale of their own) gets the browser's.
    const doctor = await open(booked.doctor);
    expect(doctor.html).toContain('<tm-meeting api="/meet/api" signalling="/meet/ws" locale="en">');
    expect(doctor.html).toContain('<html lang="en">');
    const hausaDoctor = await open(booked.doctor, 'ha-NG,ha;q=0.9,en;q=0.5');
    expect(hausaDoctor.html).toContain('locale="ha"');
  });

  it("the participant's own locale wins over the appointment's; with neither, the browser's Accept-Language; else English", async () => {
    const own = await book({ startInMs: minutes(5), locale: 'yo', patientLocale: 'ig', doctorLocale: 'pcm' });
    expect((await open(own.patient)).html).toContain('locale="ig"');
    expect((await open(own.doctor)).html).toContain('locale="pcm"');
    const none = await book({ startInMs: minutes(5) });
    expect((await open(none.patient, 'fr-FR,ha;q=0.8')).html).toContain('<html lang="ha">');
    expect((await open(none.patient, 'fr-FR')).html).toContain('<tm-meeting api="/meet/api" signalling="/meet/ws" locale="en">');
  });

  it('not open yet: the state and the opening time (24-hour, with the zone, the day in Yorùbá) in Yorùbá', async () => {
    // Opens 10 minutes before a start at 10:00 UTC: 09:50 UTC, 10:50 in Lagos.
    const booked = await book({ startInMs: minutes(60), locale: 'yo' });
    const page = await open(booked.patient);
    expect(page.status).toBe(403);
    expect(page.html).toContain('<html lang="yo">');
    expect(page.html).toContain(`<h1>${yo['too_early.title']}</h1>`);
    expect(page.html).toContain(yo['too_early.body']);
    expect(page.html).toMatch(/Ó máa ṣí ní 10:50 WAT \(UTC\+1\), ní ọjọ́ 2 .+ 2026\./u);
    expect(page.html).not.toContain(MEETING_PAGE_EN['too_early.title']);
    expect(page.html).not.toContain('GMT');
    expect(page.html).not.toContain('tm-meeting');
  });

  it('cancelled, and ended: each in Yorùbá, naming nothing of the appointment', async () => {
    // Cancelled more than 5 minutes before the start (the API's rule); a cancelled meeting is cancelled whatever the time.
    const cancelled = await book({ startInMs: minutes(30), locale: 'yo' });
    expect((await client(app, tenant.test).call('PUT', `/api/v1/appointment/cancel?appointmentId=${cancelled.id}`)).status).toBe(200);
    const cancelledPage = await open(cancelled.patient);
    expect(cancelledPage.status).toBe(410);
    expect(cancelledPage.html).toContain('<html lang="yo">');
    expect(cancelledPage.html).toContain(`<h1>${yo['cancelled.title']}</h1>`);
    expect(cancelledPage.html).toContain(yo['cancelled.body']);

    const ended = await book({ startInMs: minutes(5), locale: 'yo' });
    clock.advance(minutes(40)); // past the end, never joined
    const endedPage = await open(ended.patient);
    clock.advance(-minutes(40));
    expect(endedPage.status).toBe(410);
    expect(endedPage.html).toContain('<html lang="yo">');
    expect(endedPage.html).toContain(`<h1>${yo['ended.title']}</h1>`);
    expect(endedPage.html).toContain(yo['ended.body']);
    for (const html of [cancelledPage.html, endedPage.html]) {
      expect(html).not.toContain('Amaka');
      expect(html).not.toContain('tm-meeting');
    }
  });

  it('a link that names no appointment: the browser\'s language (Hausa), else English', async () => {
    const wrong = `/meet/j/mk_${'A'.repeat(32)}`;
    const hausa = await open(wrong, 'ha-NG,en;q=0.5');
    expect(hausa.status).toBe(404);
    expect(hausa.html).toContain('<html lang="ha">');
    expect(hausa.html).toContain(`<h1>${MEETING_PAGE_TEXTS.ha['invalid.title']}</h1>`);
    const english = await open(wrong, 'fr-FR');
    expect(english.html).toContain('<html lang="en">');
    expect(english.html).toContain(`<h1>${MEETING_PAGE_EN['invalid.title']}</h1>`);
    // No cookie at all on /meet/: the same.
    const bare = await fetch(`${app.url}/meet/`, { headers: { 'accept-language': 'ig' } });
    expect(bare.status).toBe(404);
    expect(await bare.text()).toContain(`<h1>${MEETING_PAGE_TEXTS.ig['invalid.title']}</h1>`);
  });
});
