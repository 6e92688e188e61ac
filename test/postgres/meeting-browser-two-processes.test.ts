import net from 'node:net';
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

/** A loopback TCP proxy whose target the test switches (a load balancer without stickiness, as far as the page knows). */
async function switchableProxy(target: string): Promise<{ url: string; to(url: string): void; close(): void }> {
  let port = Number(new URL(target).port);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(port, '127.0.0.1');
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    inbound.pipe(outbound).pipe(inbound);
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    to: (url) => void (port = Number(new URL(url).port)),
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/** Counts the page's RTCPeerConnections: a renegotiation from scratch makes a new one. */
const countPeerConnections = () => {
  const Original = window.RTCPeerConnection;
  (window as unknown as { peerConnectionsMade: number }).peerConnectionsMade = 0;
  window.RTCPeerConnection = class extends Original {
    constructor(...args: ConstructorParameters<typeof RTCPeerConnection>) {
      super(...args);
      (window as unknown as { peerConnectionsMade: number }).peerConnectionsMade += 1;
    }
  };
};
const made = (page: Page) => page.evaluate(() => (window as unknown as { peerConnectionsMade: number }).peerConnectionsMade);

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
  it('the first consultation on a freshly started API process connects: patient and doctor both on it, joining at once', async () => {
    const env = { ...database.env, MEETING_PRESENCE_TTL_MS: '3000', PROCESS_ROLE: 'api' };
    const fresh = await startServiceProcess(bundle.file, env);
    running.push(fresh);
    const keys = await client({ url: fresh.url } as TestApp).get('/v1/products');
    expect(keys.status).toBe(401);
    const publicKey = /public key\s+(pk_test_\w+)/.exec(fresh.output())?.[1];
    const secretKey = /secret key\s+(sk_test_\w+)/.exec(fresh.output())?.[1];
    expect(publicKey, fresh.output()).toBeTruthy();
    const booked = await client({ url: fresh.url } as TestApp, { publicKey: publicKey!, secretKey: secretKey! }).post('/api/v1/appointment/create', appointmentBody({ startInMs: 60_000, minutes: 30 }));
    expect(booked.status).toBe(200);
    const [patientLink, doctorLink] = (booked.body.participants as Array<{ participantMeetingLink: string }>).map((p) => p.participantMeetingLink);
    const patientContext = await browser.newContext({ viewport: { width: 390, height: 844 }, permissions: ['camera', 'microphone'] });
    const doctorContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['camera', 'microphone'] });
    try {
      // Both join at once: on a fresh process both joins wait for the room's first subscription and then run side by side.
      const [patient, doctor] = await Promise.all([join(patientContext, fresh.url, patientLink!), join(doctorContext, fresh.url, doctorLink!)]);
      for (const page of [patient, doctor]) {
        await page.waitForFunction(() => Object.values(document.querySelector('tm-meeting')!.connectionStates()).includes('connected'), null, { timeout: 20_000 });
      }
    } finally {
      await patientContext.close();
      await doctorContext.close();
      fresh.kill('SIGKILL');
    }
  }, 120_000);

  it('the patient on process A and the doctor on process B connect over WebRTC; A dies, the patient\'s page reconnects to B and they connect again', async () => {
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
    await patientContext.addInitScript(countPeerConnections);
    await doctorContext.addInitScript(countPeerConnections);
    // The patient reaches the service through a proxy that sends everything to A for now.
    const proxy = await switchableProxy(a.url);
    try {
      const patient = await join(patientContext, proxy.url, patientLink!);
      const doctor = await join(doctorContext, b.url, doctorLink!);
      for (const page of [patient, doctor]) {
        await page.waitForFunction(() => Object.values(document.querySelector('tm-meeting')!.connectionStates()).includes('connected'), null, { timeout: 30_000 });
        expect(await connectionStates(page)).toEqual(['connected']);
        await page.waitForFunction(() => {
          const video = document.querySelector('tm-meeting')!.shadowRoot!.querySelector<HTMLVideoElement>('video[data-peer]:not([data-peer="self"])');
          return !!video && video.videoWidth > 0 && video.readyState >= 2;
        }, null, { timeout: 30_000 });
      }
      expect(new URL(doctor.url()).origin).toBe(b.url);
      expect([await made(patient), await made(doctor)]).toEqual([1, 1]);
      expect(a.output()).not.toContain('"level":50');

      // Process A dies mid-call; the proxy now sends to B. The patient's page reconnects its WebSocket (to B),
      // re-announces itself, the doctor drops the old peer connection and they negotiate a new one that connects.
      proxy.to(b.url);
      a.kill('SIGKILL');
      await a.exit;
      for (const page of [patient, doctor]) {
        await page.waitForFunction(() => (window as unknown as { peerConnectionsMade: number }).peerConnectionsMade >= 2, null, { timeout: 30_000 });
        await page.waitForFunction(() => Object.values(document.querySelector('tm-meeting')!.connectionStates()).includes('connected'), null, { timeout: 30_000 });
        expect(await connectionStates(page)).toEqual(['connected']);
      }
      expect([await made(patient), await made(doctor)]).toEqual([2, 2]);
    } finally {
      proxy.close();
      await patientContext.close();
      await doctorContext.close();
    }
  }, 120_000);
});
