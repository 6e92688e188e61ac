import net from 'node:net';

/** A loopback TCP proxy to PostgreSQL that the test can cut (every connection dropped, nothing listening) and restore. */
export async function startPostgresProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const open = async () => {
    server = net.createServer((socket) => {
      const upstream = net.connect(target.port, target.host);
      for (const s of [socket, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      socket.pipe(upstream).pipe(socket);
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', () => resolve()));
    port = (server!.address() as net.AddressInfo).port;
  };
  await open();
  return {
    get port() {
      return port;
    },
    async cut() {
      const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
    restore: open,
  };
}
