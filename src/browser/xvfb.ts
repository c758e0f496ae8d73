import type { Readable } from 'node:stream';
import { type Group, spawnGroup } from './processes.ts';

/** A virtual X display for headful browsers (the stealth pool, visible sessions). */
export interface Xvfb {
  /** `:N`, what goes into DISPLAY. */
  display: string;
  /**
   * The display's file system socket. Xvfb also listens on an abstract socket of the same name,
   * which only processes in its network namespace can reach; a sandbox with a network of its
   * own reaches the display through this file alone.
   */
  socket: string;
  group: Group;
  close(): Promise<void>;
}

export interface XvfbOptions {
  width?: number;
  height?: number;
  env?: NodeJS.ProcessEnv;
  /**
   * End the server when its last client goes (`-terminate`): a session's display cannot then
   * outlive a browser that died with a crashed service. Not for a display that browsers come
   * and go on.
   */
  terminate?: boolean;
  timeoutMs?: number;
}

/**
 * Starts `Xvfb` on a display number the server picks itself and reports on a pipe
 * (`-displayfd`), so parallel servers never race for the same number, and waits until it
 * accepts clients. It runs as a process group, ended as one by `close`.
 */
export async function startXvfb(opts: XvfbOptions = {}): Promise<Xvfb> {
  const screen = `${opts.width ?? 1920}x${opts.height ?? 1080}x24`;
  const group = spawnGroup(
    'Xvfb',
    [
      '-displayfd',
      '3',
      '-screen',
      '0',
      screen,
      '-nolisten',
      'tcp',
      ...(opts.terminate ? ['-terminate'] : []),
    ],
    {
      env: opts.env,
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  group.child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  try {
    const number = await new Promise<string>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(
        () =>
          reject(new Error(`Xvfb did not report a display within ${opts.timeoutMs ?? 10_000} ms`)),
        opts.timeoutMs ?? 10_000,
      );
      (group.child.stdio[3] as Readable).on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\n')) {
          clearTimeout(timer);
          resolve(text.trim());
        }
      });
      void group.exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`Xvfb exited before its display was ready: ${stderr.trim()}`));
      });
    });
    return {
      display: `:${number}`,
      socket: `/tmp/.X11-unix/X${number}`,
      group,
      close: () => group.kill(),
    };
  } catch (err) {
    await group.kill();
    throw err;
  }
}
