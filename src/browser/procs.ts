import { readdirSync, readFileSync } from 'node:fs';

function argv(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
  } catch {
    return [];
  }
}

/**
 * The browser's main process among those whose command line holds `marker` (how pool browsers
 * are told apart): not a Chromium child process (`--type=zygote` and the like inherit the
 * switch) and not Debian's `/usr/bin/chromium*` shell wrapper, which runs Chromium as its child.
 */
export function mainPidWithArgument(marker: string): number | undefined {
  return pidsWithArgument(marker).find((pid) => {
    const args = argv(pid);
    return !/(^|\/)(ba|da)?sh$/.test(args[0] ?? '') && !args.some((a) => a.startsWith('--type='));
  });
}

/** Process ids whose command line contains `marker`. */
export function pidsWithArgument(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'latin1');
      if (cmdline.split('\0').includes(marker)) found.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** `pid` and every process below it (a browser's renderers, GPU and zygote processes). */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      // Gone already.
    }
  }
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
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'latin1');
    const kb = rollup.match(/^Pss:\s+(\d+) kB/m);
    return kb ? Number(kb[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
