import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseEnv } from '../support/harness';
import { meetingAcrossProcesses } from '../support/meeting-processes';
import { buildServiceBundle, startServiceProcess, type ServiceProcess } from '../support/service-process';

/** Two service processes on one PostgreSQL, no sticky routing: the meeting's signalling goes through LISTEN/NOTIFY. */
let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
let bundle: Awaited<ReturnType<typeof buildServiceBundle>>;
const running: ServiceProcess[] = [];
const TTL_MS = 1_500;

beforeAll(async () => {
  database = await freshDatabaseEnv();
  bundle = await buildServiceBundle(`meeting-${path.basename(database.dataDir)}`);
});
afterAll(async () => {
  for (const p of running) p.kill('SIGKILL');
  bundle?.remove();
  await database?.drop();
});

describe('a meeting across two processes on PostgreSQL', () => {
  it('patient on A, doctor on B: presence and offer/answer/ICE both ways; the patient moves to B mid-call and they renegotiate; A dies and B notices', async () => {
    const env = { ...database.env, MEETING_PRESENCE_TTL_MS: String(TTL_MS), REDIS_URL: '' };
    const a = await startServiceProcess(bundle.file, env);
    running.push(a);
    const b = await startServiceProcess(bundle.file, env);
    running.push(b);
    for (const p of [a, b]) expect(p.output()).toContain('meeting rooms: postgres bus');
    await meetingAcrossProcesses(a, b, TTL_MS);
    b.kill('SIGTERM');
    expect(await b.exit).toBe(0);
  }, 120_000);
});
