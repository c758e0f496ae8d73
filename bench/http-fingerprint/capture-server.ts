import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest } from 'node:http2';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { createSecureContext, TLSSocket } from 'node:tls';
import { type ClientHello, missingRecordBytes, parseClientHello } from './client-hello.ts';

/** What one client showed on one connection: its ClientHello, its HTTP/2 opening, its request headers. */
export interface Capture {
  hello: ClientHello;
  protocol: string;
  /** HTTP/2: SETTINGS entries in the order sent, as id:value. */
  settings: string[];
  /** HTTP/2: the connection's WINDOW_UPDATE increment before the first request, 0 when none. */
  windowUpdate: number;
  /** HTTP/2: PRIORITY frames before the first request, as stream:exclusive:dependency:weight. */
  priorities: string[];
  /** Header names as they came, pseudo-headers included (HTTP/2) or Host first (HTTP/1.1). */
  headerNames: string[];
  headers: Array<[string, string]>;
}

/** A duplex over `write` whose readable side is fed by hand: lets a TLS or HTTP/2 server read bytes this side has already looked at. */
function feedable(write: (chunk: Buffer, done: (err?: Error | null) => void) => void): Duplex {
  return new Duplex({ read() {}, write: (chunk, _enc, done) => write(chunk as Buffer, done) });
}

const PREFACE = 24;

/** HTTP/2 frames a client sent before its first HEADERS frame (RFC 9113 4.1). */
function openingFrames(bytes: Buffer): Pick<Capture, 'settings' | 'windowUpdate' | 'priorities'> {
  const out = { settings: [] as string[], windowUpdate: 0, priorities: [] as string[] };
  for (let p = PREFACE; p + 9 <= bytes.length; ) {
    const len = bytes.readUIntBE(p, 3);
    const type = bytes[p + 3]!;
    const flags = bytes[p + 4]!;
    const stream = bytes.readUInt32BE(p + 5) & 0x7fffffff;
    const body = p + 9;
    if (type === 1) break;
    if (type === 4 && !(flags & 1))
      for (let q = body; q < body + len; q += 6)
        out.settings.push(`${bytes.readUInt16BE(q)}:${bytes.readUInt32BE(q + 2)}`);
    if (type === 8 && stream === 0) out.windowUpdate = bytes.readUInt32BE(body) & 0x7fffffff;
    if (type === 2) {
      const dep = bytes.readUInt32BE(body);
      out.priorities.push(`${stream}:${dep >>> 31}:${dep & 0x7fffffff}:${bytes[body + 4]! + 1}`);
    }
    p = body + len;
  }
  return out;
}

/**
 * A TLS server on loopback that records, per request path, the ClientHello of the connection it
 * came on, the HTTP/2 frames that opened it and the request's header names in order. It reads the
 * ClientHello off the socket before handing the bytes to TLS, and the decrypted HTTP/2 bytes before
 * handing them to node:http2, which decodes the headers (HPACK) for it.
 */
export async function startCaptureServer(tls: { key: Buffer; cert: Buffer }): Promise<{
  port: number;
  captures: Map<string, Capture>;
  close(): Promise<void>;
}> {
  const captures = new Map<string, Capture>();
  const secureContext = createSecureContext(tls);
  const h2 = createHttp2Server();
  const h1 = createHttpServer();
  const record = (
    req: IncomingMessage | Http2ServerRequest,
    base: Omit<Capture, 'headerNames' | 'headers'>,
  ) => {
    const headers: Array<[string, string]> = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
    captures.set(req.url ?? '/', { ...base, headers, headerNames: headers.map(([n]) => n) });
  };
  const sockets = new Set<Socket>();
  const server: Server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      if (missingRecordBytes(head) > 0) return;
      socket.off('data', onData);
      const hello = parseClientHello(head);
      const raw = feedable((c, done) => socket.write(c, done));
      raw.push(head);
      socket.on('data', (c) => raw.push(c));
      socket.on('end', () => raw.push(null));
      const secure = new TLSSocket(raw, {
        isServer: true,
        secureContext,
        ALPNProtocols: ['h2', 'http/1.1'],
      });
      secure.on('error', () => socket.destroy());
      secure.once('secure', () => {
        const protocol = secure.alpnProtocol || 'http/1.1';
        if (protocol !== 'h2') {
          const base = { hello, protocol, settings: [], windowUpdate: 0, priorities: [] };
          h1.once('request', (req, res) => {
            record(req, base);
            res.end('<p>seen</p>');
          });
          h1.emit('connection', secure);
          return;
        }
        let seen = Buffer.alloc(0);
        const plain = feedable((c, done) => secure.write(c, done));
        secure.on('data', (c: Buffer) => {
          seen = Buffer.concat([seen, c]);
          plain.push(c);
        });
        secure.on('end', () => plain.push(null));
        h2.once('request', (req, res) => {
          record(req, { hello, protocol, ...openingFrames(seen) });
          res.setHeader('content-type', 'text/html');
          res.end('<p>seen</p>');
        });
        h2.emit('connection', plain);
      });
    };
    socket.on('data', onData);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    captures,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
      h2.close();
      h1.close();
    },
  };
}
