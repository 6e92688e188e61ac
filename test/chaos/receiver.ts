import http from 'node:http';
import type net from 'node:net';

/**
 * The partner's webhook endpoint, on loopback: records every attempt it is sent (event id,
 * delivery id, attempt number) and refuses some first attempts, so retries happen under faults
 * too: `refuse(deliveryId)` decides (429 with Retry-After: 1, or 500).
 */
export interface Attempt {
  eventId: string;
  deliveryId: string;
  attempt: number;
  event: string;
  answered: number;
}

export interface Receiver {
  url: string;
  attempts: Attempt[];
  /** Events answered 2xx at least once. */
  delivered: Set<string>;
  /** Stop refusing (the drain at the end of a run). */
  acceptAll(): void;
  close(): Promise<void>;
}

export async function startReceiver(refuse: (deliveryId: string, attempt: number) => 0 | 429 | 500): Promise<Receiver> {
  const attempts: Attempt[] = [];
  const delivered = new Set<string>();
  let acceptAll = false;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const eventId = String(req.headers['x-service-event-id'] ?? '');
      const deliveryId = String(req.headers['x-service-delivery-id'] ?? '');
      const attempt = Number(req.headers['x-service-delivery-attempt'] ?? 0);
      const event = String(req.headers['x-service-event'] ?? '');
      const decided = acceptAll ? 0 : refuse(deliveryId, attempt);
      const answered = decided || 200;
      attempts.push({ eventId, deliveryId, attempt, event, answered });
      if (answered === 200) delivered.add(eventId);
      if (answered === 429) res.setHeader('Retry-After', '1');
      res.writeHead(answered, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const sockets = new Set<net.Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hooks`,
    attempts,
    delivered,
    acceptAll: () => {
      acceptAll = true;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
