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

export const sessionErrors = {
  400: ErrorResponse,
  401: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  413: ErrorResponse,
  429: ErrorResponse,
  503: ErrorResponse,
};
