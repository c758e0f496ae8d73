import type { FastifyBaseLogger, FastifyError, FastifyInstance } from 'fastify';
import { InputError } from '../ops/index.ts';

export interface ErrorDetail {
  field: string;
  message: string;
}

/** An error meant for the API user: its status, message and details are sent as they are. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;

  constructor(
    statusCode: number,
    message: string,
    opts: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.statusCode = statusCode;
    this.details = opts.details;
    this.headers = opts.headers;
  }
}

export function badRequest(field: string, message: string): ApiError {
  return new ApiError(400, `${field}: ${message}`, { details: [{ field, message }] });
}

export function notFound(what: string): ApiError {
  return new ApiError(404, `${what} not found`);
}

export function tooMany(message: string, retryAfterSeconds: number): ApiError {
  return new ApiError(429, message, { headers: { 'retry-after': String(retryAfterSeconds) } });
}

export interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Turns one Ajv error into the field path a user wrote (`urls[3].type`) and a plain message. */
function describeValidation(part: string, e: AjvError): ErrorDetail {
  const segments = e.instancePath.split('/').filter(Boolean);
  if (e.keyword === 'required') segments.push(String(e.params.missingProperty));
  if (e.keyword === 'additionalProperties') segments.push(String(e.params.additionalProperty));
  const field =
    segments.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '') ||
    part;
  let message = e.message ?? 'is invalid';
  if (e.keyword === 'required') message = 'is required';
  else if (e.keyword === 'additionalProperties') message = 'is not a known field';
  else if (e.keyword === 'enum')
    message = `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  return { field, message };
}

/**
 * A body that failed its schema, as the 400 that names the first field: what Fastify's validation
 * errors become, and what an in-process call of a route's operation answers for the same body.
 */
export function validationFailure(part: string, errors: readonly AjvError[]): ApiError {
  const details = errors.map((e) => describeValidation(part, e));
  const first = details[0] ?? { field: part, message: 'is invalid' };
  return new ApiError(400, `${first.field}: ${first.message}`, { details });
}

/** An error's response: its status, the headers it carries and the API's error body. */
export interface ErrorAnswer {
  status: number;
  headers?: Record<string, string>;
  body: { success: false; error: string; details?: ErrorDetail[] };
}

/** The single place errors become responses: no stack trace or 500 ever leaves for bad input. */
export function errorAnswer(err: unknown, log: FastifyBaseLogger): ErrorAnswer {
  if (err instanceof InputError) return errorAnswer(badRequest(err.field, err.message), log);
  if (err instanceof ApiError) {
    return {
      status: err.statusCode,
      ...(err.headers ? { headers: err.headers } : {}),
      body: {
        success: false,
        error: err.message,
        ...(err.details ? { details: err.details } : {}),
      },
    };
  }
  const fe = err as FastifyError;
  if (fe.validation)
    return errorAnswer(
      validationFailure(fe.validationContext ?? 'body', fe.validation as AjvError[]),
      log,
    );
  if (fe.statusCode === 413 || fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return {
      status: 413,
      body: { success: false, error: 'request body is larger than the limit' },
    };
  // A body that is empty or not JSON at all is a body error: named as the field `body`, as a schema error would be.
  if (fe.statusCode === 400 && fe.code?.startsWith('FST_ERR_CTP_')) {
    return {
      status: 400,
      body: {
        success: false,
        error: `body: ${fe.message}`,
        details: [{ field: 'body', message: fe.message }],
      },
    };
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    // Capacity errors from the engines (429) carry their Retry-After this way.
    const headers = (err as { headers?: unknown }).headers;
    return {
      status: fe.statusCode,
      ...(headers && typeof headers === 'object'
        ? { headers: headers as Record<string, string> }
        : {}),
      body: { success: false, error: fe.message },
    };
  }
  log.error({ err }, 'unhandled error');
  return { status: 500, body: { success: false, error: 'internal error' } };
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const answer = errorAnswer(err, request.log);
    if (answer.headers) reply.headers(answer.headers);
    return reply.code(answer.status).send(answer.body);
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({
      success: false,
      error: `no route for ${request.method} ${request.url.split('?')[0]}`,
    });
  });
}
