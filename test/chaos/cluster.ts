import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type net from 'node:net';
import { freePort } from './services';

/**
 * The processes under test and what stands in front of them: two `--role api` and two `--role
 * worker` processes of the `npm start` bundle, each on its own loopback port, kept running by a
 * supervisor (a process that exits is started again on the same port, as systemd or Kubernetes
 * would), and a round-robin HTTP proxy on loopback in front of the API processes.
 */
export type Role = 'api' | 'worker';

export interface Member {
  name: string;
  role: Role;
  port: number;
  url: string;
  /** Whether the current incarnation has said it listens. */
  up: boolean;
  child?: ChildProcess;
  starts: number;
  /** Exits nobody asked for (a crash of its own, or start-up refused while the database was down). */
  ownExits: number;
  /** Own exits after the incarnation was listening: a process the faults did not kill, that died anyway. */
  diedWhileUp: number;
  log: string[];
}

export interface Cluster {
  members: Member[];
  proxyUrl: string;
  /** SIGKILL one member now; the supervisor starts it again after `restartAfterMs`. */
  kill(member: Member, restartAfterMs: number): Promise<void>;
  /** Resolves once every member is listening. */
  allUp(timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startCluster(bundle: string, env: Record<string, string>, counts: { api: number; worker: number }): Promise<Cluster> {
  const members: Member[] = [];
  for (const role of ['api', 'worker'] as const) {
    for (let i = 1; i <= counts[role]; i += 1) {
      const port = await freePort();
      members.push({ name: `${role}-${i}`, role, port, url: `http://127.0.0.1:${port}`, up: false, starts: 0, ownExits: 0, diedWhileUp: 0, log: [] });
    }
  }
  let stopping = false;
  const killed = new Set<ChildProcess>();

  const launch = (member: Member) => {
    if (stopping) return;
    member.starts += 1;
    member.up = false;
    const child = spawn(process.execPath, [bundle, '--role', member.role], {
      env: { ...process.env, ...env, PORT: String(member.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    member.child = child;
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      // The last lines of output, for the report of a process that died by itself.
      member.log.push(text);
      if (member.log.length > 40) member.log.shift();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    // Up once its /healthz answers (the process logs at warn: no listening line to wait for).
    void (async () => {
      while (member.child === child && child.exitCode === null && child.signalCode === null && !member.up) {
        const ok = await fetch(`${member.url}/healthz`).then((r) => r.ok, () => false);
        if (ok && member.child === child && child.exitCode === null) member.up = true;
        else await new Promise((r) => setTimeout(r, 100));
      }
    })();
    child.on('exit', () => {
      const wasUp = member.up && member.child === child;
      if (member.child === child) member.up = false;
      if (killed.delete(child) || stopping) return;
      member.ownExits += 1;
      if (wasUp) member.diedWhileUp += 1;
      // Supervisor: start it again shortly (a start refused while PostgreSQL restarts retries here).
      setTimeout(() => launch(member), 500);
    });
  };
  // Round-robin over the API processes; a refused connection tries the next one (as a load
  // balancer's health check would steer away from a dead process); anything else answers 502.
  const apis = members.filter((m) => m.role === 'api');
  let next = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const forward = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, tries: number) => {
    const target = apis[next++ % apis.length]!;
    const upstream = http.request(
      { host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && tries < apis.length * 2) {
        setTimeout(() => forward(req, res, body, tries + 1), tries < apis.length ? 0 : 100);
        return;
      }
      // The process died with the request in it: the client cannot know whether it committed.
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'bad_gateway', message: error.message }));
      else res.destroy();
    });
    upstream.end(body);
  };
  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => forward(req, res, Buffer.concat(chunks), 0));
  });
  const sockets = new Set<net.Socket>();
  proxy.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
  // Workers reach the sandbox rail through the load balancer, as behind a real one.
  env = { ...env, PUBLIC_BASE_URL: proxyUrl };
  for (const member of members) launch(member);

  const cluster: Cluster = {
    members,
    proxyUrl,
    async kill(member, restartAfterMs) {
      const child = member.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      killed.add(child);
      member.up = false;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      setTimeout(() => launch(member), restartAfterMs);
    },
    async allUp(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!members.every((m) => m.up)) {
        if (Date.now() > deadline) throw new Error(`not every process is up: ${members.filter((m) => !m.up).map((m) => `${m.name}\n${m.log.join('')}`).join('\n')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      stopping = true;
      await Promise.all(
        members.map(async (m) => {
          const child = m.child;
          if (!child || child.exitCode !== null || child.signalCode !== null) return;
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(timer);
        }),
      );
      for (const s of sockets) s.destroy();
      agent.destroy();
      await new Promise((r) => proxy.close(r));
    },
  };
  return cluster;
}
