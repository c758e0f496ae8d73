import { type Static, Type } from 'typebox';
import { BatchOf, Cost } from './common.ts';
import { FetchResult } from './page.ts';

/** `page` is there when the search was asked to scrape its hits. */
export const SearchHit = Type.Object({
  url: Type.String(),
  title: Type.String(),
  description: Type.String(),
  page: Type.Optional(FetchResult),
});

/** One query of a search: what a sync search holds up to three of and an async batch item is. */
export const SearchQueryResult = Type.Object({
  query: Type.String(),
  success: Type.Boolean(),
  results: Type.Array(SearchHit),
  loadTimeMs: Type.Number(),
  cost: Cost,
  error: Type.Optional(Type.String()),
});
export type SearchQueryResult = Static<typeof SearchQueryResult>;

export const SearchResult = BatchOf(SearchQueryResult, { totalTimeMs: Type.Number() });
export type SearchResult = Static<typeof SearchResult>;
