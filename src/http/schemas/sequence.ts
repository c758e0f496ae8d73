import { Type } from 'typebox';
import { SequenceStep } from './actions.ts';
import { Cost, Format, Metadata, pageExtraFields, ProxyObject, SummaryObject, Timestamp } from './common.ts';
import { ExtractObject } from './extract.ts';

export const SequenceBody = Type.Object(
  {
    startUrl: Type.String({ minLength: 1, description: 'Page the sequence starts on' }),
    steps: Type.Array(SequenceStep, { minItems: 1, maxItems: 100, description: 'Run in order; each `scrape` step is a breakpoint' }),
    type: Type.Optional(Format),
    onlyMainContent: Type.Optional(Type.Boolean({ description: 'Main content only at each breakpoint; default true' })),
    extractMetadata: Type.Optional(Type.Boolean({ description: 'Metadata at each breakpoint; default false' })),
    summary: Type.Optional(SummaryObject),
    extract: Type.Optional(ExtractObject),
    proxy: Type.Optional(ProxyObject),
  },
  { additionalProperties: false },
);

export const SequenceResponse = Type.Object({
  success: Type.Boolean(),
  data: Type.Array(
    Type.Object({
      url: Type.String(),
      markdown: Type.Optional(Type.String()),
      html: Type.Optional(Type.String()),
      stepIndex: Type.Number(),
      metadata: Type.Optional(Metadata),
      ...pageExtraFields,
    }),
  ),
  totalBreakpoints: Type.Number(),
  completedBreakpoints: Type.Number(),
  method: Type.Union([Type.Literal('browser'), Type.Literal('browser-stealth')]),
  totalTimeMs: Type.Number(),
  error: Type.Optional(Type.String()),
  failedAtStepIndex: Type.Optional(Type.Number()),
  timestamp: Timestamp,
  cost: Cost,
});
