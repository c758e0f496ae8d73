import type { Static } from 'typebox';
import { CrawlFields } from '../../ops/index.ts';
import { withWebhook } from './webhooks.ts';

export const CrawlBody = withWebhook(CrawlFields);
export type CrawlBody = Static<typeof CrawlBody>;
