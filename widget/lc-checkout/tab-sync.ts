/**
 * Keeps a second tab (or window) of the same checkout in step with the first: when this tab sees
 * the flow move on, it says so on a BroadcastChannel named after the session, and the others read
 * the state again. A tab coming back into view (`visibilitychange`) reads it again too, which also
 * covers browsers without BroadcastChannel. Only a nudge travels between tabs — the server's state
 * is what every tab shows. Same-origin only, by the channel's nature; nothing personal is posted.
 */
export class TabSync {
  private channel: BroadcastChannel | undefined;
  private signature: string | undefined;
  private readonly onVisible = () => {
    if (document.visibilityState === 'visible') this.refresh();
  };

  /** @param refresh reads the server's state again */
  constructor(private readonly refresh: () => void) {}

  follow(sessionId: string): void {
    if (this.channel || typeof window === 'undefined') return;
    if (typeof BroadcastChannel === 'function') {
      this.channel = new BroadcastChannel(`lc-checkout:${sessionId}`);
      this.channel.onmessage = () => this.refresh();
    }
    document.addEventListener('visibilitychange', this.onVisible);
  }

  stop(): void {
    this.channel?.close();
    this.channel = undefined;
    document.removeEventListener('visibilitychange', this.onVisible);
  }

  /** This tab read the state: when its progress differs from the last one seen, tell the other tabs. */
  seen(signature: string): void {
    const before = this.signature;
    this.signature = signature;
    if (before !== undefined && before !== signature) this.channel?.postMessage({ type: 'changed' });
  }
}
