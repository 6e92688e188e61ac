import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppointmentSweep } from '../../server/workers/appointment-sweep';
import { LocalFileStorage } from '../../server/integrations/file-storage';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { appointmentBody, bookAppointment } from '../support/appointments';
import { pdfText } from '../support/meeting';
import { MEETING_EN, MEETING_TEXTS } from '../../widget/meeting/meeting-texts';
import { MEETING_PAGE_TEXTS } from '../../server/shared/meeting-page-texts';

/**
 * A whole consultation in the machine's Chromium against the real server: the patient (phone-sized)
 * and the doctor open their own links in two browser contexts with fake camera and microphone, the
 * peers connect over WebRTC, the doctor writes notes and a prescription and ends the consultation;
 * then the prescription PDF, the recording and both summaries appear (short test-mode delays).
 */
const ARTIFACTS = path.resolve('test-artifacts/meeting');
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
];

let app: TestApp;
let tenant: Tenant;
let browser: Browser;
let stopSweep: () => void;

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  app = await startTestApp({
    env: { APPOINTMENT_TEST_RECORDING_DELAY_SECONDS: '2', APPOINTMENT_TEST_SUMMARY_DELAY_SECONDS: '4', APPOINTMENT_SWEEP_INTERVAL_MS: '250' },
  });
  stopSweep = startAppointmentSweep(app.platform);
  tenant = await createTenant(app);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  stopSweep?.();
  await app?.stop();
});

const localUrl = (link: string) => `${app.url}${new URL(link).pathname}${new URL(link).search}`;
const read = async (id: string) => (await client(app, tenant.test).get(`/api/v1/appointment?appointmentId=${id}`)).body;

/** The states of the page's real RTCPeerConnections. */
const connectionStates = (page: Page) => page.evaluate(() => Object.values(document.querySelector('tm-meeting')!.connectionStates()));

async function join(context: BrowserContext, link: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(localUrl(link));
  // The key moved into the cookie: the address bar no longer carries it.
  expect(new URL(page.url()).pathname).toBe('/meet/');
  const joinButton = page.getByRole('button', { name: 'Join consultation' });
  await joinButton.waitFor();
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await joinButton.click();
  await page.getByRole('heading', { name: /^Consultation [a-z]{3}-[a-z]{4}-[a-z]{3}$/ }).waitFor();
  return page;
}

