import { type Static, Type } from 'typebox';
import type { Config } from '../config.ts';
import { selectorProblem } from '../content/index.ts';
import {
  checkSchema,
  type ExtractRequest,
  MAX_SCHEMA_BYTES,
  MAX_SCHEMA_EXPANDED,
} from '../extract/index.ts';
import { llmConfigured } from '../llm/index.ts';
import type { ExtractInput } from './extract.ts';
import { InputError } from './input-error.ts';
import { MAX_PROMPT_CHARS, MAX_SELECTOR_CHARS, requireHttpUrl } from './input-fields.ts';

/** Most fields one selector extraction reads. */
export const MAX_SELECTOR_FIELDS = 100;

const SelectorSpec = Type.Union([
  Type.String({
    minLength: 1,
    maxLength: MAX_SELECTOR_CHARS,
    description: 'CSS selector; the text of the first match',
  }),
  Type.Object(
    {
      selector: Type.String({ minLength: 1, maxLength: MAX_SELECTOR_CHARS }),
      attribute: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 100,
          description: 'Read this attribute instead of the text; href/src come back absolute',
        }),
      ),
      all: Type.Optional(
        Type.Boolean({
          description: 'Every match as a list; default false (first match, null without one)',
        }),
      ),
    },
    { additionalProperties: false },
  ),
]);

export const ExtractObject = Type.Object(
  {
    schema: Type.Optional(
      Type.Unknown({
        description: `JSON Schema of the object to return (top-level "type": "object", at most ${MAX_SCHEMA_BYTES} bytes and ${MAX_SCHEMA_EXPANDED} subschemas with its $refs followed; $ref only inside the schema, no $async); needs an LLM`,
      }),
    ),
    prompt: Type.Optional(
      Type.String({
        maxLength: MAX_PROMPT_CHARS,
        description: 'Instruction for the LLM beside the schema',
      }),
    ),
    selectors: Type.Optional(
      Type.Record(Type.String(), SelectorSpec, {
        description: 'Field name to CSS selector; read without an LLM, never run as code',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Structured extraction into `json`: `schema` (LLM) or `selectors` (no LLM), not both',
  },
);
export type ExtractObject = Static<typeof ExtractObject>;

/**
 * An extraction request this server can run, or an InputError naming the field: exactly one mode, a
 * usable schema (and an LLM to fill it), or selectors that parse. The schema is checked on the
 * workers every key shares, in the turn of `caller`, the key that sent the request.
 */
export async function extractRequest(
  body: ExtractObject | undefined,
  config: Config,
  caller: string,
  field: string,
): Promise<ExtractRequest | undefined> {
  if (body === undefined) return undefined;
  const { schema, prompt, selectors } = body;
  if ((schema === undefined) === (selectors === undefined))
    throw new InputError(
      field,
      'give either `schema` (LLM extraction) or `selectors` (CSS selectors), not both or neither',
    );
  if (selectors !== undefined) {
    if (prompt !== undefined)
      throw new InputError(`${field}.prompt`, 'only applies to `schema` extraction');
    const fields = Object.entries(selectors);
    if (fields.length === 0)
      throw new InputError(`${field}.selectors`, 'must name at least one field');
    if (fields.length > MAX_SELECTOR_FIELDS)
      throw new InputError(
        `${field}.selectors`,
        `at most ${MAX_SELECTOR_FIELDS} fields (got ${fields.length})`,
      );
    for (const [name, spec] of fields) {
      const problem = selectorProblem(typeof spec === 'string' ? spec : spec.selector);
      if (problem) throw new InputError(`${field}.selectors.${name}`, problem);
    }
    return { selectors };
  }
  // Firecrawl's json format carries its prompt outside any schema with a bound.
  if (prompt !== undefined && prompt.length > MAX_PROMPT_CHARS)
    throw new InputError(`${field}.prompt`, `at most ${MAX_PROMPT_CHARS} characters`);
  return {
    schema: await usableSchema(schema, config, caller, `${field}.schema`),
    ...(prompt?.trim() ? { prompt } : {}),
  };
}

/**
 * A caller's schema this server can fill, or an InputError naming `field`: checked and compiled on a
 * schema worker within its deadline in `caller`'s turn, and an LLM configured to fill it.
 */
export async function usableSchema(
  schema: unknown,
  config: Config,
  caller: string,
  field: string,
): Promise<object> {
  const problem = await checkSchema(schema, config.extract.schemaTimeoutMs, caller);
  if (problem) throw new InputError(field, problem);
  if (!llmConfigured(config.llm))
    throw new InputError(
      field,
      'schema extraction needs an LLM and this server has none configured: set OPENAI_API_KEY (or WEBDATA_LLM_API=ollama), or use `selectors`',
    );
  return schema as object;
}

/** The fields of POST /v1/extract; the async start adds a webhook. The URL limit is the async batch's: the work runs as a job. */
export const ExtractFields = Type.Object(
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
);
export type ExtractFields = Static<typeof ExtractFields>;

/** A POST /v1/extract body: absolute URLs within the limit, a usable schema, a configured LLM. */
export async function extractInput(
  body: ExtractFields,
  config: Config,
  caller: string,
  maxUrls: number,
): Promise<ExtractInput> {
  if (body.urls.length > maxUrls)
    throw new InputError(
      'urls',
      `at most ${maxUrls} URLs per extraction (got ${body.urls.length})`,
    );
  const urls = body.urls.map((u, i) => requireHttpUrl(u, `urls[${i}]`));
  const schema = await usableSchema(body.schema, config, caller, 'schema');
  return { urls, schema, ...(body.prompt?.trim() ? { prompt: body.prompt } : {}) };
}
