/** Why a search provider gave no results. `message` is written for the API user. */
export class SearchProviderError extends Error {
  readonly kind: 'not-configured' | 'refused' | 'failed';

  constructor(kind: SearchProviderError['kind'], message: string) {
    super(message);
    this.kind = kind;
  }
}

export function notConfigured(provider: string, setting: string): SearchProviderError {
  return new SearchProviderError(
    'not-configured',
    `the ${provider} engine is not configured: set ${setting}`,
  );
}

export function refused(provider: string, reason: string): SearchProviderError {
  return new SearchProviderError('refused', `${provider} refused the query: ${reason}`);
}

export function providerFailed(provider: string, reason: string): SearchProviderError {
  return new SearchProviderError('failed', `${provider} failed: ${reason}`);
}

/** A first results page with no result we could parse and no sign of the provider finding nothing. */
export function unreadable(provider: string): SearchProviderError {
  return new SearchProviderError(
    'failed',
    `${provider} returned a results page we could not read (its layout may have changed)`,
  );
}
