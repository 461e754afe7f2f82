import { ID_TEXT } from '../core/ids';
import type { JsonSchema } from './catalog';

/**
 * A tool's input schema as a model reads it in an MCP tools/list (docs/mcp-output.md#definitions):
 * the same parameters, descriptions, types, options and limits in fewer tokens. The tool's own
 * validation stays the authority (shared/core/validate.ts): what this view leaves out is still
 * checked, and refused as INVALID_PARAMETER naming the parameter and the expected form. So it only
 * leaves out what guides no model:
 * - zod's safe-integer bounds on every integer and `propertyNames: {type: "string"}` (every JSON key is one);
 * - `additionalProperties: false` (an unknown parameter is refused by name) and `minLength: 1`;
 * - a `pattern` beside a `format` that names it (zod writes both for date-time, email, uuid);
 * - a `default` its description already names ("… (default 30)");
 * - an id's text forms (shared/core/ids.ts): an id reads `{"type": ["integer", "string"]}`, the
 *   description says what it is, and 123, "123" and "#123" are all taken;
 * - `type: "string"` beside an `enum` of strings;
 * and writes an `anyOf` of branches of different kinds (an id as 123 or "#123", a list or null) as
 * one schema with a list of types, which JSON Schema reads the same: each kind's keywords apply to
 * values of that kind only. The catalog's schema (REST, OpenAPI, the other providers) is unchanged.
 */
export function modelInputSchema(schema: JsonSchema): JsonSchema {
  return compact(schema) as JsonSchema;
}

const SAFE = Number.MAX_SAFE_INTEGER;
const ID_PATTERN = ID_TEXT.source;

/** The keywords that apply to values of one kind only (JSON Schema 2020-12, validation and applicator vocabularies). */
const KIND_KEYWORDS: Record<string, readonly string[]> = {
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  array: ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'],
  object: ['properties', 'required', 'additionalProperties', 'propertyNames', 'patternProperties', 'minProperties', 'maxProperties'],
  boolean: [],
  null: [],
};
const kindOf = (type: unknown) => (type === 'integer' ? 'number' : typeof type === 'string' && Object.hasOwn(KIND_KEYWORDS, type) ? type : undefined);

const isObject = (v: unknown): v is JsonSchema => v !== null && typeof v === 'object' && !Array.isArray(v);

function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (!isObject(node)) return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'properties' && isObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, compact(s)]));
    else if ((k === 'maximum' && v === SAFE) || (k === 'minimum' && v === -SAFE)) continue;
    else if (k === 'propertyNames' && isObject(v) && v.type === 'string' && Object.keys(v).length === 1) continue;
    else if ((k === 'additionalProperties' && v === false) || (k === 'minLength' && v === 1)) continue;
    else if (k === 'pattern' && node.format !== undefined) continue;
    else if (k === 'default' && saysDefault(node.description, v)) continue;
    else out[k] = compact(v);
  }
  if (out.type === 'string' && Array.isArray(out.enum) && out.enum.every((x) => typeof x === 'string')) delete out.type;
  const merged = Array.isArray(out.anyOf) ? mergedKinds(out) : out;
  return isId(merged) ? Object.fromEntries(Object.entries(merged).filter(([k]) => k !== 'exclusiveMinimum' && k !== 'pattern')) : merged;
}

/** The description already names the default value: "(default 30)", "default: true", 'default "all"' (not "default 300" for 30). */
function saysDefault(description: unknown, value: unknown): boolean {
  if (typeof description !== 'string' || (value !== null && typeof value === 'object')) return false;
  const v = String(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\\bdefault:? "?${v}"?(?![\\w.-])`, 'i').test(description);
}

/** An id as shared/core/ids.ts writes it, once merged: a positive integer or its text form. */
const isId = (s: JsonSchema) =>
  Array.isArray(s.type) && s.type.length === 2 && s.type.includes('integer') && s.type.includes('string') && s.pattern === ID_PATTERN && s.exclusiveMinimum === 0;

/**
 * `{anyOf: [{type: "integer", exclusiveMinimum: 0}, {type: "string", pattern: "…"}], description}`
 * → `{description, type: ["integer", "string"], exclusiveMinimum: 0, pattern: "…"}`, when every
 * branch is of its own kind and carries only that kind's keywords; anything else as it is.
 */
function mergedKinds(s: JsonSchema): JsonSchema {
  const branches = s.anyOf as unknown[];
  const kinds = new Set<string>();
  const merged: JsonSchema = {};
  for (const b of branches) {
    if (!isObject(b)) return s;
    const kind = kindOf(b.type);
    if (kind === undefined || kinds.has(kind)) return s;
    kinds.add(kind);
    for (const [k, v] of Object.entries(b)) {
      if (k === 'type') continue;
      if (!KIND_KEYWORDS[kind]!.includes(k)) return s;
      merged[k] = v;
    }
  }
  // A keyword of the union's own that a branch also has: they would clash in one schema.
  if (Object.keys(merged).some((k) => k in s)) return s;
  // In the union's place, so the description stays where it was.
  const types = branches.map((b) => (b as JsonSchema).type);
  return Object.fromEntries(Object.entries(s).flatMap(([k, v]) => (k === 'anyOf' ? [['type', types], ...Object.entries(merged)] : [[k, v]])));
}
