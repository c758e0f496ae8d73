import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';

/** A private X server for headful browsers; `display` is what goes into DISPLAY. */
export interface Xvfb {
  display: string;
  pid: number;
  close(): Promise<void>;
}

/**
 * Starts `Xvfb` on a display number the server picks itself (`-displayfd`), so parallel servers on
 * one machine never race for the same number, and waits until it accepts clients.
 */
export async function startXvfb(opts: { executable?: string; screen?: string } = {}): Promise<Xvfb> {
  const child: ChildProcess = spawn(opts.executable ?? 'Xvfb', ['-displayfd', '3', '-screen', '0', opts.screen ?? '1920x1080x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    const fd3 = child.stdio[3] as Readable;
    fd3.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(`:${out.trim()}`);
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it was ready: ${stderr.trim()}`)));
    setTimeout(() => reject(new Error('Xvfb did not start within 10 s')), 10_000).unref();
  }).catch((err: unknown) => {
    child.kill('SIGKILL');
    throw err;
  });
  return {
    display,
    pid: child.pid!,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
