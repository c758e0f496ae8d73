import type { Earlier, Env, Setting } from './kinds.ts';

/** Settings nested as the typed config is: a section is an object of settings or sections. */
export interface SettingTree {
  [key: string]: Setting<unknown> | SettingTree;
}

/** The typed values of a tree: each setting replaced by what it yields, sections kept. */
export type Values<T> = { [K in keyof T]: T[K] extends Setting<infer V> ? V : Values<T[K]> };

function isSetting(node: Setting<unknown> | SettingTree): node is Setting<unknown> {
  return typeof node.read === 'function';
}

/** Every setting of a tree, in the order it is declared. */
export function settingsOf(tree: SettingTree): Setting<unknown>[] {
  return Object.values(tree).flatMap((node) => (isSetting(node) ? [node] : settingsOf(node)));
}

/**
 * Reads every setting of `tree` from `env`, once each, in declaration order, so a default may
 * follow a setting declared before it. Throws the first ConfigError met.
 */
export function readSettings<T extends SettingTree>(tree: T, env: Env): Values<T> {
  const seen = new Map<string, unknown>();
  const earlier: Earlier = (variable) => {
    if (!seen.has(variable)) throw new Error(`${variable} is read before it is declared`);
    return seen.get(variable);
  };
  const walk = (node: SettingTree): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(node).map(([key, child]) => {
        if (!isSetting(child)) return [key, walk(child)];
        const value = child.read(env[child.variable], earlier);
        seen.set(child.variable, value);
        return [key, value];
      }),
    );
  return walk(tree) as Values<T>;
}
