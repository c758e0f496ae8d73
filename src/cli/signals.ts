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

/**
 * Keeps the process serving when a promise somewhere was left without a handler: Node's default
 * ends the process, which would end every other user's requests and jobs with it. The work that
 * promise belonged to fails on its own (its request times out or its item is retried); the log
 * says where it came from, as it is a bug to fix.
 */
export function surviveUnhandledRejections(log: { error(obj: object, msg: string): void }): void {
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'a promise was rejected with no handler; the process keeps serving');
  });
}
