import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * The one place that reads /proc: finding processes (pool browsers by a command-line marker, a
 * process group's members, session processes by an environment marker, a process tree) and
 * starting programs as process groups that end as one.
 */

/** What /proc/<pid>/stat says of a live process. */
export interface ProcessStat {
  /** `R`, `S`, `Z` (a zombie: exited, not yet reaped)… */
  state: string;
  ppid: number;
  pgid: number;
  /** Clock ticks after boot: with the pid, an identity a later process reusing the pid does not share. */
  startTime: string;
}

/** One process; each file is read when asked (empty once the process has gone). */
export interface ProcessInfo {
  pid: number;
  stat(): ProcessStat | undefined;
  argv(): string[];
  /** The environment it started with, `NAME=value` entries. */
  environ(): string[];
}

function read(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'latin1');
  } catch {
    // The process ended while we looked.
    return '';
  }
}

export function processStat(pid: number): ProcessStat | undefined {
  const stat = read(pid, 'stat');
  if (!stat) return undefined;
  // Fields after the command name, which may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    state: fields[0]!,
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    startTime: fields[19]!,
  };
}

function processInfo(pid: number): ProcessInfo {
  const split = (file: string) =>
    read(pid, file)
      .split('\0')
      .filter((s, i, all) => s !== '' || i < all.length - 1);
  return {
    pid,
    stat: () => processStat(pid),
    argv: () => split('cmdline'),
    environ: () => split('environ'),
  };
}

function* everyProcess(): Generator<ProcessInfo> {
  for (const name of readdirSync('/proc')) if (/^\d+$/.test(name)) yield processInfo(Number(name));
}

/** Pids of the processes `match` accepts, among every process of the machine. */
export function findProcesses(match: (p: ProcessInfo) => boolean): number[] {
  return [...everyProcess()].filter(match).map((p) => p.pid);
}

/** Processes looked at between two yields of findProcessesYielding. */
const YIELD_EVERY = 16;

/**
 * findProcesses for a running service: a scan of a busy host takes tens of milliseconds, so it
 * yields to the event loop every few processes rather than stall requests (and the load shedder).
 */
export async function findProcessesYielding(match: (p: ProcessInfo) => boolean): Promise<number[]> {
  const found: number[] = [];
  let seen = 0;
  for (const p of everyProcess()) {
    if (match(p)) found.push(p.pid);
    if (++seen % YIELD_EVERY === 0) await nextTurn();
  }
  return found;
}

/**
 * The browser's main process among those whose command line holds `marker` (how pool browsers
 * are told apart): not a Chromium child process (`--type=zygote` and the like inherit the
 * switch) and not Debian's `/usr/bin/chromium*` shell wrapper, which runs Chromium as its child.
 */
export function mainPidWithArgument(marker: string): number | undefined {
  const [pid] = findProcesses((p) => {
    const args = p.argv();
    return (
      args.includes(marker) &&
      !/(^|\/)(ba|da)?sh$/.test(args[0] ?? '') &&
      !args.some((a) => a.startsWith('--type='))
    );
  });
  return pid;
}

/**
 * SIGKILL to every process whose command line holds `marker`: a pool browser's main process, its
 * helpers (they inherit the switch) and Debian's wrapper script. For a browser that no longer
 * answers when asked to close.
 */
export function killWithArgument(marker: string): void {
  for (const pid of findProcesses((p) => p.argv().includes(marker))) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/** Every live (not zombie) process of a process group. */
export function groupPids(pgid: number): Promise<number[]> {
  return findProcessesYielding((p) => {
    const stat = p.stat();
    return stat !== undefined && stat.state !== 'Z' && stat.pgid === pgid;
  });
}

/** `pid` and every process below it (a browser's renderers, GPU and zygote processes). */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  findProcesses((p) => {
    const ppid = p.stat()?.ppid;
    if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), p.pid]);
    return false;
  });
  const out: number[] = [];
  const walk = (p: number) => {
    out.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return out;
}

/** Proportional set size in bytes (shared pages split among sharers), 0 if the process is gone. */
export function pssBytes(pid: number): number {
  const kb = read(pid, 'smaps_rollup').match(/^Pss:\s+(\d+) kB/m);
  return kb ? Number(kb[1]) * 1024 : 0;
}

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
