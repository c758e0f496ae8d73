import { EventEmitter } from 'node:events';
import WebSocket from 'ws';

interface Pending {
  resolve(value: any): void;
  reject(err: Error): void;
}

/**
 * The service's own control connection to a session's browser: a bare CDP client over one
 * WebSocket. Hand-written because the library clients (Playwright's connectOverCDP, Puppeteer's
 * connect) attach to every page and change its settings as they go; this connection must stay
 * passive beside the user's own client and only watch targets and read or write storage.
 *
 * Events are emitted as `method` with `(params, sessionId)`; `close` when the socket ends.
 */
export class CdpConnection extends EventEmitter {
  readonly #ws: WebSocket;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #closed = false;

  private constructor(ws: WebSocket) {
    super();
    this.#ws = ws;
    ws.on('message', (data) => this.#onMessage(String(data)));
    ws.on('close', () => this.#onClose());
    ws.on('error', () => ws.terminate());
  }

  static connect(url: string, timeoutMs = 10_000): Promise<CdpConnection> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024, handshakeTimeout: timeoutMs });
      ws.once('open', () => resolve(new CdpConnection(ws)));
      ws.once('error', reject);
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  send<T = any>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    if (this.#closed) return Promise.reject(new Error(`CDP connection closed (${method})`));
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  close(): void {
    this.#ws.close();
  }

  #onMessage(text: string): void {
    const msg = JSON.parse(text) as { id?: number; method?: string; params?: unknown; sessionId?: string; result?: unknown; error?: { message: string } };
    if (msg.id !== undefined) {
      const pending = this.#pending.get(msg.id);
      this.#pending.delete(msg.id);
      if (msg.error) pending?.reject(new Error(msg.error.message));
      else pending?.resolve(msg.result);
    } else if (msg.method) {
      this.emit(msg.method, msg.params, msg.sessionId);
    }
  }

  #onClose(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const p of this.#pending.values()) p.reject(new Error('CDP connection closed'));
    this.#pending.clear();
    this.emit('close');
  }
}
