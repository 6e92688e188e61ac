import type { MeetingApi } from './meeting-api';

const TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];

/**
 * Records the consultation's audio on the doctor's page: the local microphone and every remote
 * participant's audio mixed in an AudioContext, encoded by MediaRecorder, uploaded to the platform
 * in numbered chunks every few seconds (one request at a time, each retried), so at most a few
 * seconds are lost if the page dies. Every start is a new recording (a rejoin gives a second file).
 */
export class ConsultationRecorder {
  private readonly context = new AudioContext();
  private readonly destination = this.context.createMediaStreamDestination();
  private recorder: MediaRecorder | undefined;
  private recordingId: string | undefined;
  private seq = 0;
  private queue: Promise<void> = Promise.resolve();
  private readonly mixed = new Set<string>();
  failed = false;

  constructor(
    private readonly api: MeetingApi,
    private readonly sliceMs = 3000,
  ) {}

  static supported(): boolean {
    return typeof MediaRecorder !== 'undefined' && typeof AudioContext !== 'undefined' && TYPES.some((t) => MediaRecorder.isTypeSupported(t));
  }

  /** Mixes a stream's audio into the recording (each track once). */
  add(stream: MediaStream): void {
    const tracks = stream.getAudioTracks().filter((t) => !this.mixed.has(t.id));
    if (tracks.length === 0) return;
    tracks.forEach((t) => this.mixed.add(t.id));
    this.context.createMediaStreamSource(new MediaStream(tracks)).connect(this.destination);
  }

  async start(): Promise<void> {
    await this.context.resume();
    const mimeType = TYPES.find((t) => MediaRecorder.isTypeSupported(t))!;
    const contentType = mimeType.split(';')[0]!;
    this.recordingId = (await this.api.startRecording(contentType)).id;
    const recorder = new MediaRecorder(this.destination.stream, { mimeType, audioBitsPerSecond: 32_000 });
    recorder.ondataavailable = (event) => {
      if (event.data.size === 0) return;
      const seq = this.seq++;
      const id = this.recordingId!;
      this.queue = this.queue.then(() => this.upload(id, seq, event.data, contentType));
    };
    recorder.start(this.sliceMs);
    this.recorder = recorder;
  }

  private async upload(id: string, seq: number, chunk: Blob, contentType: string): Promise<void> {
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        await this.api.uploadChunk(id, seq, chunk, contentType);
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
      }
    }
    this.failed = true;
  }

  /** Stops, uploads the last slice and closes the recording. */
  async stop(): Promise<void> {
    const recorder = this.recorder;
    if (!recorder || !this.recordingId) return;
    this.recorder = undefined;
    if (recorder.state !== 'inactive') {
      const stopped = new Promise((resolve) => recorder.addEventListener('stop', resolve, { once: true }));
      recorder.stop();
      await stopped;
    }
    await this.queue;
    await this.api.finishRecording(this.recordingId).catch(() => undefined);
    await this.context.close().catch(() => undefined);
  }
}
