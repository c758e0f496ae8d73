import { type Command, InvalidArgumentError } from 'commander';
import { connect, type Session } from './api.ts';

export interface Globals {
  url?: string;
  key?: string;
  json?: boolean;
}

export type Body = Record<string, unknown>;

export const int = (name: string) => (value: string) => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number`);
  return Number(value);
};
export const list = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
];
/** Regular expressions may hold commas, so each one is its own flag. */
export const repeated = (value: string, previous: string[] = []) => [...previous, value];
export const choice = (name: string, allowed: readonly string[]) => (value: string) => {
  if (!allowed.includes(value))
    throw new InvalidArgumentError(`${name} must be one of ${allowed.join(', ')}`);
  return value;
};

/** Cost goes to stderr, so stdout carries only what was asked for. */
export function note(body: Body): void {
  if (typeof body.cost === 'number') process.stderr.write(`cost: $${body.cost}\n`);
}

/** Runs a command against its session and always lets the session go (an embedded server stops). */
export function action<A extends unknown[]>(
  fn: (session: Session, globals: Globals, ...args: A) => Promise<void>,
) {
  return async (...args: unknown[]) => {
    const command = args.at(-1) as Command;
    const globals = command.optsWithGlobals<Globals>();
    const session = await connect({ url: globals.url, key: globals.key });
    try {
      await fn(session, globals, ...(args.slice(0, -1) as A));
    } finally {
      await session.close();
    }
  };
}
