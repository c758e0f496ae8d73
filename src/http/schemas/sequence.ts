import { Type } from 'typebox';
import { MethodChoice, SequenceStep } from '../../contract/index.ts';
import { ExtractObject, Format, ProxyObject, SummaryObject } from '../../ops/index.ts';

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
          "Keep readers' comment threads under a story in each breakpoint's main content; default false",
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
