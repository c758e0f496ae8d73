import { requestJson } from '../upstream/index.ts';
import { providerFailed } from './errors.ts';
import type { ProviderQuery, SearchHit, SearchProvider } from './types.ts';

interface Annotation {
  type?: string;
  url?: string;
  title?: string;
  start_index?: number;
  end_index?: number;
}

interface OutputItem {
  type?: string;
  action?: { sources?: Array<{ type?: string; url?: string }> };
  content?: Array<{ type?: string; text?: string; annotations?: Annotation[] }>;
}

interface ResponsesAnswer {
  status?: string;
  error?: { message?: string } | null;
  incomplete_details?: { reason?: string } | null;
  output?: OutputItem[];
}

/** OpenAI adds this to every cited URL; it is not part of the page's address. */
function withoutOpenAiTag(url: string): string {
  try {
    const u = new URL(url);
    if (u.searchParams.get('utm_source') === 'openai') u.searchParams.delete('utm_source');
    return u.href;
  } catch {
    return url;
  }
}

/**
 * The text a citation supports. OpenAI's annotation usually spans only the inline marker
 * (`([site](url))`) placed after the claim, so the claim is the sentence before the marker.
 */
function citedText(text: string, a: Annotation): string {
  const start = a.start_index ?? 0;
  const span = text.slice(start, a.end_index ?? start);
  const isMarker =
    span.trim() === '' || /^\s*[([]/.test(span) || (a.url !== undefined && span.includes(a.url));
  if (!isMarker) return span.replace(/\s+/g, ' ').trim();
  const claim = text.slice(0, start).trimEnd();
  const cut = Math.max(
    claim.lastIndexOf('\n'),
    claim.lastIndexOf('. '),
    claim.lastIndexOf('! '),
    claim.lastIndexOf('? '),
  );
  return claim
    .slice(cut + 1)
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`#>]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function responsesHits(answer: ResponsesAnswer): SearchHit[] {
  const cited: SearchHit[] = [];
  const sources: SearchHit[] = [];
  for (const item of answer.output ?? []) {
    if (item.type === 'web_search_call') {
      for (const s of item.action?.sources ?? [])
        if (s.url) sources.push({ url: withoutOpenAiTag(s.url), title: '', description: '' });
    }
    if (item.type !== 'message') continue;
    for (const part of item.content ?? []) {
      for (const a of part.annotations ?? []) {
        if (a.type !== 'url_citation' || !a.url) continue;
        cited.push({
          url: withoutOpenAiTag(a.url),
          title: a.title ?? '',
          description: citedText(part.text ?? '', a),
        });
      }
    }
  }
  // Cited sources first: they carry a title and the text they support.
  return [...cited, ...sources];
}

/** OpenAI's Responses API with the hosted `web_search` tool; results are the sources it cites. */
export function chatgptProvider(opts: {
  baseUrl: string;
  apiKey: string;
  model: string;
}): SearchProvider {
  return {
    name: 'chatgpt',
    async *pages(q: ProviderQuery, signal: AbortSignal) {
      const tool: Record<string, unknown> = { type: 'web_search' };
      if (q.includeDomains.length > 0) tool.filters = { allowed_domains: q.includeDomains };
      if (q.location) tool.user_location = { type: 'approximate', country: q.location };
      const body = {
        model: opts.model,
        input: `Search the web for: ${q.query}\nAnswer briefly and cite up to ${q.limit} distinct, relevant sources.`,
        tools: [tool],
        tool_choice: 'required',
        include: ['web_search_call.action.sources'],
      };
      const answer = (await requestJson('chatgpt', `${opts.baseUrl}/responses`, {
        method: 'POST',
        bearer: opts.apiKey,
        body,
        signal,
      })) as ResponsesAnswer;
      if (answer.status === 'failed')
        throw providerFailed('chatgpt', answer.error?.message ?? 'the response failed');
      yield responsesHits(answer);
    },
  };
}
