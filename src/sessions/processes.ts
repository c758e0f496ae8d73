import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

/**
 * A program started in its own process group, so the group can be ended as one: Debian's
 * browser launchers are shell scripts that do not always `exec`, and Chromium forks helpers
 * (zygote, renderers, GPU) that must go with it.
 */
export interface Group {
  child: ChildProcess;
  pgid: number;
  /** Settles when the group leader has exited. */
  exited: Promise<void>;
  kill(): Promise<void>;
}

export function spawnGroup(command: string, args: string[], opts: SpawnOptions): Group {
  const child = spawn(command, args, { ...opts, detached: true });
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  const pgid = child.pid;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  child.once('error', () => undefined);
  return {
    child,
    pgid,
    exited,
    async kill() {
      killGroup(pgid);
      await exited;
      // Helpers of the group may outlive the leader by a moment; they get the same signal.
      killGroup(pgid);
    },
  };
}

export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

/** Every live process of a process group (Linux /proc). */
export async function groupPids(pgid: number): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    // Fields after the command name, which may itself hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] !== 'Z' && Number(fields[2]) === pgid) pids.push(Number(name));
  }
  return pids;
}
