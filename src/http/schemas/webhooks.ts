import { type Static, type TObject, type TProperties, Type } from 'typebox';
import { Timestamp } from '../../contract/index.ts';
import { MONITOR_EVENTS, WEBHOOK_EVENTS, WEBHOOK_HEADER_LIMITS } from '../../webhooks/index.ts';

export const WebhookBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'Receives a signed POST per event; checked by the SSRF guard at start and on every delivery',
    }),
    headers: Type.Optional(
      Type.Record(
        Type.String({ minLength: 1, maxLength: WEBHOOK_HEADER_LIMITS.nameLength }),
        Type.String({ maxLength: WEBHOOK_HEADER_LIMITS.valueLength }),
        {
          maxProperties: WEBHOOK_HEADER_LIMITS.count,
          description:
            'Extra headers sent with every delivery: RFC 9110 names, values without control characters',
        },
      ),
    ),
    events: Type.Optional(
      Type.Array(Type.Enum(WEBHOOK_EVENTS), {
        minItems: 1,
        uniqueItems: true,
        description: 'Events to deliver; default all',
      }),
    ),
  },
  { additionalProperties: false },
);
export type WebhookBody = Static<typeof WebhookBody>;

/** An async start body: its sync twin's fields plus an optional webhook. */
export function withWebhook<P extends TProperties>(body: TObject<P>) {
  return Type.Object(
    { ...body.properties, webhook: Type.Optional(WebhookBody) },
    { additionalProperties: false },
  );
}

export const WebhookSecretCreated = Type.Object({
  success: Type.Literal(true),
  secret: Type.String({
    description: 'Signs every webhook delivery of this key; shown only in this answer',
  }),
  createdAt: Timestamp,
});

export const WebhookEvents = Type.Object({
  success: Type.Literal(true),
  id: Type.String(),
  total: Type.Number({ description: 'Events of the job' }),
  events: Type.Array(
    Type.Object({
      id: Type.String(),
      event: Type.Enum([...WEBHOOK_EVENTS, ...MONITOR_EVENTS]),
      url: Type.String(),
      state: Type.Union([
        Type.Literal('pending'),
        Type.Literal('delivered'),
        Type.Literal('failed'),
      ]),
      attempts: Type.Array(
        Type.Object({
          attempt: Type.Number(),
          at: Timestamp,
          statusCode: Type.Union([Type.Number(), Type.Null()]),
          error: Type.Union([Type.String(), Type.Null()]),
          durationMs: Type.Number(),
        }),
      ),
      createdAt: Timestamp,
      deliveredAt: Type.Union([Timestamp, Type.Null()]),
    }),
  ),
  next: Type.Optional(Type.String()),
});
