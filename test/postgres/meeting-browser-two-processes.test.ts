import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointmentBody } from '../support/appointments';
import { client, freshDatabaseEnv, type TestApp } from '../support/harness';
import { buildServiceBundle, startServiceProcess, type ServiceProcess } from '../support/service-process';

/**
 * The machine's Chromium, two pages, two service processes on one PostgreSQL: the patient's page is served by
 * (and signals through) process A, the doctor's by process B; their RTCPeerConnections reach `connected`.
 */
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
let bundle: Awaited<ReturnType<typeof buildServiceBundle>>;
let browser: Browser;
const running: ServiceProcess[] = [];

beforeAll(async () => {
  database = await freshDatabaseEnv();
  // The meeting page's bundle (npm run build:meeting), then the server bundle.
  await build({ configFile: path.resolve('widget/meeting/vite.config.ts'), logLevel: 'warn' });
  bundle = await buildServiceBundle(`meeting-browser-${path.basename(database.dataDir)}`);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  for (const p of running) p.kill('SIGKILL');
  bundle?.remove();
  await database?.drop();
});

const connectionStates = (page: Page) => page.evaluate(() => Object.values(document.querySelector('tm-meeting')!.connectionStates()));

async function join(context: BrowserContext, processUrl: string, link: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${processUrl}${new URL(link).pathname}`);
  expect(new URL(page.url()).pathname).toBe('/meet/');
  await page.getByRole('button', { name: 'Join consultation' }).click();
  await page.getByRole('heading', { name: /^Consultation [a-z]{3}-[a-z]{4}-[a-z]{3}$/ }).waitFor();
  return page;
}

describe('a consultation in the browser across two processes', () => {
  it('the patient on process A and the doctor on process B connect over WebRTC', async () => {
    const env = { ...database.env, MEETING_PRESENCE_TTL_MS: '3000' };
    const a = await startServiceProcess(bundle.file, env);
    running.push(a);
    const b = await startServiceProcess(bundle.file, env);
    running.push(b);
    const publicKey = /public key\s+(pk_test_\w+)/.exec(a.output())![1]!;
    const secretKey = /secret key\s+(sk_test_\w+)/.exec(a.output())![1]!;
    const booked = await client({ url: a.url } as TestApp, { publicKey, secretKey }).post('/api/v1/appointment/create', appointmentBody({ startInMs: 60_000, minutes: 30 }));
    expect(booked.status).toBe(200);
    const [patientLink, doctorLink] = (booked.body.participants as Array<{ participantMeetingLink: string }>).map((p) => p.participantMeetingLink);

    const patientContext = await browser.newContext({ viewport: { width: 390, height: 844 }, permissions: ['camera', 'microphone'] });
    const doctorContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['camera', 'microphone'] });
    try {
      const patient = await join(patientContext, a.url, patientLink!);
      const doctor = await join(doctorContext, b.url, doctorLink!);
      for (const page of [patient, doctor]) {
        await page.waitForFunction(() => Object.values(document.querySelector('tm-meeting')!.connectionStates()).includes('connected'), null, { timeout: 30_000 });
        expect(await connectionStates(page)).toEqual(['connected']);
        await page.waitForFunction(() => {
          const video = document.querySelector('tm-meeting')!.shadowRoot!.querySelector<HTMLVideoElement>('video[data-peer]:not([data-peer="self"])');
          return !!video && video.videoWidth > 0 && video.readyState >= 2;
        }, null, { timeout: 30_000 });
      }
      // Each page's WebSocket went to its own process.
      expect(new URL(patient.url()).origin).toBe(a.url);
      expect(new URL(doctor.url()).origin).toBe(b.url);
    } finally {
      await patientContext.close();
      await doctorContext.close();
    }
  }, 120_000);
});
