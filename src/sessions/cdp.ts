import { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';

interface Pending {
  resolve(value: any): void;
  reject(err: Error): void;
}

/**
 * The service's own control connection to a session's browser: a bare CDP client over the
 * browser's debugging pipe (fd 3 in, fd 4 out, NUL-terminated JSON messages). The pipe ties the
 * browser's life to this process: if the service dies, even by SIGKILL, the pipe closes and
 * Chromium exits, so no orphan browser outlives a crash.
 *
 * Hand-written because the library clients (Playwright's connectOverCDP, Puppeteer's connect)
 * attach to every page and change its settings as they go; this connection must stay passive
 * beside the user's own client and only watch targets and read or write storage.
 *
 * Events are emitted as `method` with `(params, sessionId)`; `close` when the pipe ends.
 */
export class CdpConnection extends EventEmitter {
  readonly #out: Writable;
  readonly #in: Readable;
  readonly #pending = new Map<number, Pending>();
  #buffered = '';
  #nextId = 1;
  #closed = false;

  constructor(toBrowser: Writable, fromBrowser: Readable) {
    super();
    this.#out = toBrowser;
    this.#in = fromBrowser;
    fromBrowser.setEncoding('utf8');
    fromBrowser.on('data', (chunk: string) => this.#onData(chunk));
    fromBrowser.on('close', () => this.#onClose());
    fromBrowser.on('error', () => this.#onClose());
    toBrowser.on('error', () => this.#onClose());
  }

  get closed(): boolean {
    return this.#closed;
  }

  send<T = any>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    if (this.#closed) return Promise.reject(new Error(`CDP connection closed (${method})`));
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#out.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  close(): void {
    this.#out.destroy();
    this.#in.destroy();
  }

  #onData(chunk: string): void {
    this.#buffered += chunk;
    let end: number;
    while ((end = this.#buffered.indexOf('\0')) >= 0) {
      const message = this.#buffered.slice(0, end);
      this.#buffered = this.#buffered.slice(end + 1);
      this.#onMessage(message);
    }
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
