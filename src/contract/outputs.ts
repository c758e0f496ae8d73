import { type Static, Type } from 'typebox';
import { Cost, Outcome } from './common.ts';

export const MapResult = Outcome({
  links: Type.Array(Type.String()),
  total: Type.Number({ description: 'Length of links' }),
});
export type MapResult = Static<typeof MapResult>;

export const ScreenshotResult = Outcome({
  url: Type.Optional(Type.String({ description: 'Public PNG URL' })),
  sourceUrl: Type.String(),
  width: Type.Optional(Type.Number()),
  height: Type.Optional(Type.Number()),
});
export type ScreenshotResult = Static<typeof ScreenshotResult>;

export const PdfResult = Type.Object({
  success: Type.Boolean(),
  url: Type.Optional(Type.String({ description: 'Public PDF URL' })),
  error: Type.Optional(Type.String()),
  durationMs: Type.Number(),
  cost: Cost,
});
export type PdfResult = Static<typeof PdfResult>;
