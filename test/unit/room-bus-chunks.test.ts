import { describe, expect, it } from 'vitest';
import { MAX_PIECES, NOTIFY_PAYLOAD_LIMIT, Reassembler, splitPayload } from '../../server/integrations/room-bus/chunks';
import { InProcessRoomBus } from '../../server/integrations/room-bus/in-process';

const shuffle = <T>(items: T[]) => items.map((v, i) => [((i * 7919) % 101) + Math.sin(i), v] as const).sort((x, y) => x[0] - y[0]).map(([, v]) => v);

describe('NOTIFY payload chunking', () => {
  it('sends a message within the limit as it is', () => {
    const text = JSON.stringify({ kind: 'signal', data: { sdp: 'v=0' } });
    expect(splitPayload(text)).toEqual([text]);
    expect(new Reassembler().add(text)).toBe(text);
  });

  it('cuts a long message into pieces each within the limit in bytes, never inside a code point, and puts them back in any order', () => {
    const text = JSON.stringify({ sdp: 'a=candidate généré Ọ̀kan 😀 '.repeat(900) });
    expect(Buffer.byteLength(text)).toBeGreaterThan(3 * NOTIFY_PAYLOAD_LIMIT);
    const pieces = splitPayload(text);
    expect(pieces.length).toBeGreaterThan(3);
    for (const piece of pieces) {
      expect(Buffer.byteLength(piece)).toBeLessThanOrEqual(NOTIFY_PAYLOAD_LIMIT);
      expect(piece).not.toContain('\uFFFD');
      expect(Buffer.from(piece).toString()).toBe(piece);
    }
    const reassembler = new Reassembler();
    const order = shuffle(pieces);
    const results = order.map((p) => reassembler.add(p));
    expect(results.slice(0, -1).every((r) => r === undefined)).toBe(true);
    expect(results.at(-1)).toBe(text);
    expect(reassembler.incomplete).toBe(0);
  });

  it('keeps two long messages apart when their pieces interleave', () => {
    const one = 'x'.repeat(20_000);
    const two = 'y'.repeat(20_000);
    const r = new Reassembler();
    const [p1, p2] = [splitPayload(one, 5000), splitPayload(two, 5000)];
    const out: string[] = [];
    for (let i = 0; i < Math.max(p1.length, p2.length); i++) for (const p of [p2[i], p1[i]]) if (p) { const t = r.add(p); if (t) out.push(t); }
    expect(out).toEqual([two, one]);
  });

  it('ignores a repeated piece, a malformed one, and forgets an incomplete set after its TTL', () => {
    let now = 0;
    const r = new Reassembler(1000, () => now);
    const pieces = splitPayload('z'.repeat(12_000), 5000);
    expect(r.add(pieces[0]!)).toBeUndefined();
    expect(r.add(pieces[0]!)).toBeUndefined();
    expect(r.add('~nothex|0|2|abc')).toBeUndefined();
    expect(r.add('~0123456789abcdef|5|2|abc')).toBeUndefined();
    expect(r.incomplete).toBe(1);
    now = 2000;
    expect(r.add(pieces[1]!)).toBeUndefined(); // the first piece was forgotten
    expect(r.incomplete).toBe(1);
  });

  it('refuses a message that would need more than MAX_PIECES pieces', () => {
    expect(() => splitPayload('w'.repeat(MAX_PIECES * NOTIFY_PAYLOAD_LIMIT))).toThrow(/too large/);
  });
});

describe('in-process room bus', () => {
  it('delivers to the room subscribers only, asynchronously, as copies; presence expires and withdraws only the current connection', async () => {
    let now = 0;
    const bus = new InProcessRoomBus(() => now);
    const got: unknown[] = [];
    const other: unknown[] = [];
    const off = await bus.subscribe('r1', (m) => got.push(m));
    await bus.subscribe('r2', (m) => other.push(m));
    const message = { kind: 'signal', data: { n: 1 } };
    const published = bus.publish('r1', message);
    expect(got).toEqual([]);
    await published;
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual([message]);
    expect(got[0]).not.toBe(message);
    expect(other).toEqual([]);
    await off();
    await bus.publish('r1', message);
    await new Promise((r) => setImmediate(r));
    expect(got).toHaveLength(1);

    await bus.announce('r1', { clientId: 'a', connection: 'c1', name: 'A', role: 'patient' }, 1000);
    await bus.announce('r1', { clientId: 'a', connection: 'c2', name: 'A', role: 'patient' }, 1000);
    expect(await bus.withdraw('r1', 'a', 'c1')).toBe(false);
    expect((await bus.present('r1')).map((p) => p.connection)).toEqual(['c2']);
    now = 1000;
    expect(await bus.present('r1')).toEqual([]);
    expect(await bus.withdraw('r1', 'a', 'c2')).toBe(true);
  });
});
