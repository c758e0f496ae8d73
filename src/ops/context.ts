import type { ArtifactStore } from '../artifacts/index.ts';
import type { Meter } from '../billing/index.ts';
import type { PageCache } from '../cache/index.ts';
import type { SnapshotStore } from '../changes/index.ts';
import type { PageContext, PageServices } from '../page/index.ts';
import type { SearchProviders } from '../search/index.ts';
import type { CrawlPoliteness } from './crawl.ts';

/**
 * What every operation may use, and all a job worker builds. Built once at start-up by the CLI and
 * shared by routes and workers.
 */
export interface Services extends PageServices {
  artifacts: ArtifactStore;
  search: SearchProviders;
  cache: PageCache;
  snapshots: SnapshotStore;
  politeness: CrawlPoliteness;
}

/** One call of an operation: who asks, how to stop, where charges go. */
export interface OpContext extends PageContext {
  meter: Meter;
  services: Services;
}
