/**
 * The request fields several operations share (format, summary, proxy, target URL, steps): their
 * shapes and the checks a schema cannot express, each failing with an InputError naming the field.
 */
import { type TProperties, Type } from 'typebox';
import type { Config } from '../config.ts';
import { InputError } from './input-error.ts';
import { type ProxyRequest, proxyRefusal } from './proxy.ts';

/** A body that names one target page by `url`, beside the operation's own fields. */
export function urlBody<P extends TProperties>(fields: P) {
  return Type.Object(
    { url: Type.String({ minLength: 1 }), ...fields },
    { additionalProperties: false },
  );
}

export const Format = Type.Union([Type.Literal('markdown'), Type.Literal('html')], {
  description: 'Output format; default markdown',
});

/**
 * Longest CSS selector a caller may give (includeTags, excludeTags, extract.selectors); each also
 * runs on a content worker under the conversion deadline, as length alone bounds no selector's work.
 */
export const MAX_SELECTOR_CHARS = 500;

/** Longest instruction to the LLM (extraction prompt, summary query), on every door. */
export const MAX_PROMPT_CHARS = 10_000;

export const SummaryObject = Type.Object(
  { query: Type.String({ minLength: 1, maxLength: MAX_PROMPT_CHARS }) },
  {
    additionalProperties: false,
    description:
      "Adds `content`: the LLM's answer, or without an LLM configured the passages most relevant to the query; `summarizer` says which",
  },
);
export const ProxyObject = Type.Object(
  {
    country: Type.String({
      minLength: 2,
      maxLength: 2,
      description:
        'ISO 3166-1 alpha-2 code, any case; must have a proxy configured (WEBDATA_PROXY_URLS)',
    }),
  },
  {
    additionalProperties: false,
    description: 'Geo-targeted request through an upstream proxy of that country',
  },
);

/** A proxy object this server can serve, or a 400 naming `<prefix>proxy.country` and what is configured. */
export function requireProxy(
  config: Config,
  proxy: ProxyRequest | undefined,
  prefix = '',
): ProxyRequest | undefined {
  const refusal = proxyRefusal(config, proxy);
  if (refusal) throw new InputError(`${prefix}proxy.country`, refusal);
  return proxy;
}

/** A target URL must be absolute http(s); anything else is the caller's mistake, named by field. */
export function requireHttpUrl(value: string, field: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InputError(field, `"${value}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InputError(field, `scheme ${url.protocol} is not supported; use http or https`);
  return url.href;
}

/** A summary works with or without an LLM (extractive without one); only a blank instruction is refused. */
export function checkSummary(summary: { query: string } | undefined, field: string): void {
  if (summary === undefined) return;
  if (!summary.query.trim()) throw new InputError(`${field}.query`, 'must not be blank');
}

/** Navigate steps must name absolute http(s) URLs; a mistake is a 400 naming the step. */
export function checkSteps(
  steps: ReadonlyArray<{ type: string; url?: string }> | undefined,
  field: string,
): void {
  for (const [i, s] of (steps ?? []).entries())
    if (s.type === 'navigate') requireHttpUrl(s.url ?? '', `${field}[${i}].url`);
}
