export { buildApp, type AppOptions } from './app.ts';
export type { RouteDeps } from './deps.ts';
export { ApiError } from './errors.ts';
