import { describe, expect, it } from 'vitest';
import { closeInSteps } from '../../src/cli/shutdown.ts';

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
