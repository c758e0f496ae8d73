import pg from 'pg';

/** Statements counted, by their first words, and in all. */
export interface RoundTrips {
  total: number;
  byStatement: Map<string, number>;
}

/**
 * Counts the statements every node-postgres client in this process sends (the service's pool and
 * pg-boss's alike) until `stop`. node-postgres sends one statement at a time and waits for its
 * answer, so each statement is one round trip. Clients in `ignore` (a test's own watcher) are not counted.
 */
export function countPgRoundTrips(ignore: pg.Client[] = []): { stop(): RoundTrips } {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const counted: RoundTrips = { total: 0, byStatement: new Map() };
  proto.query = function (this: pg.Client, ...args: unknown[]) {
    if (!ignore.includes(this)) {
      const first = args[0];
      const text =
        typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '?');
      const key = text.replace(/\s+/g, ' ').trim().slice(0, 70);
      counted.total++;
      counted.byStatement.set(key, (counted.byStatement.get(key) ?? 0) + 1);
    }
    return original.apply(this, args);
  };
  return {
    stop() {
      proto.query = original;
      return counted;
    },
  };
}
