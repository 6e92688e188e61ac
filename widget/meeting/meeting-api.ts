import type { DoctorNote as StoredNote, PrescribedDrug, Prescription as StoredPrescription } from '../../server/shared/meeting-contract';

/** The meeting page's JSON client for `/meet/api` (the participant's cookie is the credential). */
export interface MeetingPeerInfo {
  clientId: string;
  name: string;
  role: string;
}

/** The platform's own shapes (types only: nothing of the server is bundled); `createdAt` is the server's to set. */
export type { PrescribedDrug };
export type DoctorNote = Omit<StoredNote, 'createdAt'> & { createdAt?: string };
export type Prescription = Omit<StoredPrescription, 'createdAt'> & { createdAt?: string };

export interface MeetingState {
  meetingId: string;
  appointmentStartTime: string;
  appointmentEndTime: string;
  appointmentStatus: string;
  self: MeetingPeerInfo;
  participants: Array<MeetingPeerInfo & { liveliness: string }>;
  iceServers: RTCIceServer[];
  recordingChunkMaxBytes: number;
  doctorNotes?: DoctorNote[];
  prescriptions?: Prescription[];
}

export class MeetingApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class MeetingApi {
  constructor(private readonly base: string) {}

  private async call<T>(method: string, path: string, init: { json?: unknown; body?: Blob; contentType?: string; signal?: AbortSignal } = {}): Promise<T> {
    const headers: Record<string, string> = {};
    let body: BodyInit | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.body) {
      headers['content-type'] = init.contentType ?? 'application/octet-stream';
      body = init.body;
    }
    const res = await fetch(`${this.base}${path}`, { method, headers, body, credentials: 'same-origin', signal: init.signal });
    const envelope = (await res.json().catch(() => ({}))) as { success?: boolean; message?: string; error?: string; data?: T };
    if (!res.ok || !envelope.success) throw new MeetingApiError(res.status, envelope.error ?? 'network_error', envelope.message ?? 'Something went wrong. Please try again.');
    return envelope.data as T;
  }

  state(signal?: AbortSignal) {
    return this.call<MeetingState>('GET', '/state', { signal });
  }
  saveNotes(note: DoctorNote, signal?: AbortSignal) {
    return this.call<{ doctorNotes: DoctorNote[] }>('POST', '/notes', { json: note, signal });
  }
  savePrescription(prescription: Prescription, signal?: AbortSignal) {
    return this.call<{ prescriptions: Prescription[]; prescriptionUrl: string }>('POST', '/prescriptions', { json: prescription, signal });
  }
  end() {
    return this.call<{ appointmentStatus: string }>('POST', '/end', { json: {} });
  }
  startRecording(contentType: string) {
    return this.call<{ id: string }>('POST', '/recordings', { json: { contentType } });
  }
  uploadChunk(recordingId: string, seq: number, chunk: Blob, contentType: string) {
    return this.call<void>('PUT', `/recordings/${recordingId}/chunks/${seq}`, { body: chunk, contentType });
  }
  finishRecording(recordingId: string) {
    return this.call<void>('POST', `/recordings/${recordingId}/finish`, { json: {} });
  }
}
