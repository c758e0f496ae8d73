/**
 * The bounded reading of a caller's schema before any validator is built from it: what it refers
 * to, and how large it is once every `$ref` is followed. A schema is a program ajv compiles and
 * runs; a few kilobytes whose references branch at each level describe billions of subschemas,
 * so the expanded size, not the byte count, says how much work it can cause.
 */

/** Most subschemas a caller's schema may expand to with its `$ref`s followed. */
export const MAX_SCHEMA_EXPANDED = 10_000;

/** The meta-schemas a caller may name in `$schema`: the draft the validator implements. */
export const KNOWN_META_SCHEMAS: readonly string[] = [
  'http://json-schema.org/draft-07/schema#',
  'http://json-schema.org/draft-07/schema',
];

/** Keywords whose value is one subschema (or, for `items`, a list of them). */
const ONE = [
  'items',
  'additionalItems',
  'contains',
  'additionalProperties',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];
/**
 * Keywords whose subschemas apply to the same value rather than to a part of it: a reference that
 * loops back through these alone would validate the same value forever.
 */
const IN_PLACE = new Set([
  '$ref',
  'not',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
  'dependencies',
  'dependentSchemas',
]);
/** Keywords whose value is a list of subschemas. */
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keywords whose value maps names to subschemas. */
const MAP = [
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'dependencies',
  'dependentSchemas',
];
/**
 * Keywords that load or name schemas by URI, or make validation asynchronous: ajv would fetch,
 * resolve against another document, or hand back a promise. A caller's schema is one document;
 * `$id` is accepted at its root only, where it changes nothing (every reference is a pointer into
 * the root) and is dropped before compiling, since ajv keeps schemas by `$id`.
 */
const REFUSED = [
  '$async',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
];

/** Why a schema cannot be used, with the JSON pointer of the subschema at fault. */
export class SchemaRefusal extends Error {}

/** Where a subschema is, as the JSON pointer a `$ref` would use. */
function pointer(path: string[]): string {
  if (path.length === 0) return 'the root';
  return `#${path.map((p) => `/${p.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')}`;
}

/** The value a local reference (`#` or `#/json/pointer`) names in `root`, or undefined. */
function resolve(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  let node = root;
  for (const raw of ref.slice(2).split('/')) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return undefined;
    }
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * Checks `root` and returns how many subschemas it expands to, counting no further than past
 * MAX_SCHEMA_EXPANDED. Each subschema's size is worked out once and reused wherever it is referred
 * to, so the walk itself is linear in the schema however far it expands. A reference back into a
 * subschema being walked counts once when the way back goes into a property or an item (a
 * recursive type: the answer's depth bounds it), and is refused when it does not.
 * Throws SchemaRefusal naming the keyword and where it is.
 */
export function expandedSize(root: unknown): number {
  const sizes = new Map<object, number>();
  /** The subschemas being walked, each with how many steps into the value led to it. */
  const walking = new Map<object, number>();

  const size = (node: unknown, path: string[], descents: number): number => {
    if (typeof node === 'boolean') return 1;
    if (node === null || typeof node !== 'object' || Array.isArray(node))
      throw new SchemaRefusal(`${pointer(path)} is not a schema (an object or a boolean)`);
    const known = sizes.get(node);
    if (known !== undefined) return known;
    const entered = walking.get(node);
    if (entered === descents)
      throw new SchemaRefusal(
        `${pointer(path)} refers back to itself without going into a property or an item, so checking any value against it would never end`,
      );
    if (entered !== undefined) return 1;
    walking.set(node, descents);
    const schema = node as Record<string, unknown>;
    for (const keyword of REFUSED)
      if (Object.hasOwn(schema, keyword))
        throw new SchemaRefusal(
          `${pointer(path)} uses \`${keyword}\`, which is not accepted: a caller's schema is one self-contained, synchronous document`,
        );
    if (node !== root && Object.hasOwn(schema, '$id'))
      throw new SchemaRefusal(
        `${pointer(path)} uses \`$id\`, which is accepted at the schema's root only: a caller's schema is one document`,
      );
    if (Object.hasOwn(schema, '$schema') && !KNOWN_META_SCHEMAS.includes(String(schema.$schema)))
      throw new SchemaRefusal(
        `${pointer(path)} names \`$schema\` ${JSON.stringify(schema.$schema)}: only ${KNOWN_META_SCHEMAS[0]} is accepted, and no other meta-schema is ever loaded`,
      );
    let total = 1;
    const add = (child: unknown, at: string[], keyword: string) => {
      total += size(child, at, IN_PLACE.has(keyword) ? descents : descents + 1);
      if (total > MAX_SCHEMA_EXPANDED) throw new TooLarge();
    };
    if (Object.hasOwn(schema, '$ref')) {
      const ref = schema.$ref;
      if (typeof ref !== 'string' || !(ref === '#' || ref.startsWith('#/')))
        throw new SchemaRefusal(
          `${pointer(path)} has \`$ref\` ${JSON.stringify(ref)}: only references inside the schema (\`#\` or \`#/json/pointer\`) are accepted, and nothing is ever fetched`,
        );
      const target = resolve(root, ref);
      if (target === undefined)
        throw new SchemaRefusal(
          `${pointer(path)} has \`$ref\` ${JSON.stringify(ref)}, which names nothing in the schema`,
        );
      add(target, ref === '#' ? [] : ref.slice(2).split('/'), '$ref');
    }
    for (const keyword of ONE) {
      const child = schema[keyword];
      if (child === undefined) continue;
      if (!Array.isArray(child)) add(child, [...path, keyword], keyword);
      else for (const [i, c] of child.entries()) add(c, [...path, keyword, String(i)], keyword);
    }
    for (const keyword of LIST) {
      const list = schema[keyword];
      if (list === undefined) continue;
      if (!Array.isArray(list))
        throw new SchemaRefusal(`${pointer([...path, keyword])} must be a list of schemas`);
      for (const [i, c] of list.entries()) add(c, [...path, keyword, String(i)], keyword);
    }
    for (const keyword of MAP) {
      const map = schema[keyword];
      if (map === undefined) continue;
      if (map === null || typeof map !== 'object' || Array.isArray(map))
        throw new SchemaRefusal(`${pointer([...path, keyword])} must map names to schemas`);
      for (const [name, child] of Object.entries(map)) {
        // `dependencies` may list property names instead of giving a schema.
        if (keyword === 'dependencies' && Array.isArray(child)) continue;
        add(child, [...path, keyword, name], keyword);
      }
    }
    walking.delete(node);
    sizes.set(node, total);
    return total;
  };

  try {
    return size(root, [], 0);
  } catch (err) {
    if (!(err instanceof TooLarge)) throw err;
    throw new SchemaRefusal(
      `expands to more than ${MAX_SCHEMA_EXPANDED} subschemas once its \`$ref\`s are followed; reuse fewer definitions or branch less`,
    );
  }
}

/** Thrown through the walk as soon as the count passes the cap, so the walk stops there. */
class TooLarge extends Error {}
