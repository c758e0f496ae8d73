export { type ClientOptions, WebdataClient, WebdataError } from './client.ts';
export type * from './types.ts';
