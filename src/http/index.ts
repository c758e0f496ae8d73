export { buildApp, type AppOptions } from './app.ts';
export type { RouteDeps, ServingServices } from './deps.ts';
export { ApiError } from './errors.ts';
