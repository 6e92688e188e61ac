import crypto from 'node:crypto';

/**
 * PostgreSQL's NOTIFY payload must be shorter than 8000 bytes; an SDP offer with its candidates, JSON-escaped, can
 * pass that. A message that fits goes as it is (JSON, starting with `{`); a longer one is cut into numbered pieces
 * `~<id>|<index>|<count>|<text>`, each within the limit, sent in one statement so they arrive together and in
 * order, and put back together by the receiver (`Reassembler`). Cuts fall between code points, never inside one.
 */
export const NOTIFY_PAYLOAD_LIMIT = 7900;
/** The signalling socket's own message cap (64 KiB) fits in far fewer. */
export const MAX_PIECES = 64;

export function splitPayload(text: string, limit = NOTIFY_PAYLOAD_LIMIT): string[] {
  if (Buffer.byteLength(text) <= limit) return [text];
  const id = crypto.randomBytes(8).toString('hex');
  const pieces: string[] = [];
  // The header of the widest piece: `~` + id + `|` + index + `|` + count + `|`.
  const room = limit - (1 + id.length + 3 + 2 * String(MAX_PIECES).length);
  let current = '';
  let bytes = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (bytes + size > room) {
      pieces.push(current);
      current = '';
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  if (current) pieces.push(current);
  if (pieces.length > MAX_PIECES) throw new Error(`message too large for the room bus (${Buffer.byteLength(text)} bytes)`);
  return pieces.map((piece, index) => `~${id}|${index}|${pieces.length}|${piece}`);
}

/** Collects pieces; returns the whole text when the last one arrives. Incomplete sets are forgotten after `ttlMs`. */
export class Reassembler {
  private readonly pending = new Map<string, { parts: Array<string | undefined>; received: number; since: number }>();

  constructor(private readonly ttlMs = 30_000, private readonly now: () => number = Date.now) {}

  /** The complete text, or undefined while pieces are missing (or the payload is malformed). */
  add(payload: string): string | undefined {
    if (!payload.startsWith('~')) return payload;
    this.forgetStale();
    const match = /^~([0-9a-f]{16})\|(\d+)\|(\d+)\|/.exec(payload);
    if (!match) return undefined;
    const [header, id, indexText, countText] = match as unknown as [string, string, string, string];
    const index = Number(indexText);
    const count = Number(countText);
    if (count < 1 || count > MAX_PIECES || index >= count) return undefined;
    let entry = this.pending.get(id);
    if (!entry) this.pending.set(id, (entry = { parts: new Array(count).fill(undefined), received: 0, since: this.now() }));
    if (entry.parts.length !== count || entry.parts[index] !== undefined) return undefined;
    entry.parts[index] = payload.slice(header.length);
    entry.received += 1;
    if (entry.received < count) return undefined;
    this.pending.delete(id);
    return entry.parts.join('');
  }

  get incomplete(): number {
    return this.pending.size;
  }

  private forgetStale(): void {
    const cutoff = this.now() - this.ttlMs;
    for (const [id, entry] of this.pending) if (entry.since < cutoff) this.pending.delete(id);
  }
}
