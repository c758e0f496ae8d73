import { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Message {
  id?: number;
  method?: string;
  params?: { sessionId?: string };
  sessionId?: string;
  result?: unknown;
  error?: { message: string };
}

/** A command as a client sends it: its own id, and a sessionId only for sessions it attached. */
export interface ClientCommand {
  id: number;
  method: string;
  params?: object;
  sessionId?: string;
}

/**
 * One client's own connection to the browser over the shared pipe: a browser-target session of
 * its own (Target.attachToBrowserTarget), so its auto-attach, discovery and child sessions are
 * its alone, neither the service's nor another client's. Commands without a sessionId go to
 * that browser session and its messages come back without one, so the client sees what it
 * would see on a DevTools port of its own.
 */
export interface CdpChannel {
  send(command: ClientCommand): void;
  close(): void;
}

interface ChannelHooks {
  relay(channel: Channel, command: ClientCommand): void;
  release(channel: Channel): void;
  detach(root: string): void;
}

class Channel implements CdpChannel {
  readonly root: string;
  readonly deliver: (text: string) => void;
  /** The channel's browser session and every session attached through it. */
  readonly sessions = new Set<string>();
  readonly #hooks: ChannelHooks;
  closed = false;

  constructor(root: string, deliver: (text: string) => void, hooks: ChannelHooks) {
    this.root = root;
    this.deliver = deliver;
    this.#hooks = hooks;
    this.sessions.add(root);
  }

  send(command: ClientCommand): void {
    if (this.closed) return;
    const sessionId = command.sessionId ?? this.root;
    if (!this.sessions.has(sessionId)) {
      this.deliver(
        JSON.stringify({
          id: command.id,
          sessionId: command.sessionId,
          error: { code: -32001, message: 'Session with given id not found.' },
        }),
      );
      return;
    }
    this.#hooks.relay(this, { ...command, sessionId });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.#hooks.release(this);
    this.#hooks.detach(this.root);
  }
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
 * The pipe is also the only way clients reach the browser (no DevTools port exists for another
 * local process to find): each client gets a channel, its commands are given ids from this
 * connection's own sequence so they never clash with the service's, and replies and events are
 * routed back by id and by session.
 *
 * Events of the service's own sessions are emitted as `method` with `(params, sessionId)`;
 * `close` when the pipe ends.
 */
export class CdpConnection extends EventEmitter {
  readonly #out: Writable;
  readonly #in: Readable;
  readonly #pending = new Map<number, Pending>();
  /** Pipe id of a relayed command -> the channel and the id its client gave it. */
  readonly #relayed = new Map<number, { channel: Channel; id: number }>();
  readonly #channelOf = new Map<string, Channel>();
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

  send<T = unknown>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    if (this.#closed) return Promise.reject(new Error(`CDP connection closed (${method})`));
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#out.write(
        `${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`,
      );
    });
  }

  /** Opens a client's channel; `deliver` gets each message for the client, as text. */
  async openChannel(deliver: (text: string) => void): Promise<CdpChannel> {
    const { sessionId } = await this.send<{ sessionId: string }>('Target.attachToBrowserTarget');
    const channel = new Channel(sessionId, deliver, {
      relay: (c, command) => this.#relay(c, command),
      release: (c) => this.#release(c),
      detach: (root) =>
        void this.send('Target.detachFromTarget', { sessionId: root }).catch(() => undefined),
    });
    this.#channelOf.set(sessionId, channel);
    return channel;
  }

  #relay(channel: Channel, command: ClientCommand): void {
    if (this.#closed) return;
    const id = this.#nextId++;
    this.#relayed.set(id, { channel, id: command.id });
    this.#out.write(`${JSON.stringify({ ...command, id })}\0`);
  }

  #release(channel: Channel): void {
    for (const s of channel.sessions) this.#channelOf.delete(s);
    for (const [id, r] of this.#relayed) if (r.channel === channel) this.#relayed.delete(id);
  }

  close(): void {
    this.#out.destroy();
    this.#in.destroy();
  }

  #onData(chunk: string): void {
    this.#buffered += chunk;
    for (let end = this.#buffered.indexOf('\0'); end >= 0; end = this.#buffered.indexOf('\0')) {
      const message = this.#buffered.slice(0, end);
      this.#buffered = this.#buffered.slice(end + 1);
      this.#onMessage(message);
    }
  }

  #onMessage(text: string): void {
    const msg = JSON.parse(text) as Message;
    if (msg.id !== undefined) {
      const pending = this.#pending.get(msg.id);
      if (pending) {
        this.#pending.delete(msg.id);
        if (msg.error) pending.reject(new Error(msg.error.message));
        else pending.resolve(msg.result);
        return;
      }
      const relayed = this.#relayed.get(msg.id);
      if (!relayed) return;
      this.#relayed.delete(msg.id);
      this.#toClient(relayed.channel, { ...msg, id: relayed.id });
      return;
    }
    if (!msg.method) return;
    const channel = msg.sessionId ? this.#channelOf.get(msg.sessionId) : undefined;
    if (!channel) {
      this.emit(msg.method, msg.params, msg.sessionId);
      return;
    }
    const child = msg.params?.sessionId;
    if (msg.method === 'Target.attachedToTarget' && child) {
      channel.sessions.add(child);
      this.#channelOf.set(child, channel);
    } else if (msg.method === 'Target.detachedFromTarget' && child) {
      channel.sessions.delete(child);
      this.#channelOf.delete(child);
    }
    if (msg.sessionId === channel.root) this.#toClient(channel, msg);
    else channel.deliver(text);
  }

  /** Messages of a channel's browser session reach its client as top-level ones. */
  #toClient(channel: Channel, msg: Message): void {
    if (msg.sessionId === channel.root) delete msg.sessionId;
    channel.deliver(JSON.stringify(msg));
  }

  #onClose(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const p of this.#pending.values()) p.reject(new Error('CDP connection closed'));
    this.#pending.clear();
    this.#relayed.clear();
    this.emit('close');
  }
}
