/** Why an engine gave no results. `message` is written for the API user. */
export class SearchEngineError extends Error {
  readonly kind: 'not-configured' | 'refused' | 'failed';

  constructor(kind: SearchEngineError['kind'], message: string) {
    super(message);
    this.kind = kind;
  }
}

export function notConfigured(engine: string, setting: string): SearchEngineError {
  return new SearchEngineError(
    'not-configured',
    `the ${engine} engine is not configured: set ${setting}`,
  );
}

export function refused(engine: string, reason: string): SearchEngineError {
  return new SearchEngineError('refused', `${engine} refused the query: ${reason}`);
}

export function engineFailed(engine: string, reason: string): SearchEngineError {
  return new SearchEngineError('failed', `${engine} failed: ${reason}`);
}

/** A first results page with no result we could parse and no sign of the engine finding nothing. */
export function unreadable(engine: string): SearchEngineError {
  return new SearchEngineError(
    'failed',
    `${engine} returned a results page we could not read (its layout may have changed)`,
  );
}
