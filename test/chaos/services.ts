import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The chaos suite's own PostgreSQL cluster and Redis server, on free loopback ports in a temporary
 * directory, so it can restart and stop them without disturbing anything else on the machine (the
 * shared services the test suite uses stay untouched).
 */

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function postgresBin(): string {
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const candidates = [
    process.env.CHAOS_PG_BIN,
    fromConfig.status === 0 ? fromConfig.stdout.trim() : undefined,
    ...(fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql').sort().reverse().map((v) => `/usr/lib/postgresql/${v}/bin`) : []),
  ];
  const found = candidates.find((dir) => dir && fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')));
  if (!found) throw new Error('the chaos suite needs the PostgreSQL server binaries (initdb, pg_ctl): install postgresql or set CHAOS_PG_BIN');
  return found;
}

/** PostgreSQL refuses to run as root: run its tools as the `postgres` user then. */
function asPostgresUser(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

export interface PostgresCluster {
  url: string;
  port: number;
  /** A crash and restart: every backend killed at once (`pg_ctl -m immediate`), crash recovery on start. */
  crashRestart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<PostgresCluster> {
  const bin = postgresBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaos-pg-'));
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
  const data = path.join(dir, 'data');
  const port = await freePort();
  const run = (tool: string, args: string[]) => {
    const [command, argv] = asPostgresUser(path.join(bin, tool), args);
    execFileSync(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  };
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  // fsync off: the suite kills processes, not the machine, so the page cache survives every fault.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () => run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '60', '-o', options, 'start']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async crashRestart() {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      start();
    },
    async stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export interface RedisServer {
  url: string;
  /** Stops the server (its clients see the connection drop) until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaos-redis-'));
  let child: ReturnType<typeof spawn> | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    for (let i = 0; i < 100; i += 1) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
      if (up) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('redis-server did not start');
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    c.kill('SIGKILL');
    await new Promise((r) => c.once('exit', r));
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    stop,
    start,
    async close() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
