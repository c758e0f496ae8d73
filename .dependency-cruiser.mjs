// The rules of docs/architecture.md, checked on every `npm test` (scripts/test.sh) by
// dependency-cruiser; `npm run docs:architecture` writes the doc's measured room graph from the
// same cruise. A room is a folder under src/ (or src/config.ts); rows are listed top to bottom.

/** The rooms, top to bottom: a room imports only rooms on rows below its own. */
export const ROWS = [
  ['cli'],
  ['http'],
  ['mcp'],
  ['monitors'],
  ['jobs'],
  ['ops'],
  ['page', 'sessions', 'extract'],
  ['browser', 'content', 'discover', 'search', 'webhooks'],
  ['acquire', 'llm', 'artifacts', 'billing', 'cache', 'changes'],
  ['store', 'metrics', 'api-client', 'fair', 'workers', 'upstream', 'config'],
  ['settings'],
  ['contract'],
];

/** Where a room's files are, as a path pattern. */
export const roomPath = (room) => (room === 'config' ? '^src/config\\.ts$' : `^src/${room}/`);

const rooms = ROWS.flat();
const rowOf = (room) => ROWS.findIndex((row) => row.includes(room));

/** One rule per room below the top row: nothing on its own row (but itself) or above. */
const direction = rooms
  .map((room) => ({
    room,
    refused: rooms.filter((other) => other !== room && rowOf(other) <= rowOf(room)),
  }))
  .filter(({ refused }) => refused.length > 0)
  .map(({ room, refused }) => ({
    name: `${room}-imports-downwards`,
    comment: `${room} imports only rooms on rows below its own (docs/architecture.md)`,
    severity: 'error',
    from: { path: roomPath(room) },
    to: { path: refused.map(roomPath) },
  }));

/**
 * content's sub-rooms, top to bottom: conversion (html to markdown and data) uses the
 * main-content model, which uses the DOM helpers; PDF and OCR stand apart. The room's own files
 * (pool, worker, types, index) sit above them all.
 */
export const CONTENT_SUB_ROOMS = [['convert'], ['main'], ['dom'], ['pdf']];
const subRooms = CONTENT_SUB_ROOMS.flat();
const subRowOf = (sub) => CONTENT_SUB_ROOMS.findIndex((row) => row.includes(sub));
const contentSubRooms = [
  ...subRooms.map((sub) => ({
    name: `content-${sub}-imports-downwards`,
    comment: `content/${sub} imports only content sub-rooms below it (docs/architecture.md)`,
    severity: 'error',
    from: { path: `^src/content/${sub}/` },
    to: {
      path: [
        '^src/content/[^/]+\\.ts$',
        ...subRooms
          .filter(
            (other) =>
              other !== sub &&
              (sub === 'pdf' || other === 'pdf' || subRowOf(other) <= subRowOf(sub)),
          )
          .map((other) => `^src/content/${other}/`),
      ],
    },
  })),
  {
    name: 'content-sub-room-index',
    comment: "a content sub-room imports another one's index.ts, never its inner files",
    severity: 'error',
    from: { path: '^src/content/([^/]+)/' },
    to: {
      path: '^src/content/[^/]+/.',
      pathNot: ['^src/content/$1/', '^src/content/[^/]+/index\\.ts$'],
    },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    ...direction,
    {
      name: 'only-index',
      comment: "a room imports another room's index.ts, never its inner files",
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: '^src/[^/]+/worker\\.ts$' },
      to: { path: '^src/[^/]+/.', pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'worker-modules-extend-worker-modules',
      comment:
        "a room's worker module (what pool threads load) may take another room's worker module's " +
        'tasks, and otherwise imports as any file does',
      severity: 'error',
      from: { path: '^src/([^/]+)/worker\\.ts$' },
      to: {
        path: '^src/[^/]+/.',
        pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$', '^src/[^/]+/worker\\.ts$'],
      },
    },
    ...contentSubRooms,
    {
      name: 'content-is-pure',
      comment:
        'content turns HTML into markdown and data; fetching and judging pages is not its job',
      severity: 'error',
      from: { path: '^src/content/' },
      to: { path: ['^src/acquire/', '^src/page/'] },
    },
    {
      name: 'http-reaches-acquire-through-rooms',
      comment:
        'http checks inputs through the room that owns them (page, ops, webhooks), never acquire',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/acquire/' },
    },
    {
      name: 'no-re-exports-across-rooms',
      comment: "a room's index.ts exports its own names; another room's names are imported from it",
      severity: 'error',
      from: { path: '^src/([^/]+)/index\\.ts$' },
      to: { path: '^src/', pathNot: '^src/$1/', dependencyTypes: ['export'] },
    },
    {
      name: 'contract-imports-nothing',
      comment: 'contract holds the API shapes and imports no room',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^src/', pathNot: '^src/contract/' },
    },
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a room that names another's types depends on it.
    detectJSDocImports: false,
  },
};
