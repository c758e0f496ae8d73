export { type McpRouteOptions, mcpRoutes, type OperationCall } from './http-route.ts';
export { createMcpHandler, MCP_SERVER_INFO, type McpHandler } from './server.ts';
export { serveStdio } from './stdio.ts';
