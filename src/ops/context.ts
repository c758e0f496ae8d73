import type { FastifyBaseLogger } from 'fastify';
import type { HttpEngine } from '../acquire/index.ts';
import type { ArtifactStore } from '../artifacts/index.ts';
import type { Meter } from '../billing/index.ts';
import type { BrowserEngine } from '../browser/index.ts';
import type { PageCache } from '../cache/index.ts';
import type { SnapshotStore } from '../changes/index.ts';
import type { Config } from '../config.ts';
import type { ContentPool } from '../content/index.ts';
import type { SearchEngines } from '../search/index.ts';

/**
 * What every operation may use, and all a job worker builds. Built once at start-up by the CLI and
 * shared by routes and workers.
 */
export interface Services {
  config: Config;
  httpEngine: HttpEngine;
  content: ContentPool;
  browser: BrowserEngine;
  artifacts: ArtifactStore;
  search: SearchEngines;
  cache: PageCache;
  snapshots: SnapshotStore;
}

/** One call of an operation: who asks, how to stop, where charges go. */
export interface OpContext {
  userId: string;
  signal: AbortSignal;
  meter: Meter;
  log: FastifyBaseLogger;
  services: Services;
}
