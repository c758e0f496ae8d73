import { connect } from 'node:net';
import WebSocket from 'ws';
import { bridgeBidi } from './bidi-bridge.ts';
import type { CdpChannel, CdpConnection } from './cdp.ts';
import { type CdpCommand, checkCommand } from './cdp-policy.ts';
import { allowDownloads } from './chromium.ts';
import { onClientCommand } from './client-commands.ts';
import type { SessionManager } from './manager.ts';
import type { LiveSession } from './types.ts';

/**
 * The CDP proxy: every command from the client goes to the session's browser over a channel of
 * its own on the browser's debugging pipe (cdp.ts), and every reply and event comes back, but
 * for Browser.close and the few commands cdp-policy.ts refuses, so Playwright's connectOverCDP
 * and Puppeteer's connect both speak to it as if it were the browser. Commands sent before the
 * channel opens are held, in order.
 */
function bridgeCdp(
  manager: SessionManager,
  live: LiveSession,
  control: CdpConnection,
  client: WebSocket,
): void {
  let channel: CdpChannel | undefined;
  let ended = false;
  const held: CdpCommand[] = [];
  const end = () => {
    if (ended) return;
    ended = true;
    live.connections.delete(end);
    control.off('close', end);
    channel?.close();
    if (channel) void allowDownloads(control, live.running.files).catch(() => undefined);
    if (client.readyState === WebSocket.OPEN) client.close(1001, 'session closed');
    else client.terminate();
  };
  live.connections.add(end);
  control.once('close', end);
  const forward = (command: CdpCommand) => {
    if (channel) channel.send(command);
    else held.push(command);
  };
  control
    .openChannel((text) => {
      manager.touch(live);
      if (client.readyState === WebSocket.OPEN) client.send(text);
    })
    .then((opened) => {
      if (ended) return opened.close();
      channel = opened;
      for (const command of held.splice(0)) opened.send(command);
    }, end);
  onClientCommand<CdpCommand>(manager, live, client, 'CDP', (command) => {
    // Puppeteer's browser.close() ends the session the way DELETE does, saving its state,
    // instead of killing the browser under it and losing the state.
    if (command.method === 'Browser.close' && !command.sessionId) {
      client.send(JSON.stringify({ id: command.id, result: {} }));
      manager.closeFromClient(live);
      return;
    }
    const verdict = checkCommand(command, live.running.files);
    if (verdict.action === 'refuse') {
      client.send(
        JSON.stringify({
          id: command.id,
          ...(command.sessionId ? { sessionId: command.sessionId } : {}),
          error: { code: -32000, message: verdict.message },
        }),
      );
    } else forward(verdict.action === 'rewrite' ? verdict.command : command);
  });
  client.on('close', end);
  client.on('error', end);
}

/** A client's protocol connection to a session: CDP to Chromium, WebDriver BiDi to Firefox. */
export function bridgeBrowser(manager: SessionManager, live: LiveSession, client: WebSocket): void {
  if (live.running.family === 'firefox') bridgeBidi(manager, live, live.running.control, client);
  else bridgeCdp(manager, live, live.running.control, client);
}

/** The live-view bridge: WebSocket frames to and from x11vnc's socket, one viewer per connection. */
export async function bridgeVnc(
  manager: SessionManager,
  live: LiveSession,
  client: WebSocket,
): Promise<void> {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    manager.closeVnc(live);
  };
  let socketPath: string;
  try {
    socketPath = await manager.openVnc(live);
  } catch {
    released = true;
    client.close(1011, 'live view could not start');
    return;
  }
  if (client.readyState !== WebSocket.OPEN) return release();
  const vnc = connect(socketPath);
  const end = () => {
    live.connections.delete(end);
    vnc.destroy();
    if (client.readyState === WebSocket.OPEN) client.close(1001, 'live view ended');
    release();
  };
  live.connections.add(end);
  vnc.on('data', (chunk) => {
    manager.touch(live);
    if (client.readyState === WebSocket.OPEN) client.send(chunk, { binary: true });
  });
  client.on('message', (data) => {
    manager.touch(live);
    vnc.write(data as Buffer);
  });
  vnc.on('close', end);
  vnc.on('error', end);
  client.on('close', end);
  client.on('error', end);
}
