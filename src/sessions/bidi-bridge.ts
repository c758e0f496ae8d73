import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { type BidiConnection, BidiError } from './bidi.ts';
import { type BidiCommand, checkBidiCommand } from './bidi-policy.ts';
import { RECORDING_CHANNEL } from './bidi-recording.ts';
import { onClientCommand } from './client-commands.ts';
import type { SessionManager } from './manager.ts';
import type { LiveSession } from './types.ts';

/**
 * What a client added to the browser's one BiDi session, by the command that adds it and the
 * result field naming it, with the command that takes it away again: undone when the client
 * leaves, so the next client finds the session as the service holds it (an intercept left behind
 * would hold every request of the browser).
 */
const ADDED: Record<string, { field: string; remove: (id: string) => [string, object] }> = {
  'session.subscribe': {
    field: 'subscription',
    remove: (id) => ['session.unsubscribe', { subscriptions: [id] }],
  },
  'network.addIntercept': {
    field: 'intercept',
    remove: (id) => ['network.removeIntercept', { intercept: id }],
  },
  'script.addPreloadScript': {
    field: 'script',
    remove: (id) => ['script.removePreloadScript', { script: id }],
  },
};

/**
 * The BiDi client of each session now, settling once it has left: Firefox holds one session, so
 * one client at a time. A client that comes while another is leaving (a disconnect is done on
 * the client's side before the service sees the socket close) waits up to HANDOVER_MS for it.
 */
const clients = new WeakMap<LiveSession, Promise<void>>();
const HANDOVER_MS = 2_000;

/**
 * The WebDriver BiDi relay of a Firefox session: a client's commands, checked by bidi-policy.ts,
 * go through the service's own BiDi session (bidi.ts) and come back under the client's ids; every
 * event comes back as sent. To the client it is a browser it started a session on, so
 * Puppeteer's `connect({ protocol: 'webDriverBiDi' })` works unchanged.
 */
export function bridgeBidi(
  manager: SessionManager,
  live: LiveSession,
  control: BidiConnection,
  client: WebSocket,
): void {
  const held: BidiCommand[] = [];
  let relay: ((command: BidiCommand) => void) | undefined;
  onClientCommand<BidiCommand>(manager, live, client, 'WebDriver BiDi', (command) => {
    if (relay) relay(command);
    else held.push(command);
  });
  const previous = clients.get(live);
  const handover = previous
    ? Promise.race([previous, sleep(HANDOVER_MS, undefined, { ref: false })])
    : Promise.resolve();
  void handover.then(() => {
    if (client.readyState !== WebSocket.OPEN) return;
    if (clients.has(live)) {
      client.close(1013, 'another client is connected to this session');
      return;
    }
    relay = attach(manager, live, control, client);
    for (const command of held.splice(0)) relay(command);
  });
}

/** Makes `client` the session's BiDi client; returns what runs each of its commands. */
function attach(
  manager: SessionManager,
  live: LiveSession,
  control: BidiConnection,
  client: WebSocket,
): (command: BidiCommand) => void {
  let left!: () => void;
  clients.set(live, new Promise<void>((resolve) => (left = resolve)));
  const added: Array<[string, object]> = [];
  let ended = false;
  const send = (message: object) => {
    if (client.readyState === WebSocket.OPEN) client.send(JSON.stringify(message));
  };
  const onEvent = (text: string, method: string, params: { channel?: unknown }) => {
    // The recorder's messages are the service's (bidi-recording.ts); the client never asked for them.
    if (method === 'script.message' && params.channel === RECORDING_CHANNEL) return;
    manager.touch(live);
    if (client.readyState === WebSocket.OPEN) client.send(text);
  };
  const end = () => {
    if (ended) return;
    ended = true;
    clients.delete(live);
    left();
    live.connections.delete(end);
    control.off('event', onEvent);
    control.off('close', end);
    for (const [method, params] of added.splice(0))
      void control.send(method, params).catch(() => undefined);
    if (client.readyState === WebSocket.OPEN) client.close(1001, 'session closed');
    else client.terminate();
  };
  live.connections.add(end);
  control.on('event', onEvent);
  control.once('close', end);
  const run = async (command: BidiCommand) => {
    const verdict = checkBidiCommand(command, live.running.files);
    switch (verdict.action) {
      case 'session-new':
        return send({ type: 'success', id: command.id, result: control.session });
      case 'session-end':
        for (const [method, params] of added.splice(0))
          await control.send(method, params).catch(() => undefined);
        return send({ type: 'success', id: command.id, result: {} });
      case 'close':
        // Ends the session the way DELETE does, saving its state, instead of killing the browser under it.
        send({ type: 'success', id: command.id, result: {} });
        return manager.closeFromClient(live);
      case 'refuse':
        return send({
          type: 'error',
          id: command.id,
          error: verdict.error,
          message: verdict.message,
        });
    }
    const sent = verdict.action === 'rewrite' ? verdict.command : command;
    try {
      const result = await control.send(sent.method, sent.params ?? {});
      const adds = ADDED[sent.method];
      const name = adds && (result as Record<string, unknown>)[adds.field];
      if (adds && typeof name === 'string') added.push(adds.remove(name));
      send({ type: 'success', id: command.id, result });
    } catch (err) {
      const { error, message } =
        err instanceof BidiError ? err : new BidiError('unknown error', String(err));
      send({ type: 'error', id: command.id, error, message });
    }
  };
  client.on('close', end);
  client.on('error', end);
  return (command) => void run(command);
}
