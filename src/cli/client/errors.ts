/**
 * Exit codes of the client commands, so scripts can tell what went wrong without parsing text.
 * Documented in docs/cli.md.
 */
export const EXIT = {
  ok: 0,
  /** The operation ran and failed: a page could not be fetched, a job failed, an item of a batch failed. */
  failed: 1,
  /** The command line or the request was wrong (a 400 names the field). */
  usage: 2,
  /** The key is missing, wrong or revoked (401). */
  auth: 3,
  /** The job or session does not exist or is not yours (404). */
  notFound: 4,
  /** Over capacity (429): try again later. */
  busy: 5,
  /** The server could not be reached or answered with a server error. */
  unavailable: 6,
} as const;

export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** An API error answer as a CliError: the message with each named field, and the exit code of its status. */
export function apiError(status: number, body: unknown): CliError {
  const b = (body && typeof body === 'object' ? body : {}) as {
    error?: string;
    details?: Array<{ field: string; message: string }>;
  };
  const lines = [
    b.error ?? `HTTP ${status}`,
    ...(b.details ?? []).map((d) => `  ${d.field}: ${d.message}`),
  ];
  const code =
    status === 400 || status === 413
      ? EXIT.usage
      : status === 401 || status === 403
        ? EXIT.auth
        : status === 404
          ? EXIT.notFound
          : status === 429
            ? EXIT.busy
            : status === 409
              ? EXIT.failed
              : EXIT.unavailable;
  return new CliError(lines.join('\n'), code);
}