describe('a consultation in the browser', () => {
  it('patient and doctor meet over WebRTC; the doctor writes notes and a prescription and ends it; PDF, recording and summaries follow', async () => {
    const booked = await bookAppointment(app, tenant.test, { startInMs: 60_000, minutes: 30 });
    const [patientLink, doctorLink] = booked.participants.map((p) => p.participantMeetingLink);
    const patientContext = await browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: 'Mozilla/5.0 (Linux; Android 14) E2E', permissions: ['camera', 'microphone'] });
    const doctorContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['camera', 'microphone'] });
    try {
      const patient = await join(patientContext, patientLink!);
      await expect.poll(async () => (await read(booked.appointmentId)).appointmentStatus).toBe('in-progress');
      const doctor = await join(doctorContext, doctorLink!);

      // The peers connect: each page's RTCPeerConnection reaches `connected`, and video flows both ways.
      await patient.waitForFunction(() => Object.values(document.querySelector('tm-meeting')!.connectionStates()).includes('connected'), null, { timeout: 30_000 });
      await doctor.waitForFunction(() => Object.values(document.querySelector('tm-meeting')!.connectionStates()).includes('connected'), null, { timeout: 30_000 });
      expect(await connectionStates(patient)).toEqual(['connected']);
      expect(await connectionStates(doctor)).toEqual(['connected']);
      for (const page of [patient, doctor]) {
        await page.waitForFunction(() => {
          const video = document.querySelector('tm-meeting')!.shadowRoot!.querySelector<HTMLVideoElement>('video[data-peer]:not([data-peer="self"])');
          return !!video && video.videoWidth > 0 && video.readyState >= 2;
        }, null, { timeout: 30_000 });
      }
      expect((await read(booked.appointmentId)).participants.map((p: any) => p.liveliness)).toEqual(['active', 'active']);
      await patient.screenshot({ path: path.join(ARTIFACTS, '01-patient-in-call.png'), fullPage: true });

      // The doctor's notes and prescription, saved from the doctor's page and on the appointment at once.
      await doctor.getByLabel('Symptoms and illnesses').fill('Fever, chills and joint pains for three days');
      await doctor.getByLabel('Diagnosis').fill('Uncomplicated malaria');
      await doctor.getByLabel('Treatment and recommendation').fill('Start artemisinin combination therapy, drink plenty of fluids and rest');
      await doctor.getByLabel("Doctor's signature").fill('Dr Tunde Bakare');
      await doctor.getByRole('button', { name: 'Save notes' }).click();
      await doctor.getByText('Notes saved.').waitFor();
      await doctor.getByLabel('Drug name').fill('Artemether-Lumefantrine');
      await doctor.getByLabel('Dosage').fill('80/480 mg');
      await doctor.getByLabel('Frequency').fill('twice daily');
      await doctor.getByLabel('Duration').fill('3 days');
      await doctor.getByLabel('Additional notes').fill('Take with a fatty meal.');
      await doctor.getByRole('button', { name: 'Save prescription' }).click();
      await doctor.getByText('Prescription saved.').waitFor();
      await doctor.screenshot({ path: path.join(ARTIFACTS, '02-doctor-in-call.png'), fullPage: true });
      for (const page of [patient, doctor]) expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
      const during = await read(booked.appointmentId);
      expect(during.doctorNotes).toMatchObject([{ diagnosis: 'Uncomplicated malaria', doctorSignature: 'Dr Tunde Bakare' }]);
      expect(during.prescriptions).toMatchObject([{ prescribedDrugs: [{ drugName: 'Artemether-Lumefantrine', dosage: '80/480 mg', frequency: 'twice daily', duration: '3 days' }] }]);

      // Some audio has been uploaded before the doctor ends the call.
      await expect
        .poll(async () => (await app.platform.db.selectFrom('appointmentRecordings').select('chunkCount').where('appointmentId', '=', booked.appointmentId).execute())[0]?.chunkCount ?? 0, { timeout: 20_000 })
        .toBeGreaterThan(0);

      await doctor.getByRole('button', { name: 'End consultation' }).click();
      await doctor.getByRole('button', { name: 'Yes, end it' }).click();
      await doctor.getByRole('heading', { name: 'The consultation has ended' }).waitFor();
      await patient.getByRole('heading', { name: 'The consultation has ended' }).waitFor();
      const ended = await read(booked.appointmentId);
      expect(ended.appointmentStatus).toBe('completed');
      expect(ended.participants.map((p: any) => p.liveliness)).toEqual(['left', 'left']);

      // The prescription PDF opens at its signed link and names the drug.
      const pdf = await fetch(localUrl(ended.prescriptionUrl));
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      const text = await pdfText(await pdf.arrayBuffer());
      expect(text).toContain('Artemether-Lumefantrine');
      expect(text).toContain('Amaka Eze');
      expect(text).toContain('Dr Tunde Bakare');

      // The recording: a file in the store, and its signed link serves audio the browser decodes.
      await expect.poll(async () => (await read(booked.appointmentId)).audioRecordingURLs?.length ?? 0, { timeout: 30_000, interval: 250 }).toBeGreaterThan(0);
      const withRecording = await read(booked.appointmentId);
      const recordings = await app.platform.db.selectFrom('appointmentRecordings').selectAll().where('appointmentId', '=', booked.appointmentId).where('status', '=', 'ready').execute();
      expect(recordings.length).toBe(withRecording.audioRecordingURLs.length);
      const storage = app.platform.files as LocalFileStorage;
      expect(fs.statSync(storage.pathOf(recordings[0]!.storageKey!)).size).toBeGreaterThan(0);
      const audioUrl = localUrl(withRecording.audioRecordingURLs[0]);
      const audio = await fetch(audioUrl);
      expect(audio.headers.get('content-type')).toBe('audio/webm');
      // The used link opens nothing any more; from that (same-origin) page the browser fetches and decodes the recording.
      const after = await patientContext.newPage();
      await after.goto(localUrl(patientLink!));
      await after.getByRole('heading', { name: 'This meeting has ended' }).waitFor();
      expect(await after.locator('tm-meeting').count()).toBe(0);
      const decoded = await after.evaluate(async (url) => {
        const bytes = await (await fetch(url)).arrayBuffer();
        const buffer = await new AudioContext().decodeAudioData(bytes);
        return { seconds: buffer.duration, channels: buffer.numberOfChannels };
      }, audioUrl);
      expect(decoded.seconds).toBeGreaterThan(0.5);

      // Both summaries after the configured delay, each mentioning the diagnosis.
      await expect.poll(async () => (await read(booked.appointmentId)).transcriptionSummary ?? null, { timeout: 30_000, interval: 250 }).not.toBeNull();
      const summarised = await read(booked.appointmentId);
      expect(summarised.transcriptionSummary.toLowerCase()).toContain('uncomplicated malaria');
      expect(summarised.patientSummary.toLowerCase()).toContain('uncomplicated malaria');
      expect(summarised.patientSummary).toContain('Artemether-Lumefantrine');
    } finally {
      await patientContext.close();
      await doctorContext.close();
    }
  }, 120_000);

  it('degrades to audio only when the patient has no camera: the call still connects, the doctor is seen and heard', async () => {
    const booked = await bookAppointment(app, tenant.test, { startInMs: 60_000, minutes: 30 });
    const [patientLink, doctorLink] = booked.participants.map((p) => p.participantMeetingLink);
    const patientContext = await browser.newContext({ viewport: { width: 360, height: 640 }, permissions: ['camera', 'microphone'] });
    // A phone without a usable camera: any request for video fails the way browsers fail it.
    await patientContext.addInitScript(() => {
      const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
      navigator.mediaDevices.getUserMedia = (constraints) =>
        constraints?.video ? Promise.reject(new DOMException('Requested device not found', 'NotFoundError')) : original(constraints);
    });
    const doctorContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['camera', 'microphone'] });
    try {
      const patient = await join(patientContext, patientLink!);
      await patient.getByText('Audio only: your camera is unavailable.').waitFor();
      const doctor = await join(doctorContext, doctorLink!);
      for (const page of [patient, doctor]) {
        await page.waitForFunction(() => Object.values(document.querySelector('tm-meeting')!.connectionStates()).includes('connected'), null, { timeout: 30_000 });
      }
      // The patient sees and hears the doctor; the doctor gets the patient's audio and no video.
      await patient.waitForFunction(() => {
        const video = document.querySelector('tm-meeting')!.shadowRoot!.querySelector<HTMLVideoElement>('video[data-peer]:not([data-peer="self"])');
        return !!video && video.videoWidth > 0 && (video.srcObject as MediaStream).getAudioTracks().length > 0;
      }, null, { timeout: 30_000 });
      await doctor.waitForFunction(() => {
        const video = document.querySelector('tm-meeting')!.shadowRoot!.querySelector<HTMLVideoElement>('video[data-peer]:not([data-peer="self"])');
        const stream = video?.srcObject as MediaStream | null;
        return !!stream && stream.getAudioTracks().length > 0 && stream.getVideoTracks().length === 0;
      }, null, { timeout: 30_000 });
      await patient.screenshot({ path: path.join(ARTIFACTS, '04-patient-audio-only.png'), fullPage: true });
      await doctor.getByRole('button', { name: 'End consultation' }).click();
      await doctor.getByRole('button', { name: 'Yes, end it' }).click();
      await patient.getByRole('heading', { name: 'The consultation has ended' }).waitFor();
      expect((await read(booked.appointmentId)).appointmentStatus).toBe('completed');
    } finally {
      await patientContext.close();
      await doctorContext.close();
    }
  }, 90_000);

  it('the patient reads the page in Yorùbá, Hausa or Igbo (the browser\'s language): no English text, axe clean, through to the end', async () => {
    const ENGLISH = new Set(Object.values(MEETING_EN).flatMap((text) => text.toLowerCase().match(/\p{L}[\p{L}'’]*/gu) ?? []).filter((word) => word.length >= 3));
    for (const locale of ['yo', 'ha', 'ig'] as const) {
      const texts = MEETING_TEXTS[locale];
      const booked = await bookAppointment(app, tenant.test, { startInMs: 60_000, minutes: 30 });
      const [patientLink, doctorLink] = booked.participants.map((p) => p.participantMeetingLink);
      const names = ['Amaka Eze', 'Tunde Bakare'];
      const patientContext = await browser.newContext({ viewport: { width: 360, height: 640 }, locale: `${locale}-NG`, permissions: ['camera', 'microphone'] });
      const doctorContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['camera', 'microphone'] });
      const noEnglish = async (page: Page, step: string) => {
        let shown = await page.locator('tm-meeting').evaluate((el) => {
          const root = el.shadowRoot!;
          const labels = [...root.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label'));
          return `${(root as unknown as HTMLElement).textContent} ${labels.join(' ')}`;
        });
        for (const name of names) shown = shown.split(name).join(' ');
        const english = (shown.toLowerCase().match(/\p{L}[\p{L}'’]*/gu) ?? []).filter((word) => ENGLISH.has(word));
        await page.screenshot({ path: path.join(ARTIFACTS, `language-${locale}-${step}.png`), fullPage: true });
        expect(english, `${locale} ${step}: ${shown}`).toEqual([]);
        expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id), `${locale} ${step}`).toEqual([]);
      };
      try {
        const patient = await patientContext.newPage();
        await patient.goto(localUrl(patientLink!));
        await patient.getByRole('button', { name: texts.join }).waitFor();
        expect(await patient.locator('tm-meeting').getAttribute('lang')).toBe(locale);
        await patient.getByText(texts.recorded).waitFor();
        await noEnglish(patient, 'ready');
        await patient.getByRole('button', { name: texts.join }).click();
        await patient.getByText(texts.waiting).waitFor();
        await noEnglish(patient, 'waiting');
        const doctor = await join(doctorContext, doctorLink!);
        await patient.getByText(texts.count.replace('{count}', '2')).waitFor({ timeout: 30_000 });
        await doctor.getByRole('button', { name: 'End consultation' }).click();
        await doctor.getByRole('button', { name: 'Yes, end it' }).click();
        await patient.getByRole('heading', { name: texts.endedTitle }).waitFor();
        await noEnglish(patient, 'ended');
      } finally {
        await patientContext.close();
        await doctorContext.close();
      }
    }
  }, 180_000);

  it('a Yorùbá appointment opened in an English browser: the page and the component are in Yorùbá (the stored language wins over Accept-Language)', async () => {
    const body = appointmentBody({ now: app.platform.clock.now(), startInMs: 60_000, minutes: 30 });
    const created = await client(app, tenant.test).post('/api/v1/appointment/create', { ...body, locale: 'yo' });
    expect(created.status).toBe(200);
    const patientLink = created.body.participants.find((p: any) => p.participant.role === 'patient').participantMeetingLink as string;
    const context = await browser.newContext({ viewport: { width: 360, height: 640 }, locale: 'en-GB', permissions: ['camera', 'microphone'] });
    try {
      const page = await context.newPage();
      await page.goto(localUrl(patientLink));
      const texts = MEETING_TEXTS.yo;
      await page.getByRole('button', { name: texts.join }).waitFor();
      expect(await page.evaluate(() => navigator.language)).toBe('en-GB');
      expect(await page.locator('html').getAttribute('lang')).toBe('yo');
      expect(await page.locator('tm-meeting').getAttribute('locale')).toBe('yo');
      expect(await page.locator('tm-meeting').getAttribute('lang')).toBe('yo');
      // The component's own texts, read through its shadow root.
      const shown = await page.locator('tm-meeting').evaluate((el) => el.shadowRoot!.textContent ?? '');
      expect(shown).toContain(texts.join);
      expect(shown).toContain(texts.recorded);
      for (const english of [MEETING_EN.join, MEETING_EN.recorded]) expect(shown).not.toContain(english);
      expect(await page.title()).toBe(MEETING_PAGE_TEXTS.yo['ready.title']);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a wrong participant key, or one whose appointment is over, opens nothing', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const requests: string[] = [];
    try {
      const page = await context.newPage();
      page.on('request', (req) => requests.push(req.url()));
      await page.goto(`${app.url}/meet/j/mk_${'x'.repeat(32)}`);
      await page.getByRole('heading', { name: 'This meeting link is not valid' }).waitFor();
      expect(await page.locator('tm-meeting').count()).toBe(0);
      await page.goto(`${app.url}/meet/`);
      await page.getByRole('heading', { name: 'This meeting link is not valid' }).waitFor();

      // Expired: an appointment nobody attended, past its end (the sweep cancels it as unattended).
      const booked = await bookAppointment(app, tenant.test, { startInMs: 60_000, minutes: 1 });
      await app.platform.db
        .updateTable('appointments')
        .set({ startTime: new Date(Date.now() - 120_000).toISOString(), endTime: new Date(Date.now() - 60_000).toISOString() })
        .where('id', '=', booked.appointmentId)
        .execute();
      await page.goto(localUrl(booked.participants[0]!.participantMeetingLink));
      await page.getByRole('heading', { name: /This meeting has ended|This appointment was cancelled/ }).waitFor();
      expect(await page.locator('tm-meeting').count()).toBe(0);
      expect(await page.content()).not.toContain('Amaka');
      expect(requests.some((u) => u.endsWith('/meet/meeting.js'))).toBe(false);
      await page.screenshot({ path: path.join(ARTIFACTS, '03-expired-link.png') });
    } finally {
      await context.close();
    }
  }, 60_000);
});
