import { type Static, Type } from 'typebox';
import { Cost, LiteralUnion, Timestamp } from './common.ts';
import { BROWSER_RUNGS, pageExtraFields, ResultMetadata } from './page.ts';

/** What a sequence's `scrape` step captured. */
export const Breakpoint = Type.Object({
  url: Type.String(),
  markdown: Type.Optional(Type.String()),
  html: Type.Optional(Type.String()),
  stepIndex: Type.Number(),
  metadata: Type.Optional(ResultMetadata),
  ...pageExtraFields,
});
export type Breakpoint = Static<typeof Breakpoint>;

export const SequenceResult = Type.Object({
  success: Type.Boolean(),
  data: Type.Array(Breakpoint),
  totalBreakpoints: Type.Number(),
  completedBreakpoints: Type.Number(),
  method: LiteralUnion(BROWSER_RUNGS),
  totalTimeMs: Type.Number(),
  error: Type.Optional(Type.String()),
  failedAtStepIndex: Type.Optional(Type.Number()),
  timestamp: Timestamp,
  cost: Cost,
});
export type SequenceResult = Static<typeof SequenceResult>;
