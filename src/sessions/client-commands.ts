import type WebSocket from 'ws';
import type { SessionManager } from './manager.ts';
import type { LiveSession } from './types.ts';

/**
 * Hands each command a protocol client sends (CDP or WebDriver BiDi, both `{ id, method, ... }`)
 * to `handle`, the session touched first. A frame that is not such a command closes the connection
 * (1007) and goes no further: the browser's own parser accepts what JSON.parse may not (Chromium's
 * takes trailing commas), and a frame the policy cannot read must not reach the browser.
 */
export function onClientCommand<C extends { method: string; id: number }>(
  manager: SessionManager,
  live: LiveSession,
  client: WebSocket,
  protocol: string,
  handle: (command: C) => void,
): void {
  client.on('message', (data) => {
    manager.touch(live);
    let command: C;
    try {
      command = JSON.parse(String(data)) as C;
      if (typeof command.method !== 'string' || typeof command.id !== 'number')
        throw new Error('not a command');
    } catch {
      client.close(1007, `not a ${protocol} command`);
      return;
    }
    handle(command);
  });
}
