import type { MeetingPeerInfo } from './meeting-api';

type SignalData = { description?: RTCSessionDescriptionInit; candidate?: RTCIceCandidateInit };
type ServerMessage =
  | { type: 'welcome'; self: string; peers: MeetingPeerInfo[] }
  | { type: 'peer-joined'; peer: MeetingPeerInfo }
  | { type: 'peer-left'; clientId: string }
  | { type: 'signal'; from: string; data: SignalData }
  | { type: 'ended' }
  | { type: 'replaced' };

export interface RemotePeer {
  info: MeetingPeerInfo;
  connection: RTCPeerConnection;
  stream: MediaStream;
  pendingCandidates: RTCIceCandidateInit[];
}

export interface PeerMeshOptions {
  url: string;
  iceServers: RTCIceServer[];
  localStream: MediaStream;
  /** Something changed (peers, streams, connection states): re-render. */
  onChange(): void;
  /** A remote stream gained an audio track (the recorder mixes it in). */
  onRemoteAudio(stream: MediaStream): void;
  onEnded(): void;
  onReplaced(): void;
}

/**
 * A full mesh of RTCPeerConnections, one per other participant, signalled over the platform's
 * WebSocket. The newcomer makes the offers (so two peers never offer to each other at once); a
 * dropped WebSocket reconnects with backoff and renegotiates from scratch.
 */
export class PeerMesh {
  readonly peers = new Map<string, RemotePeer>();
  signalling: 'connecting' | 'open' | 'closed' = 'connecting';
  private socket: WebSocket | undefined;
  private stopped = false;
  private attempt = 0;

  constructor(private readonly options: PeerMeshOptions) {}

  start(): void {
    this.stopped = false;
    this.open();
  }

  stop(): void {
    this.stopped = true;
    this.socket?.close(1000, 'left');
    for (const peer of this.peers.values()) peer.connection.close();
    this.peers.clear();
    this.signalling = 'closed';
    this.options.onChange();
  }

  connectionStates(): Record<string, RTCPeerConnectionState> {
    return Object.fromEntries([...this.peers].map(([id, peer]) => [id, peer.connection.connectionState]));
  }

  private open(): void {
    const url = new URL(this.options.url, location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    this.socket = socket;
    this.signalling = 'connecting';
    socket.onopen = () => {
      this.attempt = 0;
      this.signalling = 'open';
      this.options.onChange();
    };
    socket.onmessage = (event) => void this.onMessage(JSON.parse(String(event.data)) as ServerMessage);
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.signalling = 'closed';
      this.options.onChange();
      if (this.stopped || event.code === 4000 || event.code === 4001) return;
      // Reconnect with backoff; the server refuses (and we stop) once the meeting has closed.
      this.attempt += 1;
      if (this.attempt > 6) return;
      setTimeout(() => !this.stopped && this.open(), Math.min(8000, 500 * 2 ** this.attempt));
    };
  }

  private send(to: string, data: SignalData): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: 'signal', to, data }));
  }

  private async onMessage(message: ServerMessage): Promise<void> {
    switch (message.type) {
      case 'welcome':
        for (const peer of [...this.peers.keys()]) this.drop(peer);
        for (const info of message.peers) await this.offerTo(info);
        break;
      case 'peer-joined':
        this.drop(message.peer.clientId);
        this.create(message.peer);
        break;
      case 'peer-left':
        this.drop(message.clientId);
        break;
      case 'signal':
        await this.onSignal(message.from, message.data);
        break;
      case 'ended':
        this.stopped = true;
        this.options.onEnded();
        break;
      case 'replaced':
        this.stopped = true;
        this.options.onReplaced();
        break;
    }
    this.options.onChange();
  }

  private create(info: MeetingPeerInfo): RemotePeer {
    const connection = new RTCPeerConnection({ iceServers: this.options.iceServers });
    const local = this.options.localStream;
    for (const track of local.getTracks()) connection.addTrack(track, local);
    // Receive audio and video even when this side sends neither (audio-only phones, no camera).
    if (local.getAudioTracks().length === 0) connection.addTransceiver('audio', { direction: 'recvonly' });
    if (local.getVideoTracks().length === 0) connection.addTransceiver('video', { direction: 'recvonly' });
    const peer: RemotePeer = { info, connection, stream: new MediaStream(), pendingCandidates: [] };
    connection.onicecandidate = (event) => {
      if (event.candidate) this.send(info.clientId, { candidate: event.candidate.toJSON() });
    };
    connection.ontrack = (event) => {
      peer.stream.addTrack(event.track);
      if (event.track.kind === 'audio') this.options.onRemoteAudio(new MediaStream([event.track]));
      this.options.onChange();
    };
    connection.onconnectionstatechange = () => this.options.onChange();
    this.peers.set(info.clientId, peer);
    return peer;
  }

  private drop(clientId: string): void {
    const peer = this.peers.get(clientId);
    if (!peer) return;
    peer.connection.close();
    this.peers.delete(clientId);
  }

  private async offerTo(info: MeetingPeerInfo): Promise<void> {
    const peer = this.create(info);
    await peer.connection.setLocalDescription(await peer.connection.createOffer());
    this.send(info.clientId, { description: peer.connection.localDescription!.toJSON() });
  }

  private async onSignal(from: string, data: SignalData): Promise<void> {
    const peer = this.peers.get(from) ?? this.create({ clientId: from, name: '', role: '' });
    const connection = peer.connection;
    if (data.description) {
      await connection.setRemoteDescription(data.description);
      if (data.description.type === 'offer') {
        await connection.setLocalDescription(await connection.createAnswer());
        this.send(from, { description: connection.localDescription!.toJSON() });
      }
      for (const candidate of peer.pendingCandidates.splice(0)) await connection.addIceCandidate(candidate).catch(() => undefined);
    } else if (data.candidate) {
      if (connection.remoteDescription) await connection.addIceCandidate(data.candidate).catch(() => undefined);
      else peer.pendingCandidates.push(data.candidate);
    }
  }
}
