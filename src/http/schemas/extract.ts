import { type Static, Type } from 'typebox';
import { MAX_SCHEMA_BYTES, MAX_SCHEMA_EXPANDED } from '../../extract/index.ts';
import { MAX_PROMPT_CHARS } from '../../ops/index.ts';
import { withWebhook } from './webhooks.ts';

/** POST /v1/extract. The URL limit is the async batch's: the work runs as a job. */
export const ExtractBody = withWebhook(
  Type.Object(
    {
      urls: Type.Array(Type.String({ minLength: 1 }), {
        minItems: 1,
        description: 'Pages to read together; one object is drawn from all of them',
      }),
      schema: Type.Unknown({
        description: `JSON Schema of the object to return (top-level "type": "object", at most ${MAX_SCHEMA_BYTES} bytes and ${MAX_SCHEMA_EXPANDED} subschemas with its $refs followed; $ref only inside the schema, no $async)`,
      }),
      prompt: Type.Optional(
        Type.String({
          maxLength: MAX_PROMPT_CHARS,
          description: 'Instruction for the LLM beside the schema',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);
export type ExtractBody = Static<typeof ExtractBody>;
