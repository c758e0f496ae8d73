export { buildApp, type AppOptions } from './app.ts';
export type { ServingServices } from './deps.ts';
