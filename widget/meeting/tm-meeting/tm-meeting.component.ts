import { html, LitElement, nothing } from 'lit';
import { ConsultationRecorder } from '../consultation-recorder';
import { MeetingApi, MeetingApiError, type MeetingState } from '../meeting-api';
import { PeerMesh } from '../peer-mesh';
import { meetingTexts } from '../meeting-texts';
import { meetingStyles } from './tm-meeting.styles';
import '../tm-doctor-panel/tm-doctor-panel';

type Phase = 'loading' | 'ready' | 'joining' | 'in-call' | 'ended' | 'left' | 'replaced' | 'unavailable';

/**
 * `<tm-meeting api signalling locale>`: a participant's consultation room.
 *
 * Its texts are in the `locale` attribute's language (`yo`, `ha`, `ig`, `pcm`, `en`; a tag such as
 * `yo-NG` works), else the browser's languages, else English (`meeting-texts.ts`); the element
 * carries the chosen `lang`.
 *
 * Loads the meeting state (the participant's cookie is the credential), joins on a click (browsers
 * let audio play after a gesture), asks for camera and microphone (microphone only when there is no
 * camera or it is refused: the call degrades to audio), connects to every other participant over
 * WebRTC with the platform's WebSocket signalling, and shows each participant's tile. The doctor's
 * page also records the consultation's audio and shows `<tm-doctor-panel>` (notes, prescriptions)
 * and "End consultation".
 *
 * @event tm-meeting-ended - the consultation is over (ended by the doctor, or its time passed).
 * @cssprop --tm-primary, --tm-danger, --tm-text, --tm-muted, --tm-notice, --tm-focus, --tm-font
 */
export class TmMeeting extends LitElement {
  static override styles = meetingStyles;
  static override properties = {
    api: {},
    signalling: {},
    locale: {},
    phase: { state: true },
    state: { state: true },
    message: { state: true },
    micOn: { state: true },
    cameraOn: { state: true },
    tick: { state: true },
    confirmingEnd: { state: true },
  };

  declare api: string;
  declare signalling: string;
  /** The participant's language (a BCP 47 tag); empty: the browser's. */
  declare locale: string;
  declare private phase: Phase;
  declare private state: MeetingState | undefined;
  declare private message: string;
  declare private micOn: boolean;
  declare private cameraOn: boolean;
  declare private tick: number;
  declare private confirmingEnd: boolean;
  private client!: MeetingApi;
  private localStream: MediaStream | undefined;
  private mesh: PeerMesh | undefined;
  private recorder: ConsultationRecorder | undefined;
  private readonly controller = new AbortController();

  constructor() {
    super();
    this.api = '/meet/api';
    this.signalling = '/meet/ws';
    this.locale = '';
    this.phase = 'loading';
    this.message = '';
    this.micOn = true;
    this.cameraOn = true;
    this.tick = 0;
    this.confirmingEnd = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.client = new MeetingApi(this.api);
    void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.controller.abort();
    this.mesh?.stop();
    this.localStream?.getTracks().forEach((t) => t.stop());
  }

  /** The state of each RTCPeerConnection, by the other participant's client id (for diagnostics and tests). */
  connectionStates(): Record<string, RTCPeerConnectionState> {
    return this.mesh?.connectionStates() ?? {};
  }

  /** The texts in the participant's language. */
  private get texts() {
    return meetingTexts(this.locale || navigator.languages);
  }

  /** A date and time in the participant's language where the browser knows it, else in digits (never an English month inside another language). */
  private dateTime(iso: string, part: 'both' | 'time') {
    const locale = this.texts.locale;
    const tag = locale === 'en' || locale === 'pcm' ? 'en-NG' : `${locale}-NG`;
    const known = tag === 'en-NG' || Intl.DateTimeFormat.supportedLocalesOf(tag).length > 0;
    const date = new Date(iso);
    if (part === 'time') return date.toLocaleTimeString(known ? tag : 'en-GB', { hour: '2-digit', minute: '2-digit' });
    return date.toLocaleString(known ? tag : 'en-GB', { dateStyle: known ? 'medium' : 'short', timeStyle: 'short' });
  }

