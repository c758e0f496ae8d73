/**
 * Why a call to a JSON API (an LLM, a search API) gave no answer. `message` is written for the API
 * user and names the service; `reason` is the same without the service, for callers that name it
 * their own way (a search engine "refused the query").
 */
export class UpstreamError extends Error {
  readonly kind: 'refused' | 'failed' | 'timeout';
  readonly service: string;
  readonly reason: string;

  constructor(kind: UpstreamError['kind'], service: string, reason: string) {
    super(
      kind === 'refused'
        ? `${service} refused the request: ${reason}`
        : kind === 'timeout'
          ? `${service} ${reason}`
          : `${service} failed: ${reason}`,
    );
    this.kind = kind;
    this.service = service;
    this.reason = reason;
  }
}
