export { UpstreamError } from './errors.ts';
export { requestJson } from './json-api.ts';