  protected override willUpdate(): void {
    const lang = this.texts.locale;
    if (this.getAttribute('lang') !== lang) this.setAttribute('lang', lang);
  }

  private get isDoctor() {
    return this.state?.self.role === 'doctor';
  }

  private async load() {
    try {
      this.state = await this.client.state(this.controller.signal);
      this.phase = 'ready';
    } catch (error) {
      this.phase = 'unavailable';
      this.message = error instanceof MeetingApiError ? error.message : this.texts.t('loadFailed');
    }
  }

  private async media(): Promise<MediaStream> {
    const devices = navigator.mediaDevices;
    if (!devices?.getUserMedia) {
      this.message = this.texts.t('noDevices');
      return new MediaStream();
    }
    try {
      return await devices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true }, video: { facingMode: 'user', width: { ideal: 640 }, height: { ideal: 480 } } });
    } catch {
      try {
        const audio = await devices.getUserMedia({ audio: true });
        this.message = this.texts.t('audioOnly');
        this.cameraOn = false;
        return audio;
      } catch {
        this.message = this.texts.t('devicesUnavailable');
        return new MediaStream();
      }
    }
  }

  private async join() {
    if (!this.state) return;
    this.phase = 'joining';
    this.localStream = await this.media();
    if (this.isDoctor && ConsultationRecorder.supported()) {
      this.recorder = new ConsultationRecorder(this.client);
      this.recorder.add(this.localStream);
    }
    this.mesh = new PeerMesh({
      url: this.signalling,
      iceServers: this.state.iceServers,
      localStream: this.localStream,
      onChange: () => (this.tick += 1),
      onRemoteAudio: (stream) => this.recorder?.add(stream),
      onEnded: () => void this.finish('ended'),
      onReplaced: () => void this.finish('replaced'),
    });
    this.mesh.start();
    this.phase = 'in-call';
    if (this.recorder) {
      await this.recorder.start().catch(() => {
        this.recorder = undefined;
        this.message = this.texts.t('recordingFailed');
      });
    }
  }

  private async finish(phase: Phase) {
    await this.recorder?.stop();
    this.recorder = undefined;
    this.mesh?.stop();
    this.localStream?.getTracks().forEach((t) => t.stop());
    this.phase = phase;
    if (phase === 'ended') this.dispatchEvent(new CustomEvent('tm-meeting-ended', { bubbles: true, composed: true }));
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  private async endConsultation() {
    this.confirmingEnd = false;
    // Upload the last of the recording before the meeting closes.
    await this.recorder?.stop();
    this.recorder = undefined;
    try {
      await this.client.end();
      await this.finish('ended');
    } catch (error) {
      this.message = error instanceof MeetingApiError ? error.message : this.texts.t('endFailed');
    }
  }

  private toggle(kind: 'audio' | 'video') {
    const tracks = kind === 'audio' ? this.localStream?.getAudioTracks() : this.localStream?.getVideoTracks();
    if (!tracks?.length) return;
    const enabled = !tracks[0]!.enabled;
    tracks.forEach((t) => (t.enabled = enabled));
    if (kind === 'audio') this.micOn = enabled;
    else this.cameraOn = enabled;
  }

  protected override updated(): void {
    // Attach streams to their video elements (srcObject is not an attribute).
    for (const video of this.renderRoot.querySelectorAll<HTMLVideoElement>('video[data-peer]')) {
      const id = video.dataset.peer!;
      const stream = id === 'self' ? this.localStream : this.mesh?.peers.get(id)?.stream;
      if (stream && video.srcObject !== stream) video.srcObject = stream;
    }
  }

  private nameOf(clientId: string) {
    return this.state?.participants.find((p) => p.clientId === clientId)?.name ?? this.texts.t('participant');
  }

  private tile(id: string, label: string, stream: MediaStream | undefined, state?: RTCPeerConnectionState) {
    const { t } = this.texts;
    const video = !!stream?.getVideoTracks().length;
    return html`<figure data-state=${state ?? nothing}>
      ${video ? nothing : html`<div class="audio-only" aria-hidden="true">🎧</div>`}
      <video data-peer=${id} autoplay playsinline ?muted=${id === 'self'} .muted=${id === 'self'} ?hidden=${!video} aria-label=${t('videoOf', { name: label })}></video>
      <figcaption>${label}${state && state !== 'connected' ? ` (${t(`state.${state}`)})` : ''}</figcaption>
    </figure>`;
  }

  override render() {
    const { t } = this.texts;
    const s = this.state;
    switch (this.phase) {
      case 'loading':
        return html`<p role="status">${t('loading')}</p>`;
      case 'unavailable':
        return html`<h1 tabindex="-1">${t('unavailable')}</h1><p>${this.message}</p>`;
      case 'ended':
        return html`<h1 tabindex="-1">${t('endedTitle')}</h1><p>${t('endedBody')}</p>`;
      case 'left':
        return html`<h1 tabindex="-1">${t('leftTitle')}</h1><button @click=${() => location.reload()}>${t('rejoin')}</button>`;
      case 'replaced':
        return html`<h1 tabindex="-1">${t('replacedTitle')}</h1><p>${t('replacedBody')}</p>`;
    }
    const others = s!.participants.filter((p) => p.clientId !== s!.self.clientId);
    const when = `${this.dateTime(s!.appointmentStartTime, 'both')} – ${this.dateTime(s!.appointmentEndTime, 'time')}`;
    if (this.phase === 'ready' || this.phase === 'joining') {
      return html`<h1 tabindex="-1">${t('with', { names: others.map((p) => p.name).join(', ') })}</h1>
        <p>${t('when', { when, id: s!.meetingId })}</p>
        <p class="notice">${t('recorded')}</p>
        <button @click=${() => void this.join()} ?disabled=${this.phase === 'joining'}>${t('join')}</button>`;
    }
    const peers = [...(this.mesh?.peers.values() ?? [])];
    return html`<div class="layout ${this.isDoctor ? 'doctor' : ''}">
      <section aria-labelledby="call-heading">
        <h1 id="call-heading" tabindex="-1">${t('inCall', { id: s!.meetingId })}</h1>
        ${this.message ? html`<p class="notice" role="status">${this.message}</p>` : nothing}
        <p class="status" role="status">${peers.length === 0 ? t('waiting') : t('count', { count: peers.length + 1 })}${this.recorder ? ` · ${t('recording')}` : ''}</p>
        <div class="tiles">
          ${this.tile('self', t('you', { name: s!.self.name }), this.localStream)}
          ${peers.map((p) => this.tile(p.info.clientId, this.nameOf(p.info.clientId), p.stream, p.connection.connectionState))}
        </div>
        <div class="controls">
          <button class="secondary" aria-pressed=${String(!this.micOn)} @click=${() => this.toggle('audio')}>${this.micOn ? t('mute') : t('unmute')}</button>
          <button class="secondary" aria-pressed=${String(!this.cameraOn)} @click=${() => this.toggle('video')} ?disabled=${!this.localStream?.getVideoTracks().length}>${this.cameraOn ? t('cameraOff') : t('cameraOn')}</button>
          ${!this.isDoctor
            ? html`<button class="secondary" @click=${() => void this.finish('left')}>${t('leave')}</button>`
            : this.confirmingEnd
              ? html`<span role="alert">${t('endConfirm')}</span>
                  <button class="danger" @click=${() => void this.endConsultation()}>${t('endYes')}</button>
                  <button class="secondary" @click=${() => (this.confirmingEnd = false)}>${t('endNo')}</button>`
              : html`<button class="danger" @click=${() => (this.confirmingEnd = true)}>${t('end')}</button>`}
        </div>
      </section>
      ${this.isDoctor ? html`<tm-doctor-panel .api=${this.client} .notes=${s!.doctorNotes ?? []} .prescriptions=${s!.prescriptions ?? []}></tm-doctor-panel>` : nothing}
    </div>`;
  }
}
