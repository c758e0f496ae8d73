import { spawnGroup, type Group } from './processes.ts';

export interface Display {
  /** `:N` for DISPLAY. */
  name: string;
  group: Group;
}

/**
 * Starts a virtual X display of the given size. Xvfb picks a free display number itself and
 * reports it on a pipe (-displayfd), so concurrent sessions never race for the same number.
 * `-terminate` ends it when its last client (the browser) goes, so it cannot outlive a browser
 * that died with a crashed service.
 */
export async function startXvfb(width: number, height: number, env: NodeJS.ProcessEnv, timeoutMs = 10_000): Promise<Display> {
  const group = spawnGroup('Xvfb', ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-terminate'], {
    env,
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const pipe = group.child.stdio[3] as NodeJS.ReadableStream;
  try {
    const number = await new Promise<string>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => reject(new Error('Xvfb did not report a display in time')), timeoutMs);
      pipe.on('data', (chunk) => {
        text += String(chunk);
        if (text.includes('\n')) {
          clearTimeout(timer);
          resolve(text.trim());
        }
      });
      group.exited.then(() => {
        clearTimeout(timer);
        reject(new Error('Xvfb exited before its display was ready'));
      });
    });
    return { name: `:${number}`, group };
  } catch (err) {
    await group.kill();
    throw err;
  }
}
