import type { TSchema } from '@fastify/type-provider-typebox';
import { SessionError } from '../../sessions/index.ts';
import { ApiError, badRequest, tooMany } from '../errors.ts';
import { ErrorResponse } from '../schemas/common.ts';

/** A session room refusal as the API's error: the one mapping every session route uses. */
function toApiError(err: unknown): unknown {
  if (!(err instanceof SessionError)) return err;
  switch (err.kind) {
    case 'bad-request':
      return badRequest(err.field ?? 'body', err.message);
    case 'not-found':
      return new ApiError(404, err.message);
    case 'conflict':
      return new ApiError(409, err.message);
    case 'too-large':
      return new ApiError(413, err.message, {
        details: [{ field: err.field ?? 'body', message: err.message }],
      });
    case 'capacity':
      return tooMany(err.message, err.retryAfterSeconds ?? 30);
    case 'unavailable':
      return new ApiError(503, err.message);
  }
}

export async function mapped<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw toApiError(err);
  }
}

const sessionErrors = {
  400: ErrorResponse,
  401: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  413: ErrorResponse,
  429: ErrorResponse,
  503: ErrorResponse,
};

/**
 * A session route's options: every session route is documented under one tag and may answer any
 * session refusal beside its own answer. `parts` holds the rest of its schema (params, body, produces).
 */
export function sessionRoute<const A extends TSchema, const P extends object = object>(
  summary: string,
  answer: A,
  parts?: P,
) {
  return {
    schema: {
      tags: ['browser sessions'],
      summary,
      ...(parts as P),
      response: { 200: answer, ...sessionErrors },
    },
  };
}
