import {
  type TLiteral,
  type TProperties,
  type TSchema,
  type TSchemaOptions,
  type TUnion,
  Type,
} from 'typebox';

export const Timestamp = Type.String({ format: 'date-time' });

export const Cost = Type.Number({ description: 'USD' });

/** One literal schema per value of a tuple, the tuple's order kept. */
type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };

/**
 * A union of string literals from one `as const` list, so a list of names is written once and
 * both the schema and its static type follow it.
 */
export function LiteralUnion<const T extends readonly string[]>(
  values: T,
  options?: TSchemaOptions,
): TUnion<Literals<T>> {
  return Type.Union<Literals<T>>(values.map((v) => Type.Literal(v)) as [...Literals<T>], options);
}

/** A sync map or screenshot's answer: whether it worked, its own fields, then cost, why it failed and when. */
export function Outcome<P extends TProperties>(fields: P) {
  return Type.Object({
    success: Type.Boolean(),
    ...fields,
    cost: Cost,
    error: Type.Optional(Type.String()),
    timestamp: Timestamp,
  });
}

/** A batch's answer: every item's result and the counts, `extra` fields, then when and what it cost. */
export function BatchOf<T extends TSchema, E extends TProperties>(item: T, extra: E) {
  return Type.Object({
    results: Type.Array(item),
    total: Type.Number(),
    successful: Type.Number(),
    failed: Type.Number(),
    ...extra,
    timestamp: Timestamp,
    cost: Cost,
  });
}
