/** Closes what the process runs on its first SIGINT or SIGTERM (a second one while closing is ignored), then exits. */
export function closeOnSignals(close: () => Promise<void>): void {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
