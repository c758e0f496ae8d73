import type { FastifyBaseLogger } from 'fastify';
import type { HttpEngine } from '../acquire/index.ts';
import type { BrowserEngine } from '../browser/index.ts';
import type { Config } from '../config.ts';
import type { ContentThreads } from '../content/index.ts';

/** The services one page's life uses: the fetch, the browser and the conversion, under the config. */
export interface PageServices {
  config: Config;
  httpEngine: HttpEngine;
  content: ContentThreads;
  browser: BrowserEngine;
}

/** One page acquired for a caller: whose browser pages it takes, how to stop, where to log. */
export interface PageContext {
  userId: string;
  signal: AbortSignal;
  log: FastifyBaseLogger;
  services: PageServices;
}
