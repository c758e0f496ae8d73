export { type AppOptions, buildApp } from './app.ts';
export type { ServingServices } from './deps.ts';
