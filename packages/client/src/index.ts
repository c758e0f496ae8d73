export { type ClientOptions, WebdataClient, WebdataError } from './client.ts';
export type * from './job-types.ts';
export type * from './session-types.ts';
export type * from './types.ts';
