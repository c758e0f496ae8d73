import { once } from 'node:events';
import { connect } from 'node:net';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { closeInSteps, SHUTDOWN_STEP_GRACE_MS } from '../../src/cli/shutdown.ts';
import { startTestServer } from '../helpers/server.ts';

describe('closeInSteps', () => {
  it('runs the steps in order, names one that never finishes and goes on past it', async () => {
    const ran: string[] = [];
    const late: string[] = [];
    const started = Date.now();
    await closeInSteps(
      [
        ['first', async () => ran.push('first')],
        ['stuck', () => new Promise(() => ran.push('stuck'))],
        ['failing', () => Promise.reject(new Error('boom')).finally(() => ran.push('failing'))],
        ['last', async () => ran.push('last')],
      ],
      (name) => late.push(name),
      200,
    );
    expect(ran).toEqual(['first', 'stuck', 'failing', 'last']);
    expect(late).toEqual(['stuck']);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('waits for a slow step that finishes within its grace, and names nothing', async () => {
    const late: string[] = [];
    let finished = false;
    await closeInSteps(
      [['slow', () => new Promise<void>((r) => setTimeout(r, 100)).then(() => (finished = true))]],
      (name) => late.push(name),
      1_000,
    );
    expect(finished).toBe(true);
    expect(late).toEqual([]);
  });
});

describe('a server stopping', () => {
  it('does not wait for a connection that never sent a request, nor keep answering on one', async () => {
    const t = await startTestServer();
    const silent = connect(t.port, '127.0.0.1');
    await once(silent, 'connect');
    // A kept-alive connection too, idle after its one request.
    const kept = new Agent({ keepAliveTimeout: 60_000 });
    const health = await request(`${t.base}/health`, { dispatcher: kept });
    await health.body.dump();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const started = Date.now();
    try {
      await t.close();
    } finally {
      process.off('warning', onWarning);
    }
    expect(Date.now() - started).toBeLessThan(SHUTDOWN_STEP_GRACE_MS / 2);
    expect(warnings).not.toContain('SlowShutdownWarning');
    await expect(request(`${t.base}/health`, { dispatcher: kept })).rejects.toThrow();
    silent.destroy();
    await kept.close();
  }, 60_000);
});
