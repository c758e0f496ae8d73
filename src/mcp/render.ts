import type { ApiClient } from '../api-client/index.ts';

/** How a tool's answer reads for a model: pages as markdown, screenshots as images, the rest as JSON. */
export type RenderKind =
  | 'page'
  | 'pages'
  | 'sequence'
  | 'search'
  | 'map'
  | 'image'
  | 'started'
  | 'job'
  | 'json';

export type Content =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string };

type Body = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function costLine(body: Body): string | undefined {
  return typeof body.cost === 'number' ? `cost: $${body.cost}` : undefined;
}

/** A listing's cards as a markdown list a model reads at a glance: name, link, price, blurb. */
function listingText(items: unknown): string | undefined {
  if (!Array.isArray(items)) return undefined;
  if (items.length === 0) return 'listing: no repeated items on this page';
  return (items as Body[])
    .map((item) => {
      const price =
        typeof item.price === 'number'
          ? ` (${item.price}${item.currency ? ` ${str(item.currency)}` : ''})`
          : '';
      const about = str(item.description) ? ` - ${str(item.description)}` : '';
      return `- [${str(item.name)}](${str(item.url)})${price}${about}`;
    })
    .join('\n');
}

function pageText(page: Body): string {
  if (page.success === false) return `failed: ${str(page.error) ?? 'unknown error'}`;
  const parts = [
    str(page.content),
    str(page.markdown) ?? str(page.html),
    listingText(page.listing),
  ].filter((p): p is string => p !== undefined);
  return parts.join('\n\n---\n\n');
}

function pagesText(results: unknown[], label: (item: Body) => string): string {
  return results.map((r) => `## ${label(r as Body)}\n\n${pageText(r as Body)}`).join('\n\n');
}

/**
 * How much of a job's pages `job_status` shows as text. A page of results is up to 100 pages, each
 * possibly long, and an agent polling a crawl should not have all of them read into its context on
 * every call: each page shows its opening, and once the whole text is long enough the remaining
 * pages are listed by URL. `structuredContent` keeps every page whole.
 */
export const JOB_TEXT_LIMITS = { pageChars: 2_000, totalChars: 30_000 } as const;

function jobPagesText(data: Body[]): string {
  let used = 0;
  let listed = 0;
  const sections = data.map((page) => {
    const url = str(page.url) ?? '';
    if (used >= JOB_TEXT_LIMITS.totalChars) {
      listed++;
      return `- ${url}`;
    }
    const full = pageText(page);
    const shown = full.slice(0, JOB_TEXT_LIMITS.pageChars);
    used += shown.length;
    const cut =
      shown.length < full.length
        ? `\n\n[… first ${shown.length} of ${full.length} characters; the whole page is in structuredContent.data, under this URL]`
        : '';
    return `## ${url}\n\n${shown}${cut}`;
  });
  const note = listed
    ? `\n\n${listed} more pages listed by URL only: their content is in structuredContent.data; a smaller limit pages through them as text.`
    : '';
  return sections.join('\n\n') + note;
}

function searchText(body: Body): string {
  const queries = (body.results as Body[] | undefined) ?? [];
  return queries
    .map((q) => {
      const head = `## ${str(q.query)}`;
      if (q.success === false) return `${head}\n\nfailed: ${str(q.error)}`;
      const items = ((q.results as Body[] | undefined) ?? []).map(
        (r) =>
          `- [${str(r.title) ?? str(r.url)}](${str(r.url)})${r.description ? `\n  ${str(r.description)}` : ''}`,
      );
      return `${head}\n\n${items.join('\n')}`;
    })
    .join('\n\n');
}

function text(kind: RenderKind, body: Body): string {
  switch (kind) {
    case 'page':
      return pageText(body);
    case 'pages':
      return pagesText((body.results as unknown[] | undefined) ?? [], (r) => str(r.url) ?? '');
    case 'sequence': {
      const data = pagesText(
        (body.data as unknown[] | undefined) ?? [],
        (r) => `step ${String(r.stepIndex)}: ${str(r.url) ?? ''}`,
      );
      return body.success === false
        ? `failed at step ${String(body.failedAtStepIndex)}: ${str(body.error)}\n\n${data}`
        : data;
    }
    case 'search':
      return searchText(body);
    case 'map':
      return body.success === false
        ? `failed: ${str(body.error)}`
        : ((body.links as string[] | undefined) ?? []).join('\n');
    case 'started':
      // The next call an agent makes, spelled out: it has only the id to go on.
      return [
        `job ${str(body.id)} started: call job_status with id "${str(body.id)}" for its progress and pages (offset and limit page through them), job_cancel to stop it.`,
        body.webhookSecret ? `webhook signing secret: ${str(body.webhookSecret)}` : undefined,
      ]
        .filter(Boolean)
        .join('\n');
    case 'job': {
      const head = `job ${str(body.id)}: ${str(body.status)} (${String(body.completed)}/${String(body.total)})`;
      // Items not run yet are null; search items carry no page to show.
      const data = ((body.data as unknown[] | undefined) ?? []).filter(
        (item): item is Body => item !== null && typeof item === 'object' && 'url' in item,
      );
      const pages = data.length ? `\n\n${jobPagesText(data)}` : '';
      return `${head}${pages}${body.next ? `\n\nmore results: offset from ${str(body.next)}` : ''}`;
    }
    case 'image':
    case 'json':
      return JSON.stringify(body, null, 2);
  }
}

/** The content blocks for a successful (HTTP 200/202) answer. */
export async function renderContent(
  kind: RenderKind,
  body: Body,
  api: ApiClient,
): Promise<Content[]> {
  const blocks: Content[] = [
    {
      type: 'text',
      text: [text(kind, body), kind !== 'json' && kind !== 'image' ? costLine(body) : undefined]
        .filter(Boolean)
        .join('\n\n'),
    },
  ];
  if (kind === 'image' && body.success !== false && typeof body.url === 'string') {
    const file = await api.download(body.url);
    if (file)
      blocks.unshift({
        type: 'image',
        data: file.data.toString('base64'),
        mimeType: file.contentType.split(';')[0]!.trim() || 'image/png',
      });
  }
  return blocks;
}

/** An API error answer (4xx) as the text of an MCP tool error: the message and each field named. */
export function errorText(status: number, body: unknown): string {
  const b = (body && typeof body === 'object' ? body : {}) as Body;
  const details = Array.isArray(b.details)
    ? (b.details as Body[]).map((d) => `- ${str(d.field)}: ${str(d.message)}`)
    : [];
  return [`HTTP ${status}: ${str(b.error) ?? 'request failed'}`, ...details].join('\n');
}
