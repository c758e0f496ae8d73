import type { Static } from 'typebox';
import { ExtractFields } from '../../ops/index.ts';
import { withWebhook } from './webhooks.ts';

/** POST /v1/extract. */
export const ExtractBody = withWebhook(ExtractFields);
export type ExtractBody = Static<typeof ExtractBody>;
