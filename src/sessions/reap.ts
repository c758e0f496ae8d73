import { readdir, readFile } from 'node:fs/promises';
import { killGroup } from './processes.ts';

/** Environment variable every session process carries, naming the instance's runtime folder. */
export const RUNTIME_MARKER = 'WEBDATA_SESSION_RUNTIME';

/**
 * Process groups whose members carry `RUNTIME_MARKER=<root>` in their environment: the browsers,
 * X displays and VNC servers this instance started. Found by environment rather than by pid so a
 * restart after a crash can end what its previous life left behind, with no risk of hitting a
 * process that merely reused a pid.
 */
export async function markedGroups(root: string): Promise<number[]> {
  const needle = `\0${RUNTIME_MARKER}=${root}\0`;
  const groups = new Set<number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const environ = await readFile(`/proc/${name}/environ`, 'utf8').catch(() => '');
    if (!`\0${environ}`.includes(needle)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] !== 'Z') groups.add(Number(fields[2]));
  }
  return [...groups];
}

export async function killMarked(root: string): Promise<number> {
  const groups = await markedGroups(root);
  for (const g of groups) killGroup(g);
  return groups.length;
}
