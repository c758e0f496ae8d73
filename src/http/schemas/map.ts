import { type Static, Type } from 'typebox';

/** Longest map `search`: its words are matched against every URL found, on every door. */
export const MAP_MAX_SEARCH_CHARS = 500;

export const MapBody = Type.Object(
  {
    url: Type.String({ minLength: 1, description: 'Base URL of the site' }),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 5000, description: 'Most URLs returned; default 100' }),
    ),
    search: Type.Optional(
      Type.String({
        maxLength: MAP_MAX_SEARCH_CHARS,
        description: 'Keyword to filter and rank URLs by relevance',
      }),
    ),
    includeSubdomains: Type.Optional(
      Type.Boolean({
        description: 'Include other hosts of the same registrable domain; default false',
      }),
    ),
    ignoreQueryParameters: Type.Optional(
      Type.Boolean({ description: 'Drop query strings before deduplicating; default true' }),
    ),
  },
  { additionalProperties: false },
);
export type MapBody = Static<typeof MapBody>;
