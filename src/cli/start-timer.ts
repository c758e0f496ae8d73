/**
 * How long a process's start took, step by step, for its "started" log line: an operator who
 * waits for a container to become healthy sees where the time went. The first step is the time
 * from the process's own start (Node, then loading the modules) to the timer.
 */
export function startTimer(): { lap(step: string): void; steps(): Record<string, number> } {
  const steps: Record<string, number> = { modules: Math.round(performance.now()) };
  let last = performance.now();
  return {
    lap(step) {
      const now = performance.now();
      steps[step] = Math.round(now - last);
      last = now;
    },
    steps: () => ({ ...steps, total: Math.round(performance.now()) }),
  };
}
