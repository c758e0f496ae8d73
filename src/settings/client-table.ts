import { text } from './kinds.ts';

/** What the CLI and `webdata mcp` read to reach a running server instead of starting one in-process. */
export const CLIENT_SETTINGS = {
  url: text('WEBDATA_URL', {
    group: 'Client',
    default: '',
    doc: 'base URL of a running server for the client commands and `webdata mcp` (same as `--url`); empty runs the service in-process',
  }),
  apiKey: text('WEBDATA_API_KEY', {
    group: 'Client',
    default: '',
    doc: 'the key sent to `WEBDATA_URL` (same as `--key`)',
  }),
};
