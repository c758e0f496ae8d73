/** How long one step of a shutdown is waited for before the next goes on without it. */
export const SHUTDOWN_STEP_GRACE_MS = 10_000;

export type ShutdownStep = [name: string, close: () => Promise<unknown>];

/**
 * Runs the steps of a shutdown in order, each waited for up to `graceMs`. A process that never
 * stops because one part never finishes closing is worse than one that stops a part short: its
 * supervisor kills it anyway, after every other part waited too. A late step is named (`late`)
 * so that what holds a shutdown up is found, not guessed; its work goes on in the background.
 */
export async function closeInSteps(
  steps: ShutdownStep[],
  late: (name: string, graceMs: number) => void,
  graceMs = SHUTDOWN_STEP_GRACE_MS,
): Promise<void> {
  for (const [name, close] of steps) {
    let timer: NodeJS.Timeout | undefined;
    const overdue = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs);
    });
    const done = Promise.resolve()
      .then(close)
      .then(
        () => 'done' as const,
        () => 'done' as const,
      );
    if ((await Promise.race([done, overdue])) === 'late') late(name, graceMs);
    clearTimeout(timer);
  }
}

/** Tells of a late shutdown step on stderr, where a process's supervisor keeps it. */
export function warnLateStep(name: string, graceMs: number): void {
  process.emitWarning(
    `${name} was still closing after ${graceMs} ms; shutdown went on without it`,
    'SlowShutdownWarning',
  );
}
