import crypto from 'node:crypto';
import http from 'node:http';

/**
 * The workload's HTTP client: a partner backend that retries. A write carries an Idempotency-Key
 * and is sent again with the same key, the same body, on any network error, on 502/503/504 (the
 * load balancer or a restarting database) and on 409 IDEMPOTENCY_KEY_IN_USE (the first attempt is
 * still running, or died and its claim has not lapsed yet), until it gets an answer or
 * `RETRY_FOR_MS` runs out. Every write and its final answer are recorded for the checks.
 */
const RETRY_FOR_MS = 120_000;
const REQUEST_TIMEOUT_MS = 20_000;

export interface Answer {
  status: number;
  text: string;
  json: any;
  replayed: boolean;
}

export interface WriteRecord {
  key: string;
  method: string;
  path: string;
  body: unknown;
  /** The answer the client finally acted on. */
  answer: Answer;
  /** How each earlier try ended: a network error's code, or the status that was retried. */
  retries: string[];
}

export class PartnerClient {
  readonly writes: WriteRecord[] = [];
  /** What made the client try again, by cause (network error code or status). */
  readonly retryCauses = new Map<string, number>();
  /** Answers of 500 (a bug: never expected, even under faults). */
  readonly internalErrors: Array<{ path: string; text: string }> = [];
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

  constructor(
    private readonly baseUrl: string,
    private readonly headers: Record<string, string>,
  ) {}

  private once(method: string, path: string, payload: string, extra: Record<string, string>): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${this.baseUrl}${path}`,
        {
          method,
          agent: this.agent,
          timeout: REQUEST_TIMEOUT_MS,
          headers: { ...this.headers, ...extra, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode!, text, json, replayed: res.headers['idempotent-replayed'] === 'true' });
          });
        },
      );
      req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })));
      req.on('error', reject);
      req.end(payload);
    });
  }

  private count(cause: string) {
    this.retryCauses.set(cause, (this.retryCauses.get(cause) ?? 0) + 1);
  }

  /** Sends until answered (see the class comment); `key` present = a write with that Idempotency-Key. */
  private async send(method: string, path: string, body: unknown, key: string | undefined, retries: string[]): Promise<Answer> {
    const payload = body === undefined ? '' : JSON.stringify(body);
    const deadline = Date.now() + RETRY_FOR_MS;
    for (let attempt = 0; ; attempt += 1) {
      let cause: string;
      try {
        const answer = await this.once(method, path, payload, key ? { 'Idempotency-Key': key } : {});
        if (answer.status === 500) this.internalErrors.push({ path, text: answer.text.slice(0, 300) });
        const inUse = answer.status === 409 && answer.json?.error === 'IDEMPOTENCY_KEY_IN_USE';
        if (![500, 502, 503, 504].includes(answer.status) && !inUse) return answer;
        cause = inUse ? '409 IDEMPOTENCY_KEY_IN_USE' : String(answer.status);
      } catch (error) {
        cause = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      }
      retries.push(cause);
      this.count(cause);
      if (Date.now() > deadline) throw new Error(`${method} ${path}: no answer after ${RETRY_FOR_MS} ms (${retries.join(', ')})`);
      await new Promise((r) => setTimeout(r, Math.min(2_000, 100 * 2 ** Math.min(attempt, 4))));
    }
  }

  async write(path: string, body: unknown = {}): Promise<Answer> {
    const key = `chaos-${crypto.randomUUID()}`;
    const retries: string[] = [];
    const answer = await this.send('POST', path, body, key, retries);
    this.writes.push({ key, method: 'POST', path, body, answer, retries });
    return answer;
  }

  /** The same write again, with its key: must be the stored answer. */
  replay(record: WriteRecord): Promise<Answer> {
    return this.send(record.method, record.path, record.body, record.key, []);
  }

  read(path: string): Promise<Answer> {
    return this.send('GET', path, undefined, undefined, []);
  }

  close() {
    this.agent.destroy();
  }
}
