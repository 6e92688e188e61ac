import type { Secrets } from '../secrets';
import { signPath, verifyPath } from './signed-link';

const PURPOSE = 'prescription-link';
export const prescriptionPath = (appointmentId: string) => `/prescriptions/${appointmentId}.pdf`;

/** A short-lived link to the appointment's prescription PDF; it needs no API key, only its signature. */
export function signPrescriptionLink(secrets: Secrets, options: { baseUrl: string; appointmentId: string; now: Date; ttlSeconds: number }) {
  return signPath(secrets, PURPOSE, { baseUrl: options.baseUrl, path: prescriptionPath(options.appointmentId), now: options.now, ttlSeconds: options.ttlSeconds });
}

export function verifyPrescriptionLink(secrets: Secrets, link: { appointmentId: string; expires: unknown; signature: unknown }, now: Date): boolean {
  return verifyPath(secrets, PURPOSE, { path: prescriptionPath(link.appointmentId), expires: link.expires, signature: link.signature }, now);
}
