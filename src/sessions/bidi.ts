import { EventEmitter } from 'node:events';
import WebSocket from 'ws';

/** A WebDriver BiDi error as the browser sends it; the relay hands it on as it came. */
export class BidiError extends Error {
  readonly error: string;

  constructor(error: string, message: string) {
    super(message);
    this.error = error;
  }
}

interface Pending {
  resolve(result: unknown): void;
  reject(err: Error): void;
}

/**
 * The service's WebDriver BiDi connection to a Firefox session browser, over the unix socket the
 * sandbox offers its debugging port on (sandbox.ts). Firefox runs one BiDi session at a time;
 * this connection holds it, and a client's commands go through it (bidi-bridge.ts). Events are
 * emitted as `event` with the frame's text, for the relay to pass on unchanged, and its method and
 * params; `close` when the browser is gone.
 */
export class BidiConnection extends EventEmitter {
  readonly #ws: WebSocket;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #closed = false;
  /** The session's id and capabilities, as `session.new` answered the service. */
  session: { sessionId: string; capabilities: Record<string, unknown> } | undefined;

  private constructor(ws: WebSocket) {
    super();
    this.#ws = ws;
    ws.on('message', (data) => this.#receive(String(data)));
    ws.on('close', () => this.#end());
    ws.on('error', () => this.#end());
  }

  /**
   * Connects through `socket` to the browser's port `port` inside the sandbox, as a client on
   * the browser's own loopback would (Firefox checks the Host header against its listening
   * address), and starts the one session.
   */
  static async open(socket: string, port: number, timeoutMs: number): Promise<BidiConnection> {
    const ws = new WebSocket(`ws+unix://${socket}:/session`, {
      headers: { host: `127.0.0.1:${port}` },
      handshakeTimeout: timeoutMs,
      maxPayload: 256 * 1024 * 1024,
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`the browser refused the connection (${res.statusCode})`)),
      );
    });
    const connection = new BidiConnection(ws);
    connection.session = await connection.send('session.new', {
      // Dialogs are left to the client, as a browser it launched itself would leave them.
      capabilities: { alwaysMatch: { unhandledPromptBehavior: { default: 'ignore' } } },
    });
    return connection;
  }

  get closed(): boolean {
    return this.#closed;
  }

  send<T = Record<string, unknown>>(method: string, params: object = {}): Promise<T> {
    if (this.#closed) return Promise.reject(new BidiError('no such frame', 'browser is gone'));
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (r: unknown) => void, reject });
      this.#ws.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.#ws.terminate();
    this.#end();
  }

  #receive(text: string): void {
    let message: {
      type?: string;
      id?: number;
      result?: unknown;
      error?: string;
      message?: string;
      method?: string;
      params?: Record<string, unknown>;
    };
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.type === 'event') {
      this.emit('event', text, message.method, message.params);
      return;
    }
    const pending = message.id === undefined ? undefined : this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id!);
    if (message.type === 'success') pending.resolve(message.result);
    else pending.reject(new BidiError(message.error ?? 'unknown error', message.message ?? ''));
  }

  #end(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const pending of this.#pending.values())
      pending.reject(new BidiError('no such frame', 'browser is gone'));
    this.#pending.clear();
    this.emit('close');
  }
}
