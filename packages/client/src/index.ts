export { WebdataClient, WebdataError, type ClientOptions } from './client.ts';
export type * from './types.ts';
