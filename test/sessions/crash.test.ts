import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { groupPids } from '../../src/browser/index.ts';
import { waitFor } from '../helpers/poll.ts';

it('a session browser and its display end when the service process is killed outright', async () => {
  const root = await mkdtemp(join(tmpdir(), 'wd-crash-'));
  const child = spawn(
    process.execPath,
    [new URL('./crash-child.ts', import.meta.url).pathname, root],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let groups: number[] = [];
  try {
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    groups = JSON.parse(String(line)) as number[];
    expect(groups).toHaveLength(2);
    for (const g of groups) expect((await groupPids(g)).length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    // No clean-up code runs in a SIGKILLed process: the debugging pipe closing ends Chromium,
    // and Xvfb ends with its last client.
    await waitFor(
      async () => (await Promise.all(groups.map(groupPids))).every((pids) => pids.length === 0),
      { timeoutMs: 15_000 },
    );
  } finally {
    child.kill('SIGKILL');
    for (const g of groups) {
      try {
        process.kill(-g, 'SIGKILL');
      } catch {
        // Already gone, as it should be.
      }
    }
    await rm(root, { recursive: true, force: true });
  }
});
