import { describe, expect, it } from 'vitest';
import { KEEP_ALIVE, keepAliveDelay } from '../../widget/session-liveness';

describe('keepAliveDelay: when the page next slides its session', () => {
  it('at half the remaining lifetime, never less often than every 5 minutes', () => {
    expect(keepAliveDelay(60)).toBe(30_000);
    expect(keepAliveDelay(4 * 60)).toBe(120_000);
    expect(keepAliveDelay(30 * 60)).toBe(KEEP_ALIVE.intervalMs);
    expect(keepAliveDelay(12 * 3600)).toBe(KEEP_ALIVE.intervalMs);
  });

  it('never more often than every 5 s, also for a session about to end', () => {
    expect(keepAliveDelay(6)).toBe(KEEP_ALIVE.floorMs);
    expect(keepAliveDelay(0)).toBe(KEEP_ALIVE.floorMs);
  });

  it('when the server does not say (an older server, the dashboard preview), then every 5 minutes as before', () => {
    expect(keepAliveDelay(undefined)).toBe(KEEP_ALIVE.intervalMs);
    expect(keepAliveDelay(Number.NaN)).toBe(KEEP_ALIVE.intervalMs);
  });
});
