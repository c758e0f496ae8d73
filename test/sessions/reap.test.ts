import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { waitFor } from '../helpers/poll.ts';
import { startTestServer } from '../helpers/server.ts';

const MARKER = 'WEBDATA_SESSION_RUNTIME';

async function runtimeFolder(owner?: string): Promise<string> {
  const root = join(tmpdir(), `wd-sess-test${randomUUID().slice(0, 8)}`);
  await mkdir(join(root, 'b-left', 'profile'), { recursive: true });
  if (owner !== undefined) await writeFile(join(root, 'owner'), owner);
  return root;
}

it('reaps at start the session folders and processes of instances that are gone, and leaves live ones alone', async () => {
  // An instance killed outright: its owner process is gone, a marked process still runs.
  const gone = spawn(process.execPath, ['-e', '']);
  await once(gone, 'exit');
  const dead = await runtimeFolder(`${gone.pid} 12345`);
  const straggler = spawn('sleep', ['60'], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, [MARKER]: dead },
  });
  // A folder another live instance (this process) owns.
  const stat = await readFile('/proc/self/stat', 'utf8');
  const live = await runtimeFolder(
    `${process.pid} ${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`,
  );
  // Folders with no owner recorded: one old and idle, one just made (an instance starting up).
  const unownedOld = await runtimeFolder();
  await utimes(unownedOld, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
  const unownedNew = await runtimeFolder();

  const t = await startTestServer({ WEBDATA_SESSION_WARM_SPARES: '0' });
  try {
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(unownedOld)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(unownedNew)).toBe(true);
    await waitFor(async () => straggler.exitCode !== null || straggler.signalCode !== null);
    expect(straggler.signalCode).toBe('SIGKILL');
    // The server's own folder records it as the owner.
    const own = await readFile(join(t.server.services.sessions.runtimeRoot, 'owner'), 'utf8');
    expect(own.split(' ')[0]).toBe(String(process.pid));
  } finally {
    straggler.kill('SIGKILL');
    await t.close();
    for (const root of [dead, live, unownedOld, unownedNew])
      await rm(root, { recursive: true, force: true });
  }
});
