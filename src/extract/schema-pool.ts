import { FairLane } from '../fair/index.ts';
import { DeadlinePool, SharedPool, TaskDeadlineError } from '../workers/index.ts';
import { type SchemaViolation, shapeProblem } from './schema.ts';

/**
 * Caller schemas are compiled and run on worker threads, never on the event loop: however a
 * schema slipped past the bounds of `schemaProblem`, it holds one worker until its deadline, when
 * the worker is ended (piscina ends the thread of an aborted task and starts a fresh one), and
 * a heap of its own that it cannot grow past (the worker dies, not the process).
 */
const THREADS = 2;
const HEAP_MB = 128;

/** Why a schema task did not finish: its deadline passed, its worker ran out of memory, or it threw. */
export class SchemaTaskError extends Error {}

/** Verdicts by schema text: a batch gives every page the same schema, checked once. */
const checked = new Map<string, string | undefined>();
const CHECKED_KEPT = 100;

/** The pool, started with the first schema: a server that never extracts never pays for it. */
const pool = new SharedPool(
  () =>
    new DeadlinePool({
      filename: new URL('./schema-worker.ts', import.meta.url).href,
      minThreads: 1,
      maxThreads: THREADS,
      idleTimeout: 60_000,
      atomics: 'disabled',
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: 16 },
    }),
);

/**
 * The threads taken by keys in turn: piscina's own queue serves in arrival order, so one key's
 * batch of answers to check held every other key's behind it, each up to its deadline.
 */
const lane = new FairLane({ capacity: THREADS, perKey: THREADS });

/** Holds the schema workers for one service, until the returned release (SharedPool). */
export function holdSchemaWorkers(): () => Promise<void> {
  return pool.hold();
}

async function runTask<T>(
  name: 'check' | 'validate',
  task: Record<string, unknown>,
  timeoutMs: number,
  key: string,
  signal?: AbortSignal,
): Promise<T> {
  try {
    return await lane.run(key, () => pool.get().run<T>(name, task, { timeoutMs, signal }), {
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    if (err instanceof TaskDeadlineError)
      throw new SchemaTaskError(
        `took longer than ${timeoutMs} ms (WEBDATA_EXTRACT_SCHEMA_TIMEOUT_MS)`,
      );
    if ((err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY')
      throw new SchemaTaskError(`needed more than ${HEAP_MB} MB`);
    // The task's only inputs are the caller's schema and the model's answer: whatever it threw
    // (a stack overflow on a reference loop, say) is theirs to hear about, not a server error.
    throw new SchemaTaskError(`failed: ${(err as Error).message}`);
  }
}

/**
 * What is wrong with a caller's schema (see schemaProblem), or undefined when it can be used;
 * compiled on a schema worker within `timeoutMs`, in `caller`'s turn. The shape and byte cap are
 * checked here first, so an oversized schema is never copied to a worker.
 */
export async function checkSchema(
  schema: unknown,
  timeoutMs: number,
  caller: string,
): Promise<string | undefined> {
  const shape = shapeProblem(schema);
  if (shape) return shape;
  const key = JSON.stringify(schema);
  if (checked.has(key)) return checked.get(key);
  let problem: string | undefined;
  try {
    problem = (await runTask<string | null>('check', { schema }, timeoutMs, caller)) ?? undefined;
  } catch (err) {
    if (!(err instanceof SchemaTaskError)) throw err;
    // Not kept: a deadline missed on a loaded machine says little about the next try.
    return `cannot be used: compiling it ${err.message}`;
  }
  if (checked.size >= CHECKED_KEPT) checked.delete(checked.keys().next().value!);
  checked.set(key, problem);
  return problem;
}

/**
 * The ways `value` misses a schema that passed checkSchema, checked on a schema worker within
 * `timeoutMs` in `run.key`'s turn; throws SchemaTaskError past it.
 */
export function answerViolations(
  schema: object,
  value: unknown,
  timeoutMs: number,
  run: { key: string; signal?: AbortSignal },
): Promise<SchemaViolation[]> {
  return runTask<SchemaViolation[]>('validate', { schema, value }, timeoutMs, run.key, run.signal);
}
