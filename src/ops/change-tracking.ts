import { changedFields, gitDiff, hasChanged, type SnapshotPlace } from '../changes/index.ts';
import type { ChangeTracking, FetchResult } from '../contract/index.ts';
import { normalizeUrl } from '../discover/index.ts';
import type { OpContext } from './context.ts';

/**
 * What a caller asks of change tracking: the diff modes (git-diff of the markdown, json of the
 * request's extraction), and a tag keeping separate histories.
 */
export interface ChangeTrackingRequest {
  modes: Array<'git-diff' | 'json'>;
  tag?: string;
}

/** Status codes that say a page is gone rather than failing. */
const GONE = new Set([404, 410]);

/**
 * Adds `changeTracking` to a scrape's result: its main-content markdown against the last one
 * this key saw for the URL and tag, which it then replaces. A page now answering 404 or 410 after
 * an earlier snapshot is `removed` (and forgotten, so its return is `new`); other failures compare
 * nothing and keep the snapshot. Whitespace and volatile parts do not count (see changes/compare.ts).
 */
export async function trackChanges(
  input: { url: string },
  request: ChangeTrackingRequest,
  result: FetchResult,
  ctx: OpContext,
): Promise<FetchResult> {
  const url = normalizeUrl(input.url, undefined, { ignoreQuery: false })?.href;
  if (!url) return result;
  const place: SnapshotPlace = { scope: ctx.userId, url, tag: request.tag ?? '' };
  const { snapshots } = ctx.services;
  const previous = await snapshots.latest(place);
  const tag = request.tag !== undefined ? { tag: request.tag } : {};
  const previousScrapeAt = previous ? new Date(previous.at).toISOString() : null;
  if (!result.success) {
    if (!previous || !GONE.has(result.statusCode)) return result;
    await snapshots.forget(place);
    const changeTracking: ChangeTracking = {
      changeStatus: 'removed',
      previousScrapeAt,
      visibility: 'hidden',
      ...tag,
    };
    return { ...result, changeTracking };
  }
  const markdown = result.markdown ?? '';
  const json = request.modes.includes('json') ? result.json : undefined;
  await snapshots.save(place, {
    markdown,
    ...(json !== undefined ? { json } : {}),
    at: Date.parse(result.timestamp),
  });
  const fields =
    previous && json !== undefined ? changedFields(previous.json ?? null, json) : undefined;
  const changed = previous
    ? hasChanged(previous.markdown, markdown) || Object.keys(fields ?? {}).length > 0
    : false;
  const changeTracking: ChangeTracking = {
    changeStatus: !previous ? 'new' : changed ? 'changed' : 'same',
    previousScrapeAt,
    visibility: 'visible',
    ...(changed && previous && request.modes.includes('git-diff')
      ? { diff: { text: gitDiff(previous.markdown, markdown) } }
      : {}),
    ...(fields ? { json: fields } : {}),
    ...tag,
  };
  return { ...result, changeTracking };
}
