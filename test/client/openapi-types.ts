import { dirname, resolve } from 'node:path';
import ts from 'typescript';

/** The subset of JSON Schema that TypeBox writes into the server's OpenAPI document. */
export interface JsonSchema {
  type?: string;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
}

interface Operation {
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: JsonSchema }>;
  requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, { content?: { 'application/json'?: { schema: JsonSchema } } }>;
}

export type OpenApi = { paths: Record<string, Record<string, Operation>> };

/** A TypeScript type written out for a JSON Schema, as the server's document states it. */
export function schemaToTs(s: JsonSchema): string {
  if (s.anyOf) return `(${s.anyOf.map(schemaToTs).join(' | ')})`;
  if (s.enum) return `(${s.enum.map((v) => JSON.stringify(v)).join(' | ')})`;
  if (s.const !== undefined) return JSON.stringify(s.const);
  switch (s.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${s.items ? schemaToTs(s.items) : 'unknown'}>`;
    case 'object': {
      const required = new Set(s.required ?? []);
      const fields = Object.entries(s.properties ?? {}).map(
        ([k, v]) => `${JSON.stringify(k)}${required.has(k) ? '' : '?'}: ${schemaToTs(v)};`,
      );
      if (typeof s.additionalProperties === 'object')
        fields.push(`[key: string]: ${schemaToTs(s.additionalProperties)};`);
      return `{ ${fields.join(' ')} }`;
    }
    default:
      return 'unknown';
  }
}

function operation(doc: OpenApi, route: string): Operation {
  const [method = '', path = ''] = route.split(' ');
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`/openapi.json has no ${route}`);
  return op;
}

/** The JSON body a route accepts, as TypeScript. */
export function requestBodyTs(doc: OpenApi, route: string): string {
  const schema = operation(doc, route).requestBody?.content['application/json'].schema;
  if (!schema) throw new Error(`${route} takes no JSON body`);
  return schemaToTs(schema);
}

/** The query parameters a route accepts, as an object type. */
export function queryTs(doc: OpenApi, route: string): string {
  const params = (operation(doc, route).parameters ?? []).filter((p) => p.in === 'query');
  return schemaToTs({
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    required: params.filter((p) => p.required).map((p) => p.name),
  });
}

/** The JSON a route answers with on success (200, or 202 for a job start), as TypeScript. */
export function responseTs(doc: OpenApi, route: string): string {
  const { responses } = operation(doc, route);
  const schema = (responses['200'] ?? responses['202'])?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${route} documents no JSON success response`);
  return schemaToTs(schema);
}

/**
 * Type-level helpers for the check file. `FieldPaths` lists every field of a type as a dotted path
 * (`.results[].metadata.title`, records as `{}`), through unions, arrays and optional fields.
 * With `Open`, a field typed `unknown` also covers every path below it: the other side may
 * narrow what the document leaves open.
 */
export const CHECK_PRELUDE = `
type FieldPaths<T, P extends string, Open extends boolean> =
  unknown extends T ? (Open extends true ? P | \`\${P}\${string}\` : P)
  : T extends readonly (infer E)[] ? FieldPaths<E, \`\${P}[]\`, Open>
  : T extends object
    ? string extends keyof T
      ? \`\${P}{}\` | FieldPaths<T[string], \`\${P}{}\`, Open>
      : { [K in keyof T & string]-?: \`\${P}.\${K}\` | FieldPaths<Exclude<T[K], undefined>, \`\${P}.\${K}\`, Open> }[keyof T & string]
    : never;
type Surplus<A, B> = Exclude<FieldPaths<A, '', false>, FieldPaths<B, '', true>>;
type NoneOf<X> = [X] extends [never] ? true : { mismatched: X };
`;

/** Type errors of a TypeScript source checked as if it were the file at `path`, with the repo's compiler options. */
export function typeErrors(path: string, source: string): string[] {
  const configPath = ts.findConfigFile(dirname(path), ts.sys.fileExists);
  if (!configPath) throw new Error('no tsconfig.json above the check file');
  const config = ts.parseJsonConfigFileContent(
    ts.readConfigFile(configPath, ts.sys.readFile).config,
    ts.sys,
    dirname(configPath),
  );
  const host = ts.createCompilerHost(config.options);
  const target = resolve(path);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => resolve(f) === target || fileExists(f);
  host.readFile = (f) => (resolve(f) === target ? source : readFile(f));
  host.getSourceFile = (f, lang, ...rest) =>
    resolve(f) === target ? ts.createSourceFile(f, source, lang) : getSourceFile(f, lang, ...rest);
  const program = ts.createProgram([target], config.options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && resolve(d.file.fileName) === target)
    .map((d) => {
      const line =
        d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
      return `${source.split('\n')[line]?.trim()}\n  ${ts.flattenDiagnosticMessageText(d.messageText, '\n  ')}`;
    });
}
