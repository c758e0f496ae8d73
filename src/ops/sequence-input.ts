import { type Static, Type } from 'typebox';
import type { Config } from '../config.ts';
import { MethodChoice, SequenceStep } from '../contract/index.ts';
import { methodsFor } from '../page/index.ts';
import { ExtractObject, extractRequest } from './extract-input.ts';
import { InputError } from './input-error.ts';
import {
  checkSteps,
  checkSummary,
  Format,
  ProxyObject,
  requireHttpUrl,
  requireProxy,
  SummaryObject,
} from './input-fields.ts';
import type { SequenceInput } from './sequence.ts';

export const SequenceBody = Type.Object(
  {
    startUrl: Type.String({ minLength: 1, description: 'Page the sequence starts on' }),
    steps: Type.Array(SequenceStep, {
      minItems: 1,
      maxItems: 100,
      description: 'Run in order; each `scrape` step is a breakpoint',
    }),
    type: Type.Optional(Format),
    onlyMainContent: Type.Optional(
      Type.Boolean({ description: 'Main content only at each breakpoint; default true' }),
    ),
    includeComments: Type.Optional(
      Type.Boolean({
        description:
          "Keep readers' comment threads under a story, and customers' reviews on a product page, in each breakpoint's main content; default false",
      }),
    ),
    extractMetadata: Type.Optional(
      Type.Boolean({ description: 'Metadata at each breakpoint; default false' }),
    ),
    summary: Type.Optional(SummaryObject),
    extract: Type.Optional(ExtractObject),
    proxy: Type.Optional(ProxyObject),
    method: Type.Optional(MethodChoice),
  },
  { additionalProperties: false },
);
export type SequenceBody = Static<typeof SequenceBody>;

/** A sequence body to the sequence's input, checked; each mistake an InputError naming the field. */
export async function sequenceInput(
  body: SequenceBody,
  config: Config,
  caller: string,
  prefix = '',
): Promise<SequenceInput> {
  checkSteps(body.steps, `${prefix}steps`);
  checkSummary(body.summary, `${prefix}summary`);
  if (body.method === 'http')
    throw new InputError(
      `${prefix}method`,
      'a sequence runs its steps in a browser: ask for browser, browser-stealth, browser-firefox or auto',
    );
  const methods = body.method && methodsFor(body.method);
  return {
    ...(methods ? { methods } : {}),
    startUrl: requireHttpUrl(body.startUrl, `${prefix}startUrl`),
    steps: body.steps,
    type: body.type,
    onlyMainContent: body.onlyMainContent,
    includeComments: body.includeComments,
    extractMetadata: body.extractMetadata,
    summary: body.summary,
    extract: await extractRequest(body.extract, config, caller, `${prefix}extract`),
    proxy: requireProxy(config, body.proxy, prefix),
  };
}
