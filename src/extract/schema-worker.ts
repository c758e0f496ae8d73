import { parentPort } from 'node:worker_threads';
import { type SchemaViolation, schemaProblem, violations } from './schema.ts';

/** Told to the pool as a task begins, so its deadline counts from there and not from the queue. */
export interface SchemaTaskStarted {
  schemaTaskStarted: number;
}

const started = (id: number) =>
  parentPort?.postMessage({ schemaTaskStarted: id } satisfies SchemaTaskStarted);

/** Piscina task `check`: a caller's schema read, bounded and compiled (then kept compiled on this thread). */
export function check({ id, schema }: { id: number; schema: unknown }): string | null {
  started(id);
  return schemaProblem(schema) ?? null;
}

/** Piscina task `validate`: the model's answer checked against a schema that passed `check`. */
export function validate({
  id,
  schema,
  value,
}: {
  id: number;
  schema: object;
  value: unknown;
}): SchemaViolation[] {
  started(id);
  return violations(schema, value);
}
