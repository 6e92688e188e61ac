import { expect } from 'vitest';
import { appointmentBody } from './appointments';
import { client, type TestApp } from './harness';
import { connectSignalling, openMeetingLink, type SignallingClient } from './meeting';
import type { ServiceProcess } from './service-process';

/** An SDP offer bigger than PostgreSQL's 8000-byte NOTIFY payload (with non-ASCII, so pieces cut between code points). */
export const LARGE_SDP = `v=0\r\no=- 46117 2 IN IP4 127.0.0.1\r\ns=Ọ̀kan\r\n${Array.from({ length: 400 }, (_, i) => `a=candidate:${i} 1 udp 2122260223 192.168.1.${i % 250} ${50_000 + i} typ host généré\r\n`).join('')}`;

const as = (p: ServiceProcess) => ({ url: p.url }) as TestApp;
const closeCode = (c: SignallingClient) => new Promise<number>((resolve) => (c.socket.readyState === c.socket.CLOSED ? resolve(-1) : c.socket.once('close', (code) => resolve(code))));

/**
 * The cross-process meeting scenario on two running service processes sharing one database and one room bus:
 * patient on A, doctor on B, offer/answer/ICE both ways and presence both ways; the patient reconnects to B mid-call
 * (the socket on A is replaced, the doctor sees the patient leave and come back, they renegotiate); then the
 * patient reconnects to A and A is killed: the doctor on B sees the patient leave once the presence expires.
 */
export async function meetingAcrossProcesses(a: ServiceProcess, b: ServiceProcess, presenceTtlMs: number): Promise<void> {
  const publicKey = /public key\s+(pk_test_\w+)/.exec(a.output())![1]!;
  const secretKey = /secret key\s+(sk_test_\w+)/.exec(a.output())![1]!;
  const booked = await client(as(a), { publicKey, secretKey }).post('/api/v1/appointment/create', appointmentBody({ startInMs: 60_000, minutes: 30 }));
  expect(booked.status).toBe(200);
  const [patientLink, doctorLink] = (booked.body.participants as Array<{ participantMeetingLink: string }>).map((p) => p.participantMeetingLink);
  const patientCookie = (await openMeetingLink(as(a), patientLink!)).cookie!;
  const doctorCookie = (await openMeetingLink(as(b), doctorLink!)).cookie!;
  expect(patientCookie).toMatch(/^tm_meeting=/);
  expect(doctorCookie).toMatch(/^tm_meeting=/);

  // Presence across processes: the doctor joining on B is welcomed with the patient connected to A, and A's patient hears of the doctor.
  const patient = await connectSignalling(as(a), patientCookie);
  const patientWelcome = await patient.next((m) => m.type === 'welcome');
  expect(patientWelcome.peers).toEqual([]);
  const patientId = patientWelcome.self as string;
  const doctor = await connectSignalling(as(b), doctorCookie);
  const doctorWelcome = await doctor.next((m) => m.type === 'welcome');
  const doctorId = doctorWelcome.self as string;
  expect(doctorWelcome.peers).toEqual([{ clientId: patientId, name: 'Amaka Eze', role: 'patient' }]);
  expect(await patient.next((m) => m.type === 'peer-joined')).toEqual({ type: 'peer-joined', peer: { clientId: doctorId, name: 'Tunde Bakare', role: 'doctor' } });

  // Offer (bigger than a NOTIFY payload), answer and ICE candidates both ways, between the processes.
  const send = (c: SignallingClient, to: string, data: unknown) => c.socket.send(JSON.stringify({ type: 'signal', to, data }));
  const offer = { description: { type: 'offer', sdp: LARGE_SDP } };
  send(doctor, patientId, offer);
  expect(await patient.next((m) => m.type === 'signal')).toEqual({ type: 'signal', from: doctorId, data: offer });
  send(patient, doctorId, { description: { type: 'answer', sdp: 'v=0 answer' } });
  expect((await doctor.next((m) => m.type === 'signal')).data).toEqual({ description: { type: 'answer', sdp: 'v=0 answer' } });
  for (let i = 0; i < 3; i++) {
    send(patient, doctorId, { candidate: { candidate: `candidate:p${i}`, sdpMid: '0' } });
    send(doctor, patientId, { candidate: { candidate: `candidate:d${i}`, sdpMid: '0' } });
  }
  const candidates = (c: SignallingClient) => c.messages.filter((m) => m.type === 'signal' && m.data.candidate).map((m) => m.data.candidate.candidate);
  await expect.poll(() => candidates(doctor)).toEqual(['candidate:p0', 'candidate:p1', 'candidate:p2']);
  await expect.poll(() => candidates(patient)).toEqual(['candidate:d0', 'candidate:d1', 'candidate:d2']);

  // The patient reconnects to B mid-call: the socket on A is replaced; the doctor sees the patient leave and join
  // again (and drops the old peer connection); the patient's welcome names the doctor; they negotiate again.
  const replacedCode = closeCode(patient);
  const doctorSeen = doctor.messages.length;
  const again = await connectSignalling(as(b), patientCookie);
  const againWelcome = await again.next((m) => m.type === 'welcome');
  expect(againWelcome).toEqual({ type: 'welcome', self: patientId, peers: [{ clientId: doctorId, name: 'Tunde Bakare', role: 'doctor' }] });
  expect(await patient.next((m) => m.type === 'replaced')).toEqual({ type: 'replaced' });
  expect(await replacedCode).toBe(4001);
  await expect.poll(() => doctor.messages.slice(doctorSeen).map((m) => m.type)).toEqual(['peer-left', 'peer-joined']);
  expect(doctor.messages.slice(doctorSeen)).toEqual([
    { type: 'peer-left', clientId: patientId },
    { type: 'peer-joined', peer: { clientId: patientId, name: 'Amaka Eze', role: 'patient' } },
  ]);
  send(again, doctorId, { description: { type: 'offer', sdp: 'v=0 renegotiated' } });
  await expect.poll(() => doctor.messages.filter((m) => m.type === 'signal').at(-1)?.data).toEqual({ description: { type: 'offer', sdp: 'v=0 renegotiated' } });
  send(doctor, patientId, { description: { type: 'answer', sdp: 'v=0 answer again' } });
  expect((await again.next((m) => m.type === 'signal')).data).toEqual({ description: { type: 'answer', sdp: 'v=0 answer again' } });
  // The old socket got nothing after it was replaced.
  expect(patient.messages.filter((m) => m.type === 'signal')).toHaveLength(4);

  // Back to A, then A dies without a word: the doctor on B sees the patient leave once the presence expires.
  const third = await connectSignalling(as(a), patientCookie);
  expect((await third.next((m) => m.type === 'welcome')).peers).toEqual([{ clientId: doctorId, name: 'Tunde Bakare', role: 'doctor' }]);
  expect(await again.next((m) => m.type === 'replaced')).toEqual({ type: 'replaced' });
  const beforeCrash = doctor.messages.length;
  await expect.poll(() => doctor.messages.slice(beforeCrash - 2).map((m) => m.type)).toEqual(['peer-left', 'peer-joined']);
  const killedAt = Date.now();
  a.kill('SIGKILL');
  await a.exit;
  await expect.poll(() => doctor.messages.slice(beforeCrash).map((m) => m.type), { timeout: presenceTtlMs * 4 + 5_000 }).toEqual(['peer-left']);
  expect(doctor.messages.at(-1)).toEqual({ type: 'peer-left', clientId: patientId });
  expect(Date.now() - killedAt).toBeLessThan(presenceTtlMs * 4 + 5_000);
  await doctor.close();
  await third.close();
}
