#!/usr/bin/env node
// Entry for `npx webdata` / a global install: Node 24 strips the TypeScript types itself.
await import('../src/cli/main.ts');
