import { afterAll, beforeAll } from 'vitest';

/**
 * Starts a fixture before a file's (or a describe block's) tests and closes it after them, and
 * hands it back at once so module-level code can name it: the handle forwards to the started
 * fixture and throws when used before its beforeAll ran. vitest runs afterAll hooks
 * last-registered first, so fixtures close in the reverse order of the calls: call `useFixture`
 * for what a server points at before `useServer`, and register a check that must run after
 * everything closed before both.
 */
export function useFixture<T extends { close(): unknown }>(start: () => Promise<T>): T {
  let fixture: T | undefined;
  beforeAll(async () => {
    fixture = await start();
  });
  afterAll(async () => {
    await fixture?.close();
  });
  return forwarding(() => fixture);
}

function forwarding<T extends object>(current: () => T | undefined): T {
  const started = (key: string | symbol): T => {
    const target = current();
    if (!target)
      throw new Error(`a fixture was used before its beforeAll ran (reading ${String(key)})`);
    return target;
  };
  return new Proxy({} as T, {
    get(_, key) {
      // Awaiting or printing the handle before start-up must not throw.
      if (!current() && (key === 'then' || typeof key === 'symbol')) return undefined;
      const target = started(key);
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set: (_, key, value) => Reflect.set(started(key), key, value),
    has: (_, key) => Reflect.has(started(key), key),
  });
}
