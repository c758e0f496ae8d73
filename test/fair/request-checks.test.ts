import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { TEST_KEY, TEST_KEY_2, useServer } from '../helpers/server.ts';

/**
 * A request's path patterns and JSON Schema are compiled, before any work starts, on worker
 * threads every key shares. Those checks go by the key that sent the request: one key's burst of
 * costly ones does not hold another key's behind all of it. Each burst's requests differ (a
 * verdict is kept per pattern or schema text), and every request here is refused after its check
 * (a pattern too large to use; a schema with no LLM configured), so only the checks' order counts.
 */
const t = useServer();

/** A key's burst of `n` requests and, once they are queued, another key's one; the order they were answered in. */
async function answerOrder(
  n: number,
  path: string,
  heavy: (i: number) => unknown,
  light: unknown,
): Promise<string[]> {
  const done: string[] = [];
  const answered = (name: string) => (a: { status: number }) => {
    expect(a.status, name).toBe(400);
    done.push(name);
  };
  const burst = Array.from({ length: n }, (_, i) =>
    t.api('POST', path, heavy(i), TEST_KEY).then(answered(`A${i}`)),
  );
  await sleep(100);
  await Promise.all([...burst, t.api('POST', path, light, TEST_KEY_2).then(answered('B'))]);
  return done;
}

/** About 460 characters that RE2 takes some 200 ms to compile (and then refuses as too large). */
const heavyPattern = (i: number) => `${'[a-z]{0,999}'.repeat(38)}[0-9]${i}`;

/** A 10 kB schema of patterned properties, some 50 ms to compile; `tag` makes each one's text its own. */
function heavySchema(tag: number) {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 150; i++)
    properties[`p${tag}_${i}`] = { type: 'string', pattern: `^(a|b)+${i}$`, minLength: 1 };
  return { type: 'object', properties };
}

describe('checks at the request shared between keys', () => {
  it("compiles another key's path patterns in its turn while one key's burst fills the thread", async () => {
    const url = 'https://example.test/';
    const order = await answerOrder(
      10,
      '/api/v1/crawl',
      (i) => ({ url, includePaths: [heavyPattern(i)] }),
      { url, includePaths: ['('] },
    );
    // In arrival order B waited for all ten of A's (two seconds); in turn, for the one running.
    expect(order.indexOf('B'), order.join(' ')).toBeLessThan(4);
  }, 60_000);

  it("compiles another key's schema in its turn while one key's burst fills the schema workers", async () => {
    const order = await answerOrder(
      20,
      '/api/v1/extract',
      (i) => ({ urls: ['https://example.test/'], schema: heavySchema(i) }),
      { urls: ['https://example.test/'], schema: { type: 'object', properties: {} } },
    );
    expect(order.indexOf('B'), order.join(' ')).toBeLessThan(6);
  }, 60_000);
});
