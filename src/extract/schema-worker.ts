import { taskStarted } from '../workers/index.ts';
import { type SchemaViolation, schemaProblem, violations } from './schema.ts';

/** Piscina task `check`: a caller's schema read, bounded and compiled (then kept compiled on this thread). */
export function check({ id, schema }: { id: number; schema: unknown }): string | null {
  taskStarted(id);
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
  taskStarted(id);
  return violations(schema, value);
}
