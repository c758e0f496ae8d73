export { mcpRoutes } from './http-route.ts';
export { createMcpServer, MCP_SERVER_INFO } from './server.ts';
export { serveStdio } from './stdio.ts';
export { TOOL_ROUTES, type ToolRoute } from './tools.ts';
