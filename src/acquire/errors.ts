/** A fetch that did not yield a usable page. `message` is written for the API user. */
export class FetchFailure extends Error {
  readonly statusCode: number;
  readonly kind:
    | 'blocked-destination'
    | 'network'
    | 'timeout'
    | 'too-large'
    | 'too-many-redirects'
    | 'http-status'
    | 'unsupported-content'
    | 'invalid-url';

  constructor(kind: FetchFailure['kind'], message: string, statusCode = 0) {
    super(message);
    this.kind = kind;
    this.statusCode = statusCode;
  }
}
