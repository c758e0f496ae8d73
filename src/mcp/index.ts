export { mcpRoutes } from './http-route.ts';
export { serveStdio } from './stdio.ts';
