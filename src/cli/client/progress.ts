import { SingleBar } from 'cli-progress';

/** A progress bar on stderr, only when stderr is a terminal: pipes and logs get no control codes. */
export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

export function progress(label: string): Progress {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const bar = new SingleBar({
    format: `${label} [{bar}] {value}/{total}`,
    stream: process.stderr,
    hideCursor: true,
    clearOnComplete: true,
  });
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, done);
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(done);
      }
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
