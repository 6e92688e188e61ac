import type http from 'node:http';

/**
 * Fault injection shared by the local provider fakes: the next requests can fail with a status,
 * arrive late, or carry a body that is not JSON. Faults are consumed in arrival order, one per
 * request, after the request has been recorded (so a test can count what reached the provider).
 */
export type Fault = { kind: 'fail'; status: number; body: unknown } | { kind: 'delay'; ms: number } | { kind: 'malformed' };

export class FaultQueue {
  private readonly queue: Fault[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  failNext(n: number, status: number, body: unknown): void {
    for (let i = 0; i < n; i++) this.queue.push({ kind: 'fail', status, body });
  }

  delayNext(ms: number): void {
    this.queue.push({ kind: 'delay', ms });
  }

  malformedNext(): void {
    this.queue.push({ kind: 'malformed' });
  }

  /**
   * Applies the next fault, if any. Answers `true` when the fault answered the request (fail, malformed);
   * a delay waits and then answers `false` so the fake goes on normally.
   */
  async apply(res: http.ServerResponse): Promise<boolean> {
    const fault = this.queue.shift();
    if (!fault) return false;
    if (fault.kind === 'delay') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          resolve();
        }, fault.ms);
        this.timers.add(timer);
      });
      return res.destroyed || res.writableEnded;
    }
    if (fault.kind === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"entity": {"truncated');
      return true;
    }
    sendJson(res, fault.status, fault.body);
    return true;
  }

  clearTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the fake did not get a port');
  return `http://127.0.0.1:${address.port}`;
}

export async function close(server: http.Server, faults: FaultQueue): Promise<void> {
  faults.clearTimers();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
