import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { RE2JS } from 're2js';
import { expandedSize, SchemaRefusal } from './schema-walk.ts';

/** Largest caller schema accepted, as JSON: a schema is a description of fields, not a payload. */
export const MAX_SCHEMA_BYTES = 16 * 1024;
/** Deepest nesting of a caller schema; ajv compiles recursively and would overflow long before a useful schema gets this deep. */
export const MAX_SCHEMA_DEPTH = 32;

/** One way the model's answer misses the schema, as `/path: message`. */
export type SchemaViolation = string;
/** Most violations reported for one answer: enough for the repair round, and a bound on what a worker sends back. */
const MAX_VIOLATIONS = 20;

/**
 * `pattern` and `patternProperties` come from the caller, so they run on RE2 (linear time):
 * a backtracking engine would let one schema stall the server (ReDoS). Patterns RE2 cannot run
 * (lookaround, backreferences) are refused when the schema is checked.
 */
function re2(pattern: string, flags: string) {
  const compiled = RE2JS.compile(pattern, flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
  return { test: (s: string) => compiled.test(s) };
}
re2.code = 're2js';

type FormatsPlugin = (ajv: Ajv) => Ajv;
// ajv-formats ships CommonJS with its function as `default`, which ESM sees one level down.
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  addFormatsModule) as unknown as FormatsPlugin;

/** Untrusted schemas: no remote references are ever loaded, no unknown keyword is an error worth refusing a request for. */
const ajv = new Ajv({ allErrors: true, strict: false, logger: false, code: { regExp: re2 } });
addFormats(ajv);

/** Compiled validators by schema text: a batch sends one schema for every page. */
const compiled = new Map<string, ValidateFunction>();
const CACHE_SIZE = 100;

function depth(value: unknown, level = 0): number {
  if (value === null || typeof value !== 'object') return level;
  let max = level + 1;
  for (const v of Object.values(value)) {
    max = Math.max(max, depth(v, level + 1));
    if (max > MAX_SCHEMA_DEPTH) return max;
  }
  return max;
}

function ajvMessage(err: ErrorObject): string {
  return `${err.instancePath || '/'} ${err.message ?? 'is invalid'}`;
}

/**
 * The compiled validator of a schema already checked by schemaProblem. Runs on a schema worker
 * only (see schema-pool.ts): compiling is the caller's program, as is running it.
 */
export function validatorFor(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    // ajv keeps every schema with an `$id` under it, so a second caller's schema with the same
    // `$id` would be refused; the root's `$id` names nothing a pointer reference needs.
    const { $id: _id, ...anonymous } = schema as { $id?: unknown };
    validate = ajv.compile(anonymous);
    if (compiled.size >= CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, validate);
  }
  return validate;
}

/**
 * What is wrong with a caller's extraction schema, or undefined when it can be used: too large,
 * too deep, a keyword that would load or await something, too large once its `$ref`s are
 * followed, not a JSON Schema for an object, or not compilable (a pattern RE2 cannot run).
 */
/** Whether `schema` is a JSON object within the byte cap: checked before it is copied to a worker. */
export function shapeProblem(schema: unknown): string | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
    return 'must be a JSON Schema object';
  const size = Buffer.byteLength(JSON.stringify(schema));
  if (size > MAX_SCHEMA_BYTES)
    return `is ${size} bytes; at most ${MAX_SCHEMA_BYTES} bytes are accepted`;
  return undefined;
}

export function schemaProblem(value: unknown): string | undefined {
  const shape = shapeProblem(value);
  if (shape) return shape;
  const schema = value as object;
  if (depth(schema) > MAX_SCHEMA_DEPTH) return `nests deeper than ${MAX_SCHEMA_DEPTH} levels`;
  if ((schema as { type?: unknown }).type !== 'object')
    return 'must describe an object: its top level needs "type": "object"';
  try {
    expandedSize(schema);
  } catch (err) {
    if (err instanceof SchemaRefusal) return err.message;
    throw err;
  }
  if (!ajv.validateSchema(schema))
    return `is not a valid JSON Schema: ${(ajv.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`;
  try {
    validatorFor(schema);
  } catch (err) {
    return `cannot be used: ${(err as Error).message}`;
  }
  return undefined;
}

/** The ways `value` misses the schema (the first MAX_VIOLATIONS); empty when it validates. */
export function violations(schema: object, value: unknown): SchemaViolation[] {
  const validate = validatorFor(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, MAX_VIOLATIONS).map(ajvMessage);
}
