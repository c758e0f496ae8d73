import { type TProperties, type TSchema, Type } from 'typebox';

export const Timestamp = Type.String({ format: 'date-time' });

export const Cost = Type.Number({ description: 'USD' });

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
