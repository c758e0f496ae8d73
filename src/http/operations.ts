import type { FastifyPluginAsyncTypebox, Static, TSchema } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { OperationCall } from '../mcp/index.ts';
import type { OpContext } from '../ops/index.ts';
import type { RouteDeps } from './deps.ts';
import { type AjvError, errorAnswer, validationFailure } from './errors.ts';
import { runOp } from './op-context.ts';

/**
 * A route that runs one operation on its JSON body, declared once: Fastify serves it over HTTP,
 * and an in-process caller (MCP's tools) calls the same work without a fake HTTP request.
 */
export interface OperationRoute<B extends TSchema> {
  url: string;
  schema: {
    tags: string[];
    summary: string;
    body: B;
    /** Without one (the Firecrawl layer, whose answers are its own), the result is sent as it is. */
    response?: { 200: TSchema } & Record<number, TSchema>;
  };
  /**
   * Reads the validated body into the operation's input (a 400 naming the field when it cannot),
   * then the work; asynchronous when a check runs off the event loop (a caller's JSON Schema),
   * in the turn of `caller`, the key that sent the request, on workers every key shares.
   */
  prepare(body: Static<B>, caller: string): Prepared | Promise<Prepared>;
}

/** An operation's work on an input already read and checked. */
type Prepared = (ctx: OpContext) => Promise<unknown>;

/**
 * The usual core: the body read into the operation's input by the operation's own parser (which
 * throws an InputError naming the field), then the operation on it.
 */
export function parsed<B, I>(
  parse: (body: B, caller: string) => I | Promise<I>,
  op: (input: I, ctx: OpContext) => Promise<unknown>,
): (body: B, caller: string) => Promise<Prepared> {
  return async (body, caller) => {
    const input = await parse(body, caller);
    return (ctx) => op(input, ctx);
  };
}

/** Schemas as Fastify's compilers take them: plain JSON Schema objects. */
type JsonSchema = Record<string, unknown>;

interface RegisteredOperation {
  body: JsonSchema;
  result?: JsonSchema;
  prepare(body: unknown, caller: string): Prepared | Promise<Prepared>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The operation routes by `METHOD /full/path`, for in-process calls (`operationCalls`). */
    operations: Map<string, RegisteredOperation>;
  }
}

export const operationsPlugin = fp(async (app: FastifyInstance) => {
  app.decorate('operations', new Map<string, RegisteredOperation>());
});

/** Registers an operation route on `app` (under its prefix) and records it for in-process calls. */
export function operationRoute<B extends TSchema>(
  app: Parameters<FastifyPluginAsyncTypebox<RouteDeps>>[0],
  deps: RouteDeps,
  route: OperationRoute<B>,
): void {
  app.post(route.url, { schema: route.schema }, async (request, reply) =>
    runOp(
      deps.services,
      deps.ledger,
      request,
      reply,
      await route.prepare(request.body as Static<B>, request.user.userId),
    ),
  );
  app.operations.set(`POST ${app.prefix}${route.url}`, {
    body: route.schema.body as JsonSchema,
    ...(route.schema.response ? { result: route.schema.response[200] as JsonSchema } : {}),
    prepare: (body, caller) => route.prepare(body as Static<B>, caller),
  });
}

/**
 * In-process calls of the operation routes for the user `request` authenticated, answered as the
 * route would answer them over HTTP: an in-flight place taken first (429), the body checked with
 * the same Ajv configuration (compiled once per schema, coercion and defaults included), the same
 * charging, errors through the same error answers, and the result shaped by the route's response
 * schema, so fields the schema lacks are dropped exactly as the route's serialiser drops them.
 * Closing `reply`'s connection stops the work.
 */
export function operationCalls(
  app: FastifyInstance,
  deps: RouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): OperationCall {
  return async (method, path, body) => {
    const op = app.operations.get(`${method} ${path}`);
    if (!op) return undefined;
    try {
      const release = app.takeInflight(request.user.userId);
      try {
        const validate = request.compileValidationSchema(op.body, 'body');
        if (!validate(body as Record<string, unknown>))
          throw validationFailure('body', (validate.errors ?? []) as AjvError[]);
        const result = await runOp(
          deps.services,
          deps.ledger,
          request,
          reply,
          await op.prepare(body, request.user.userId),
        );
        const serialise = op.result
          ? reply.compileSerializationSchema(op.result, '200')
          : JSON.stringify;
        return { status: 200, body: JSON.parse(serialise(result as Record<string, unknown>)) };
      } finally {
        release();
      }
    } catch (err) {
      const answer = errorAnswer(err, request.log);
      return { status: answer.status, body: answer.body };
    }
  };
}
