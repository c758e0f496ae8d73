import { resolve } from 'node:path';

/** Raised at start-up when a variable holds a value the service cannot run with; names the variable. */
export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

/** Reads the value another setting already took, so a default can follow it (by variable name). */
export type Earlier = (variable: string) => unknown;

/** Where a setting is listed in docs/configuration.md. */
export const GROUPS = [
  'Server',
  'Network',
  'Limits',
  'Content and PDFs',
  'Cache',
  'Jobs, map, crawl and webhooks',
  'Search engines',
  'LLM, summaries and extraction',
  'Remote browser sessions',
  'Browsers',
  'Operations',
  'Client',
] as const;
export type Group = (typeof GROUPS)[number];

/** What a row of the settings table says about itself, for the docs and the loader alike. */
export interface About {
  group: Group;
  doc: string;
  /** Listed in the README's short table, beside the full one in docs/configuration.md. */
  essential?: boolean;
  /** The default as the docs show it, where the value is computed (cores, heap size, another setting). */
  shownDefault?: string;
}

/** One row of the settings table: a variable, how its text becomes a value, and what it means. */
export interface Setting<T> extends About {
  variable: string;
  /** `integer`, `boolean`, `URL`, `one of ...`: what the docs say the value must be. */
  kind: string;
  shownDefault: string;
  /** Turns the variable's text (undefined when unset) into the value, or throws ConfigError. */
  read(raw: string | undefined, earlier: Earlier): T;
}

/** The value a setting yields. */
export type ValueOf<S> = S extends Setting<infer T> ? T : never;

function given(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  return value === undefined || value === '' ? undefined : value;
}

type Fallback<T> = T | ((earlier: Earlier) => T);

function fallback<T>(value: Fallback<T>, earlier: Earlier): T {
  return typeof value === 'function' ? (value as (earlier: Earlier) => T)(earlier) : value;
}

function code(value: string | number | boolean): string {
  return `\`${value}\``;
}

/** A row of the table: what it says about itself, and how its kind shows the default and reads the text. */
function setting<T>(
  variable: string,
  o: About,
  kind: string,
  shownDefault: string,
  read: Setting<T>['read'],
): Setting<T> {
  return { ...o, variable, kind, shownDefault, read };
}

export function int(
  variable: string,
  o: About & { default: Fallback<number>; min: number; max: number },
): Setting<number> {
  const shownDefault = o.shownDefault ?? code(fallback(o.default, () => undefined));
  return setting(variable, o, `integer, ${o.min} to ${o.max}`, shownDefault, (raw, earlier) => {
    const text = given(raw);
    if (text === undefined) return fallback(o.default, earlier);
    if (!/^\d+$/.test(text))
      throw new ConfigError(`${variable} must be a whole number, got "${raw}"`);
    const value = Number(text);
    if (value < o.min || value > o.max)
      throw new ConfigError(`${variable} must be between ${o.min} and ${o.max}, got ${value}`);
    return value;
  });
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];

export function bool(variable: string, o: About & { default: boolean }): Setting<boolean> {
  return setting(variable, o, 'boolean', o.shownDefault ?? code(o.default), (raw) => {
    const text = given(raw)?.toLowerCase();
    if (text === undefined) return o.default;
    if (TRUE.includes(text)) return true;
    if (FALSE.includes(text)) return false;
    throw new ConfigError(`${variable} must be true or false, got "${raw}"`);
  });
}

/** A text default as the docs show it: in code, or (none) for one that is empty or computed as such. */
function shownText(o: About & { default: Fallback<string> }): string {
  const shown = fallback(o.default, () => undefined);
  return o.shownDefault ?? (shown ? code(shown) : '(none)');
}

/** Free text; `secret` ones (keys, tokens) default to empty and are never shown. */
export function text(variable: string, o: About & { default: Fallback<string> }): Setting<string> {
  return setting(
    variable,
    o,
    'text',
    shownText(o),
    (raw, earlier) => given(raw) ?? fallback(o.default, earlier),
  );
}

export function path(variable: string, o: About & { default: string }): Setting<string> {
  return setting(variable, o, 'path', o.shownDefault ?? code(o.default), (raw) =>
    resolve(given(raw) ?? o.default),
  );
}

/** An http(s) URL without trailing slashes; an empty default leaves it unset (''). */
export function url(variable: string, o: About & { default: Fallback<string> }): Setting<string> {
  return setting(variable, o, 'http(s) URL', shownText(o), (raw, earlier) => {
    const value = given(raw) ?? fallback(o.default, earlier);
    if (value === '') return '';
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new ConfigError(`${variable} must be a URL, got "${value}"`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new ConfigError(`${variable} must use http: or https:, got "${value}"`);
    return value.replace(/\/+$/, '');
  });
}

export function choice<const T extends string>(
  variable: string,
  o: About & { options: readonly T[]; default: NoInfer<T> },
): Setting<T> {
  return setting(
    variable,
    o,
    `one of ${o.options.map(code).join(', ')}`,
    o.shownDefault ?? code(o.default),
    (raw) => {
      const value = given(raw);
      if (value === undefined) return o.default;
      if (!(o.options as readonly string[]).includes(value))
        throw new ConfigError(`${variable} must be one of ${o.options.join(', ')}, got "${value}"`);
      return value as T;
    },
  );
}

function items(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A comma-separated list; `check` names what is wrong with one item. */
export function list(
  variable: string,
  o: About & { check?: (item: string) => string | undefined },
): Setting<string[]> {
  return setting(variable, o, 'comma-separated list', o.shownDefault ?? '(none)', (raw) => {
    const values = items(raw);
    for (const item of values) {
      const problem = o.check?.(item);
      if (problem) throw new ConfigError(`${variable} ${problem}`);
    }
    return values;
  });
}

/** A kind of its own: `parse` throws a plain Error whose message follows the variable's name. */
export function custom<T>(
  variable: string,
  o: About & { kind: string; shownDefault: string; parse: (raw: string) => T },
): Setting<T> {
  return {
    ...o,
    variable,
    read(raw) {
      try {
        return o.parse(raw?.trim() ?? '');
      } catch (err) {
        throw new ConfigError(`${variable}: ${(err as Error).message}`);
      }
    },
  };
}

/** `host=ip,host=ip` pairs, host names lower-cased. */
export function hostMap(raw: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of items(raw)) {
    const [host, ip] = pair.split('=').map((s) => s.trim());
    if (!host || !ip) throw new Error(`entries must look like host=ip, got "${pair}"`);
    map.set(host.toLowerCase(), ip);
  }
  return map;
}
