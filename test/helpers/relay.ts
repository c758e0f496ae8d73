import {
  connect,
  createServer,
  type ListenOptions,
  type NetConnectOpts,
  type Server,
  type Socket,
} from 'node:net';

export interface Relay {
  server: Server;
  close(): Promise<void>;
}

/**
 * Pipes every connection made to `listen` through to `target`, both ways. A unix socket is a file,
 * not an address, so it is how a process in one network namespace reaches into another: a relay
 * on a host listens on one, a relay here connects to it. Node has no TCP proxy of its own.
 */
export function relay(listen: ListenOptions, target: NetConnectOpts): Promise<Relay> {
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
    }
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen, () =>
      resolve({
        server,
        close: () =>
          new Promise<void>((done) => {
            for (const s of open) s.destroy();
            server.close(() => done());
          }),
      }),
    );
  });
}
