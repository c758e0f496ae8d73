import fc from 'fast-check';

/** The subset of JSON Schema the API's TypeBox schemas use (checked against /openapi.json by the fuzz test). */
export interface JsonSchema {
  type?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
}

export interface ArbitraryOptions {
  /** Values for free-form strings (URLs the server may fetch must be local; see the fuzz test). */
  strings: fc.Arbitrary<string>;
  /** Out of 100, how often a node is replaced by something invalid; 0 yields only valid values. */
  invalidPercent: number;
}

/** Integers bounded above by this or more are durations; valid ones are drawn small so the run stays short. */
const LONG_MAXIMUM = 1000;

/** A value that breaks `schema`: the wrong type, a bound crossed, or any JSON at all. */
function invalid(schema: JsonSchema): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [
    fc.jsonValue({ maxDepth: 2 }),
    fc.constant(null),
    fc.constant(''),
    fc.constant([]),
    fc.constant({}),
  ];
  if (schema.type === 'string')
    options.push(
      fc.integer(),
      fc.boolean(),
      fc.string({
        minLength: (schema.maxLength ?? 50) + 1,
        maxLength: (schema.maxLength ?? 50) + 3,
      }),
    );
  if (schema.type === 'integer' || schema.type === 'number') {
    options.push(fc.string(), fc.double({ noNaN: true }), fc.constant(1e308), fc.constant(-1));
    if (schema.maximum !== undefined) options.push(fc.constant(schema.maximum + 1));
    if (schema.minimum !== undefined) options.push(fc.constant(schema.minimum - 1));
  }
  if (schema.type === 'integer') options.push(fc.constant(1.5));
  if (schema.type === 'array' && schema.maxItems !== undefined && schema.maxItems <= 200)
    options.push(fc.constant(Array.from({ length: schema.maxItems + 1 }, () => 'x')));
  if (schema.type === 'object')
    options.push(fc.string(), fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }));
  return fc.oneof(...options);
}

/** Values for `schema`, valid except for the share of nodes `opts.invalidPercent` turns bad. */
export function schemaArbitrary(schema: JsonSchema, opts: ArbitraryOptions): fc.Arbitrary<unknown> {
  const valid = validArbitrary(schema, opts);
  if (opts.invalidPercent <= 0) return valid;
  return fc.oneof(
    { weight: 100 - opts.invalidPercent, arbitrary: valid },
    { weight: opts.invalidPercent, arbitrary: invalid(schema) },
  );
}

function validArbitrary(schema: JsonSchema, opts: ArbitraryOptions): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => schemaArbitrary(s, opts)));
  switch (schema.type) {
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -1000;
      const max = schema.maximum ?? 1000;
      const top = max >= LONG_MAXIMUM ? Math.min(max, Math.max(min, 0) + 200) : max;
      return schema.type === 'integer'
        ? fc.integer({ min, max: top })
        : fc.double({ min, max: top, noNaN: true });
    }
    case 'string': {
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      const minLength = schema.minLength ?? 0;
      const maxLength = schema.maxLength ?? 2000;
      return opts.strings.filter((s) => s.length >= minLength && s.length <= maxLength);
    }
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? 5, minLength + 4);
      return fc.array(schemaArbitrary(schema.items ?? {}, opts), { minLength, maxLength });
    }
    case 'object': {
      const props = schema.properties ?? {};
      const record = fc.record(
        Object.fromEntries(Object.entries(props).map(([k, s]) => [k, schemaArbitrary(s, opts)])),
        { requiredKeys: schema.required ?? [] },
      ) as fc.Arbitrary<Record<string, unknown>>;
      if (opts.invalidPercent <= 0) return record;
      // Now and then a required field goes missing or an unknown one appears.
      return fc
        .tuple(record, fc.nat(99), fc.string({ maxLength: 12 }))
        .map(([obj, roll, extra]) => {
          const required = schema.required ?? [];
          if (roll < opts.invalidPercent / 2 && required.length > 0) {
            const { [required[roll % required.length]!]: _dropped, ...rest } = obj;
            return rest;
          }
          if (roll >= 100 - opts.invalidPercent / 2) return { ...obj, [`x${extra}`]: extra };
          return obj;
        });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A caller's extraction schema; its top level is always an object, as the API asks. */
export type CallerSchema = Record<string, unknown>;

const COMBINATORS = ['allOf', 'anyOf', 'oneOf'] as const;

/**
 * Caller JSON Schemas shaped to cost the most per byte: `$ref`s into definitions that branch at
 * every level (fan^levels subschemas from a few kB), literal nesting through every keyword that
 * holds a subschema, recursive types (some looping back without going into the value, some
 * branching at each turn), and the keywords that would load or await something.
 */
export function hostileSchemaArbitrary(): fc.Arbitrary<CallerSchema> {
  const leaf = fc.constantFrom<unknown>(
    { type: 'string' },
    { type: 'string', minLength: 3 },
    { type: 'number' },
    { type: 'object' },
    {},
    true,
    false,
  );
  const branching = fc
    .record({
      levels: fc.integer({ min: 1, max: 40 }),
      fan: fc.integer({ min: 1, max: 3 }),
      keyword: fc.constantFrom(...COMBINATORS),
      leaf,
    })
    .map(({ levels, fan, keyword, leaf: bottom }) => {
      const definitions: Record<string, unknown> = { l0: bottom };
      for (let i = 1; i <= levels; i++)
        definitions[`l${i}`] = {
          [keyword]: Array.from({ length: fan }, () => ({ $ref: `#/definitions/l${i - 1}` })),
        };
      return { definitions, properties: { a: { $ref: `#/definitions/l${levels}` } } };
    });
  const nesting = fc
    .record({
      path: fc.array(
        fc.constantFrom(...COMBINATORS, 'not', 'if', 'items', 'additionalProperties', 'properties'),
        { minLength: 1, maxLength: 40 },
      ),
      width: fc.integer({ min: 1, max: 4 }),
      leaf,
    })
    .map(({ path, width, leaf: bottom }) => {
      let node: unknown = bottom;
      for (const keyword of path.toReversed())
        node = (COMBINATORS as readonly string[]).includes(keyword)
          ? { [keyword]: [node, ...Array.from({ length: width - 1 }, () => ({ type: 'string' }))] }
          : keyword === 'properties'
            ? { properties: { a: node } }
            : { [keyword]: node };
      return { properties: { a: node } };
    });
  const recursive = fc
    .record({
      fan: fc.integer({ min: 1, max: 4 }),
      keyword: fc.constantFrom(...COMBINATORS),
      intoTheValue: fc.boolean(),
    })
    .map(({ fan, keyword, intoTheValue }) => {
      const back = intoTheValue
        ? { type: 'object', properties: { c: { $ref: '#/definitions/node' } } }
        : { $ref: '#/definitions/node' };
      return {
        properties: { c: { $ref: '#/definitions/node' } },
        definitions: { node: { [keyword]: Array.from({ length: fan }, () => back) } },
      };
    });
  const refused = fc.constantFrom<CallerSchema>(
    { $async: true, required: ['zzz'] },
    { $schema: 'http://169.254.169.254/draft.json' },
    { properties: { a: { $ref: 'http://127.0.0.1:1/a.json' } } },
    { properties: { a: { $id: 'http://127.0.0.1:1/a.json', type: 'string' } } },
    { properties: { a: { $ref: '#/definitions/missing' } } },
    { $ref: '#' },
  );
  return fc
    .oneof(branching, nesting, recursive, refused)
    .map((schema) => ({ type: 'object', ...schema }));
}
