import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The hosts' shared link. These addresses exist only inside the namespaces made here: no
 * interface of this machine's own network gets one, so nothing outside can be reached or reach in.
 */
const SUBNET = '10.77.0';
/** Every namespace made here starts with this, then the pid of the process that owns it. */
const PREFIX = 'wdh';

export interface Hosts {
  /** The host's address on the shared link. */
  address(name: string): string;
  /** The command words that run a program on the host (prepend them to the program and its arguments). */
  exec(name: string): string[];
  /** kill -9 of every process on the host, as if it lost power. */
  kill(name: string): Promise<void>;
  /** Kills every process on every host and removes the namespaces. */
  close(): Promise<void>;
}

async function ip(...args: string[]): Promise<string> {
  try {
    return (await run('ip', args)).stdout;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error('`ip` is missing: install iproute2 (scripts/setup.sh --test does)');
    throw err;
  }
}

async function pidsIn(ns: string): Promise<number[]> {
  const out = await ip('netns', 'pids', ns).catch(() => '');
  return out.split('\n').filter(Boolean).map(Number);
}

/** Kills until none is left: a process can start another between the listing and the kill. */
async function killAllIn(ns: string): Promise<void> {
  for (;;) {
    const pids = await pidsIn(ns);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone between the listing and the kill.
      }
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function removeNamespace(ns: string): Promise<void> {
  await killAllIn(ns);
  await ip('netns', 'del', ns).catch(() => undefined);
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Namespaces left by a test process that died before its clean-up ran (a killed test runner). */
async function sweepOrphans(): Promise<void> {
  const names = (await ip('netns', 'list')).split('\n').map((l) => l.split(' ')[0]!);
  for (const ns of names) {
    const owner = new RegExp(`^${PREFIX}(\\d+)-`).exec(ns);
    if (owner && !alive(Number(owner[1]))) await removeNamespace(ns);
  }
}

/**
 * Separate "hosts" on one machine: a network namespace each, all cabled (veth) to a bridge in a
 * namespace of its own, so the root namespace (this machine's own network) is left untouched. Host
 * n (from 0) has the address 10.77.0.(n+2). Needs root; fails loudly without it.
 */
export async function startHosts(names: string[]): Promise<Hosts> {
  if (process.getuid?.() !== 0)
    throw new Error('separate hosts are network namespaces, and making them needs root');
  await sweepOrphans();
  // Test files can share a process (worker threads), so the pid alone does not tell them apart.
  const tag = `${PREFIX}${process.pid}-${randomBytes(3).toString('hex')}`;
  const ns = (name: string) => `${tag}-${name}`;
  const sw = ns('switch');
  const port = (name: string) => `p${names.indexOf(name)}`;
  const namespaces: string[] = [];
  const hosts: Hosts = {
    address(name) {
      const n = names.indexOf(name);
      if (n < 0) throw new Error(`no host named ${name}`);
      return `${SUBNET}.${n + 2}`;
    },
    exec: (name) => ['ip', 'netns', 'exec', ns(name)],
    kill: (name) => killAllIn(ns(name)),
    async close() {
      for (const n of namespaces.splice(0).reverse()) await removeNamespace(n);
    },
  };
  try {
    await ip('netns', 'add', sw);
    namespaces.push(sw);
    await ip('-n', sw, 'link', 'add', 'br0', 'type', 'bridge');
    await ip('-n', sw, 'link', 'set', 'br0', 'up');
    for (const name of names) {
      await ip('netns', 'add', ns(name));
      namespaces.push(ns(name));
      await ip(
        '-n',
        sw,
        'link',
        'add',
        port(name),
        'type',
        'veth',
        'peer',
        'name',
        'eth0',
        'netns',
        ns(name),
      );
      await ip('-n', sw, 'link', 'set', port(name), 'master', 'br0', 'up');
      await ip('-n', ns(name), 'addr', 'add', `${hosts.address(name)}/24`, 'dev', 'eth0');
      await ip('-n', ns(name), 'link', 'set', 'eth0', 'up');
      await ip('-n', ns(name), 'link', 'set', 'lo', 'up');
    }
  } catch (err) {
    await hosts.close();
    throw err;
  }
  return hosts;
}
