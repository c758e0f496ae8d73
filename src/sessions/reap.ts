import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findProcessesYielding, killGroup, processStat } from '../browser/index.ts';

/** Environment variable every session process carries, naming the instance's runtime folder. */
export const RUNTIME_MARKER = 'WEBDATA_SESSION_RUNTIME';

/** Name prefix of every instance's runtime folder, in the system temp folder. */
export const RUNTIME_PREFIX = 'wd-sess-';

/** File in a runtime folder naming the process that runs its sessions. */
const OWNER_FILE = 'owner';

/** A folder without an owner this long was not being set up; it was left. */
const UNOWNED_GRACE_MS = 60_000;

/**
 * Process groups whose members carry `RUNTIME_MARKER=<root>` in their environment: the browsers,
 * X displays and VNC servers this instance started. Found by environment rather than by pid so a
 * restart after a crash can end what its previous life left behind, with no risk of hitting a
 * process that merely reused a pid.
 */
export async function markedGroups(root: string): Promise<number[]> {
  const entry = `${RUNTIME_MARKER}=${root}`;
  const groups = new Set<number>();
  await findProcessesYielding((p) => {
    const stat = p.environ().includes(entry) ? p.stat() : undefined;
    if (stat && stat.state !== 'Z') groups.add(stat.pgid);
    return false;
  });
  return [...groups];
}

export async function killMarked(root: string): Promise<number> {
  const groups = await markedGroups(root);
  for (const g of groups) killGroup(g);
  return groups.length;
}

/** `<pid> <start time>`: a process identity that a later process reusing the pid does not share. */
function processIdentity(pid: number): string | undefined {
  const stat = processStat(pid);
  return stat && stat.state !== 'Z' ? `${pid} ${stat.startTime}` : undefined;
}

/** Records this process as the one running the sessions of `root` (which must exist). */
export async function claimRuntime(root: string): Promise<void> {
  await writeFile(join(root, OWNER_FILE), processIdentity(process.pid) ?? String(process.pid));
}

/**
 * Removes the runtime folders of instances that are gone (killed outright, or started with
 * another data folder or public URL and never run again), ending any process still marked with
 * them: a profile folder left by kill -9 does not wait for a restart of its own instance, which
 * may never come. A folder whose owner still runs is left alone.
 */
export async function reapAbandoned(parent: string, except: string): Promise<string[]> {
  const reaped: string[] = [];
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    const root = join(parent, name);
    if (!name.startsWith(RUNTIME_PREFIX) || root === except) continue;
    const owner = await readFile(join(root, OWNER_FILE), 'utf8').catch(() => undefined);
    if (owner === undefined) {
      // Being set up, or left by a version that did not record owners: gone only when nothing of it runs.
      const info = await stat(root).catch(() => undefined);
      if (
        !info?.isDirectory() ||
        Date.now() - info.mtimeMs < UNOWNED_GRACE_MS ||
        (await markedGroups(root)).length > 0
      )
        continue;
    } else if (processIdentity(Number(owner.split(' ')[0])) === owner.trim()) continue;
    await killMarked(root);
    await rm(root, { recursive: true, force: true });
    reaped.push(root);
  }
  return reaped;
}
