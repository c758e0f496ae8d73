import { pino } from 'pino';
import type { Config } from '../config.ts';
import { createServices } from './server.ts';
import { closeOnSignals, surviveUnhandledRejections } from './signals.ts';
import { startTimer } from './start-timer.ts';

/**
 * `webdata worker`: runs job items from the shared Postgres queue, serving no HTTP. Start any
 * number of them, on any machines that reach the same DATABASE_URL (and artifact store).
 */
export async function workerCommand(config: Config): Promise<void> {
  if (!config.databaseUrl) {
    console.error(
      'webdata worker needs DATABASE_URL=postgres://...: with the embedded SQLite store, `webdata serve` runs the jobs itself',
    );
    process.exit(2);
  }
  const timer = startTimer();
  const log = pino({ level: config.logLevel });
  surviveUnhandledRejections(log);
  const built = await createServices(config, 'worker');
  timer.lap('services');
  await built.jobs.start(log.child({ room: 'jobs' }), built.services);
  built.monitors.start(log.child({ room: 'monitors' }));
  timer.lap('jobs');
  log.info(
    { concurrency: config.jobConcurrency, startupMs: timer.steps() },
    'webdata worker running job items',
  );
  closeOnSignals(() => built.close());
}
