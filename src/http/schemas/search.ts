import { type Static, Type } from 'typebox';
import { PageScrapeOptions } from '../../ops/index.ts';
import { SEARCH_PROVIDERS } from '../../settings/index.ts';

/** A domain filter entry: a host name (at most 253) or a URL that names one. */
export const DomainFilter = Type.String({ minLength: 1, maxLength: 2048 });

export const SearchProviderName = Type.Union(
  SEARCH_PROVIDERS.map((name) => Type.Literal(name)),
  {
    description: "google, bing, chatgpt, perplexity (the spec's), searxng or brave; default google",
  },
);

/** The search request; the sync route allows 3 queries, the async batch 20. */
export function searchBody(maxQueries: number) {
  return Type.Object(
    {
      queries: Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), {
        minItems: 1,
        maxItems: maxQueries,
      }),
      limit: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 50, description: 'Results per query; default 10' }),
      ),
      location: Type.Optional(
        Type.String({ description: 'ISO 3166-1 alpha-2 country code, any case' }),
      ),
      includeDomains: Type.Optional(
        Type.Array(DomainFilter, {
          maxItems: 100,
          description: 'Only these domains (and their subdomains)',
        }),
      ),
      excludeDomains: Type.Optional(
        Type.Array(DomainFilter, {
          maxItems: 100,
          description: 'Never these domains (nor their subdomains)',
        }),
      ),
      engine: Type.Optional(SearchProviderName),
    },
    { additionalProperties: false },
  );
}

/** The sync search; it alone can scrape its hits (an async batch item is one query, no pages). */
export const SearchBody = Type.Object(
  {
    ...searchBody(3).properties,
    scrape: Type.Optional(
      Type.Object(PageScrapeOptions.properties, {
        additionalProperties: false,
        description:
          "Scrape every hit too: each gets `page` (a fetch result), charged as a scrape and counted in its query's cost",
      }),
    ),
  },
  { additionalProperties: false },
);
export type SearchBody = Static<typeof SearchBody>;
