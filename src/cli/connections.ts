import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface Connections {
  /** Ends the connections carrying no request: kept-alive ones and ones that never sent one. */
  cutIdle(): void;
  /** Ends every connection still open, upgraded ones included. */
  cutAll(): void;
}

/**
 * The server's connections and which carry a request. Node's own `closeIdleConnections` passes
 * over a connection that has not sent its first request (a browser's preconnect), which then
 * holds the server's close until the headers time-out, a minute; and an upgraded connection
 * (a session relay) is no longer the HTTP server's to close at all.
 */
export function trackConnections(server: Server): Connections {
  const open = new Set<Socket>();
  const busy = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      busy.delete(socket);
    });
  });
  server.on('request', (req, res) => {
    busy.add(req.socket);
    res.once('close', () => busy.delete(req.socket));
  });
  server.on('upgrade', (_req, socket: Socket) => busy.add(socket));
  return {
    cutIdle() {
      for (const socket of open) if (!busy.has(socket)) socket.destroy();
    },
    cutAll() {
      for (const socket of open) socket.destroy();
    },
  };
}
