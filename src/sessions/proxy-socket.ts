import { rm } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * The egress proxy as a sandboxed browser reaches it. A session browser has a network namespace
 * of its own with nothing in it but loopback (sandbox.ts), so the proxy's TCP listener on the
 * host's loopback is out of its reach; a unix socket is not, once bound into its file system.
 * Each connection to this socket is passed on, byte for byte, to the proxy's listener, which
 * checks every request as it does for any browser.
 *
 * Written by hand: it is a plain `pipe` each way, which no package would make shorter.
 */
export interface ProxySocket {
  /** The socket's path on the host, bound into the sandbox (sandbox.ts). */
  path: string;
  close(): Promise<void>;
}

export async function openProxySocket(path: string, proxyUrl: string): Promise<ProxySocket> {
  const target = new URL(proxyUrl);
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server: Server = createServer((inside) => {
    track(inside);
    const proxy = connect({ host: target.hostname, port: Number(target.port) });
    track(proxy);
    inside.on('close', () => proxy.destroy());
    proxy.on('close', () => inside.destroy());
    inside.pipe(proxy);
    proxy.pipe(inside);
  });
  await rm(path, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  return {
    path,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(path, { force: true });
    },
  };
}
