import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStorage } from '../../server/integrations/file-storage';
import { processRecording } from '../../server/platform/domain/appointments/recordings';
import { bookAppointment } from '../support/appointments';
import { createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { openMeetingLink } from '../support/meeting';
import { fileLinkSigner } from '../../server/platform/domain/appointments/signed-link';

/**
 * Recording size caps (per recording, per appointment: 413 with a machine-readable error, nothing of
 * the refused chunk stored) and the streamed join of the chunks into one file.
 */
let app: TestApp;
let tenant: Tenant;

beforeAll(async () => {
  app = await startTestApp({ env: { RECORDING_CHUNK_MAX_BYTES: '1024', RECORDING_MAX_BYTES: '2048', APPOINTMENT_RECORDINGS_MAX_BYTES: '3072' } });
  tenant = await createTenant(app);
});
afterAll(() => app?.stop());

const meetApi = (cookie: string, method: string, path: string, body?: unknown, type = 'application/json') =>
  fetch(`${app.url}/meet/api${path}`, {
    method,
    headers: { cookie, ...(body !== undefined ? { 'content-type': type } : {}) },
    body: body === undefined ? undefined : Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));

const bytes = (n: number) => crypto.randomBytes(n);
const files = () => app.platform.files as LocalFileStorage;
const recording = (id: string) => app.platform.db.selectFrom('appointmentRecordings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function doctorOfNewAppointment() {
  const booked = await bookAppointment(app, tenant.test, { startInMs: 5 * 60_000 });
  const cookie = (await openMeetingLink(app, booked.participants[1]!.participantMeetingLink)).cookie!;
  return { booked, cookie };
}

describe('recording size caps', () => {
  it('the defaults are sane and ordered: chunk ≤ recording ≤ appointment', async () => {
    const { loadConfig } = await import('../../server/config');
    const config = loadConfig({});
    expect(config.RECORDING_MAX_BYTES).toBe(256 * 1024 * 1024);
    expect(config.APPOINTMENT_RECORDINGS_MAX_BYTES).toBe(1024 * 1024 * 1024);
    expect(() => loadConfig({ RECORDING_MAX_BYTES: '2048', APPOINTMENT_RECORDINGS_MAX_BYTES: '1024', RECORDING_CHUNK_MAX_BYTES: '1024' })).toThrow(/APPOINTMENT_RECORDINGS_MAX_BYTES/);
  });

  it('a chunk that would take a recording past its cap answers 413 recording_too_large and stores nothing of it', async () => {
    const { cookie } = await doctorOfNewAppointment();
    const id = (await meetApi(cookie, 'POST', '/recordings', { contentType: 'audio/webm' })).body.data.id;
    expect((await meetApi(cookie, 'PUT', `/recordings/${id}/chunks/0`, bytes(1000), 'audio/webm')).status).toBe(200);
    expect((await meetApi(cookie, 'PUT', `/recordings/${id}/chunks/1`, bytes(1000), 'audio/webm')).status).toBe(200);
    const refused = await meetApi(cookie, 'PUT', `/recordings/${id}/chunks/2`, bytes(100), 'audio/webm');
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ success: false, error: 'recording_too_large' });
    const row = await recording(id);
    expect(row.bytes).toBe(2000);
    expect(row.chunkCount).toBe(2);
    expect(await files().size(`recordings/${row.appointmentId}/${id}/chunk-000002`)).toBeNull();
  });

  it('a chunk that would take the appointment\'s recordings past their cap answers 413 appointment_recordings_too_large, also in a new recording', async () => {
    const { cookie } = await doctorOfNewAppointment();
    const first = (await meetApi(cookie, 'POST', '/recordings', { contentType: 'audio/webm' })).body.data.id;
    expect((await meetApi(cookie, 'PUT', `/recordings/${first}/chunks/0`, bytes(1000), 'audio/webm')).status).toBe(200);
    expect((await meetApi(cookie, 'PUT', `/recordings/${first}/chunks/1`, bytes(1000), 'audio/webm')).status).toBe(200);
    expect((await meetApi(cookie, 'POST', `/recordings/${first}/finish`, {})).status).toBe(200);
    const second = (await meetApi(cookie, 'POST', '/recordings', { contentType: 'audio/webm' })).body.data.id;
    expect((await meetApi(cookie, 'PUT', `/recordings/${second}/chunks/0`, bytes(1000), 'audio/webm')).status).toBe(200);
    const refused = await meetApi(cookie, 'PUT', `/recordings/${second}/chunks/1`, bytes(100), 'audio/webm');
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ success: false, error: 'appointment_recordings_too_large' });
    const row = await recording(second);
    expect(row.bytes).toBe(1000);
    expect(await files().size(`recordings/${row.appointmentId}/${second}/chunk-000001`)).toBeNull();
  });
});

describe('joining the chunks', () => {
  it('streams them in order into one file, without reading any chunk or the file whole', async () => {
    const { cookie } = await doctorOfNewAppointment();
    const id = (await meetApi(cookie, 'POST', '/recordings', { contentType: 'audio/ogg' })).body.data.id;
    const chunks = [bytes(700), bytes(5), bytes(1024)];
    // Out of order, and chunk 1 sent twice (a retried upload replaces it).
    expect((await meetApi(cookie, 'PUT', `/recordings/${id}/chunks/2`, chunks[2], 'audio/ogg')).status).toBe(200);
    expect((await meetApi(cookie, 'PUT', `/recordings/${id}/chunks/0`, chunks[0], 'audio/ogg')).status).toBe(200);
    expect((await meetApi(cookie, 'PUT', `/recordings/${id}/chunks/1`, bytes(5), 'audio/ogg')).status).toBe(200);
    expect((await meetApi(cookie, 'PUT', `/recordings/${id}/chunks/1`, chunks[1], 'audio/ogg')).status).toBe(200);
    expect((await meetApi(cookie, 'POST', `/recordings/${id}/finish`, {})).status).toBe(200);

    const real = files();
    const streamingOnly = Object.create(real) as LocalFileStorage;
    streamingOnly.get = () => Promise.reject(new Error('the join must not read a whole file'));
    streamingOnly.put = () => Promise.reject(new Error('the join must not write a whole buffer'));
    expect(await processRecording(app.platform.db, streamingOnly, id, app.platform.clock.now())).toBe(true);

    const row = await recording(id);
    expect(row.status).toBe('ready');
    expect(row.bytes).toBe(1729);
    expect(await real.get(row.storageKey!)).toEqual(Buffer.concat(chunks));
    expect(await real.size(`recordings/${row.appointmentId}/${id}/chunk-000000`)).toBeNull();
  });

  it('the local store refuses a stream of another length than announced, leaving no file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'files-'));
    const store = new LocalFileStorage(dir, fileLinkSigner(app.platform.secrets));
    await expect(store.putStream('a/b.webm', Readable.from([Buffer.from('abc')]), 'audio/webm', 4)).rejects.toThrow(/3 bytes written, 4 announced/);
    expect(await store.size('a/b.webm')).toBeNull();
    expect(fs.readdirSync(path.join(dir, 'a'))).toEqual([]);
    await store.putStream('a/b.webm', Readable.from([Buffer.from('ab'), Buffer.from('c')]), 'audio/webm', 3);
    expect((await store.getStream('a/b.webm'))).not.toBeNull();
    expect(await store.get('a/b.webm')).toEqual(Buffer.from('abc'));
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
