import type { CatalogEntry, JsonSchema } from './catalog';
import { modelInputSchema } from './model-schema';
import { applyProfile, type Profile } from './profiles';
import { isObject } from '../core/is-object';

/**
 * The tool list in the shape each model provider's function-calling API takes, with the JSON
 * Schema rewritten to what that provider accepts. The input a model produces under a rewrite is
 * accepted by the tool as is: nulls for omitted optionals are dropped on the way in
 * (shared/core/nulls.ts), and nothing here narrows or widens what a tool validates.
 */
export const PROVIDERS = ['openai', 'anthropic', 'gemini', 'mcp'] as const;
export type Provider = (typeof PROVIDERS)[number];


/** "createRecordComment" → "Create record comment". */
export function toolTitle(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _, ...rest } = schema;
  return rest;
}

/** Maps every subschema (properties, items, anyOf…) bottom-up with `fn`. */
function mapSchema(schema: JsonSchema, fn: (s: JsonSchema) => JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (isObject(out.properties)) out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, isObject(v) ? mapSchema(v, fn) : v]));
  if (isObject(out.items)) out.items = mapSchema(out.items, fn);
  if (isObject(out.additionalProperties)) out.additionalProperties = mapSchema(out.additionalProperties, fn);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map((s) => (isObject(s) ? mapSchema(s, fn) : s));
  }
  return fn(out);
}

// ---------------------------------------------------------------------------------------------
// OpenAI (Chat Completions `tools`, strict mode: "Structured Outputs" supported-schema rules)

/** Keywords strict mode does not support (OpenAI, "Supported schemas"): dropped; the tool still checks them. */
const OPENAI_DROP = new Set([
  '$schema', 'default', 'minLength', 'maxLength', 'patternProperties', 'propertyNames', 'unevaluatedProperties', 'minProperties', 'maxProperties',
  'uniqueItems', 'contains', 'minContains', 'maxContains', 'if', 'then', 'else', 'not', 'examples', 'readOnly', 'writeOnly', 'contentEncoding', 'contentMediaType',
]);
/** The string formats strict mode supports; any other is dropped (the tool still checks it). */
const OPENAI_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** A schema that also takes null: how strict mode says "optional" (every property is required). */
function nullable(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.anyOf)) {
    return (schema.anyOf as JsonSchema[]).some((s) => s.type === 'null') ? schema : { ...schema, anyOf: [...(schema.anyOf as JsonSchema[]), { type: 'null' }] };
  }
  if (typeof schema.type === 'string') {
    if (schema.type === 'null') return schema;
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.type)) return schema.type.includes('null') ? schema : { ...schema, type: [...schema.type, 'null'] };
  // No type (a const, or anything): wrap it.
  return { anyOf: [schema, { type: 'null' }] };
}

export interface OpenAiTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema; strict: boolean };
}

/**
 * Strict mode: every object closed (`additionalProperties: false`) with every property in
 * `required`, optional ones nullable; oneOf becomes anyOf and allOf of one schema is inlined;
 * unsupported keywords dropped. A tool with a free-form object (a map of field values) cannot be
 * closed, and one whose optional parameter takes null (to clear it) cannot say "omitted" with a
 * null: both are served with `strict: false` (the keyword clean-up still applies).
 */
export function openaiTool(entry: CatalogEntry, name = entry.name): OpenAiTool {
  // Where null already means something (an optional "or null to clear it"), strict mode's null
  // for "omitted" would clear instead: such a tool is served non-strict, optionals left optional.
  const strict = !hasNullableOptional(entry.inputSchema) && !hasOpenObject(entry.inputSchema);
  const parameters = mapSchema(withoutDialect(entry.inputSchema), (s) => {
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(s)) {
      if (OPENAI_DROP.has(k)) continue;
      if (k === 'format' && !OPENAI_FORMATS.has(String(v))) continue;
      if (k === 'oneOf') out.anyOf = v;
      else out[k] = v;
    }
    if (Array.isArray(out.allOf) && out.allOf.length === 1 && isObject(out.allOf[0])) {
      const [only] = out.allOf as JsonSchema[];
      delete out.allOf;
      Object.assign(out, only);
    }
    if (out.type === 'object' || isObject(out.properties)) {
      const props = (isObject(out.properties) ? out.properties : {}) as Record<string, JsonSchema>;
      if (strict) {
        const required = new Set(Array.isArray(out.required) ? (out.required as string[]) : []);
        out.properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, required.has(k) ? v : nullable(v)]));
        out.required = Object.keys(props);
      }
      if (out.additionalProperties === undefined) out.additionalProperties = false;
    }
    return out;
  });
  return { type: 'function', function: { name, description: entry.description, parameters, strict } };
}

/** Whether any object of the schema has an optional property that takes null. */
function hasNullableOptional(schema: JsonSchema): boolean {
  let found = false;
  mapSchema(schema, (s) => {
    if (isObject(s.properties)) {
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      for (const [k, v] of Object.entries(s.properties)) if (!required.has(k) && isObject(v) && takesNull(v)) found = true;
    }
    return s;
  });
  return found;
}

/** Whether any object of the schema is free-form (a map): strict mode closes every object. */
function hasOpenObject(schema: JsonSchema): boolean {
  let found = false;
  mapSchema(schema, (s) => {
    if ((s.type === 'object' || isObject(s.properties)) && s.additionalProperties !== undefined && s.additionalProperties !== false) found = true;
    return s;
  });
  return found;
}

const takesNull = (s: JsonSchema): boolean =>
  s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null')) || (Array.isArray(s.anyOf) && (s.anyOf as JsonSchema[]).some((b) => isObject(b) && takesNull(b)));

// ---------------------------------------------------------------------------------------------
// OpenAI Responses API: namespaces and tool search
// (https://developers.openai.com/api/docs/guides/tools-tool-search,
// https://developers.openai.com/api/docs/guides/function-calling#defining-namespaces).
// A namespace groups functions; the model sees a namespace's name and description up front and a
// deferred function's parameters only once tool search loads it. One namespace per platform and
// group (the guide advises fewer than about ten functions in one), named <platform>_<group>.

export interface OpenAiResponsesFunction {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
  defer_loading?: true;
}

export interface OpenAiNamespace {
  type: 'namespace';
  name: string;
  description: string;
  tools: OpenAiResponsesFunction[];
}

/** The Responses API `tools`: namespaces, and `{type: "tool_search"}` first when any function is deferred. */
export function openaiResponsesTools(entries: readonly CatalogEntry[], opts: ProfileOptions = {}): ({ type: 'tool_search' } | OpenAiNamespace)[] {
  const { deferred } = applyProfile(entries, opts.profile ?? { kind: 'full' }, opts.mainGroups ?? {}, 0);
  const later = new Set(deferred);
  const spaces = new Map<string, OpenAiNamespace>();
  for (const e of entries) {
    const key = `${e.platform}_${e.group ?? 'tools'}`;
    let space = spaces.get(key);
    if (!space) {
      const vendor = opts.vendors?.[e.platform];
      space = { type: 'namespace', name: key, description: '', tools: [] };
      spaces.set(key, space);
      // What search matches a namespace by: the platform, its vendor, the group and its tools' names.
      space.description = `${vendor ? `${vendor} (${e.platform})` : e.platform}: ${e.group ?? 'tools'}.`;
    }
    const { function: f } = openaiTool(e);
    space.tools.push({ type: 'function', name: f.name, description: f.description, parameters: f.parameters, strict: f.strict, ...(later.has(e) ? { defer_loading: true as const } : {}) });
  }
  for (const space of spaces.values()) space.description += ` Tools: ${space.tools.map((t) => t.name).join(', ')}.`;
  return [...(later.size ? [{ type: 'tool_search' as const }] : []), ...spaces.values()];
}

// ---------------------------------------------------------------------------------------------
// Anthropic (Messages API `tools`): JSON Schema as is, under input_schema; input_examples from
// the tool's own examples (https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use,
// "Providing tool use examples"); with a deferring profile, defer_loading on the tools left to the
// tool search tool (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool).

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
  input_examples?: Record<string, unknown>[];
  defer_loading?: true;
}

/** Anthropic's server-side tool search over the deferred tools, by natural-language queries (BM25). */
export const ANTHROPIC_TOOL_SEARCH = { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' } as const;

export function anthropicTool(entry: CatalogEntry, name = entry.name): AnthropicTool {
  const examples = (entry.inputExamples ?? []).map((x) => ({ ...x }));
  return { name, description: entry.description, input_schema: withoutDialect(entry.inputSchema), ...(examples.length ? { input_examples: examples } : {}) };
}

/** The Messages API `tools`: the tool search tool first when any tool is deferred. */
export function anthropicTools(entries: readonly CatalogEntry[], opts: ProfileOptions = {}): (AnthropicTool | typeof ANTHROPIC_TOOL_SEARCH)[] {
  const { deferred } = applyProfile(entries, opts.profile ?? { kind: 'full' }, opts.mainGroups ?? {}, 1);
  const later = new Set(deferred);
  const tools = entries.map((e) => (later.has(e) ? { ...anthropicTool(e), defer_loading: true as const } : anthropicTool(e)));
  return later.size ? [ANTHROPIC_TOOL_SEARCH, ...tools] : tools;
}

/** How a provider listing loads: the profile, each platform's main group (core set) and vendor name. */
export interface ProfileOptions {
  profile?: Profile;
  mainGroups?: Readonly<Record<string, string | undefined>>;
  vendors?: Readonly<Record<string, string>>;
}

// ---------------------------------------------------------------------------------------------
// Gemini (`functionDeclarations`): the Schema object, a subset of OpenAPI 3.0.

/** The fields Gemini's Schema object has (ai.google.dev, "Schema"); anything else is dropped. */
const GEMINI_KEEP = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required', 'minProperties', 'maxProperties',
  'minLength', 'maxLength', 'pattern', 'anyOf', 'propertyOrdering', 'default', 'items', 'minimum', 'maximum',
]);
const GEMINI_TYPES: Record<string, string> = { string: 'STRING', number: 'NUMBER', integer: 'INTEGER', boolean: 'BOOLEAN', array: 'ARRAY', object: 'OBJECT', null: 'NULL' };
/** Formats Gemini documents: "enum" and "date-time" for STRING, int32/int64 for INTEGER, float/double for NUMBER. */
const GEMINI_FORMATS = new Set(['enum', 'date-time', 'int32', 'int64', 'float', 'double']);

export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/**
 * OpenAPI 3.0 style: `const` becomes a one-value enum, a type list or anyOf with null becomes
 * `nullable: true`, exclusive bounds become inclusive ones (an integer's next value), oneOf becomes
 * anyOf, enums only on strings; additionalProperties and the rest are dropped (the tool checks them).
 */
export function geminiTool(entry: CatalogEntry, name = entry.name): GeminiFunctionDeclaration {
  const parameters = mapSchema(withoutDialect(entry.inputSchema), (s) => {
    const src: JsonSchema = { ...s };
    if (src.oneOf) {
      src.anyOf = src.oneOf;
      delete src.oneOf;
    }
    if (src.const !== undefined) src.enum = [src.const];
    if (typeof src.exclusiveMinimum === 'number') src.minimum = src.type === 'integer' ? src.exclusiveMinimum + 1 : src.exclusiveMinimum;
    if (typeof src.exclusiveMaximum === 'number') src.maximum = src.type === 'integer' ? src.exclusiveMaximum - 1 : src.exclusiveMaximum;
    if (Array.isArray(src.type)) {
      const types = (src.type as string[]).filter((t) => t !== 'null');
      if (types.length < (src.type as string[]).length) src.nullable = true;
      if (types.length === 1) src.type = types[0];
      else {
        src.anyOf = types.map((t) => ({ type: GEMINI_TYPES[t] ?? t }));
        delete src.type;
      }
    }
    if (Array.isArray(src.anyOf)) {
      const options = src.anyOf as JsonSchema[];
      const rest = options.filter((o) => o.type !== 'null' && o.type !== 'NULL');
      if (rest.length < options.length) src.nullable = true;
      if (rest.length === 1) {
        delete src.anyOf;
        Object.assign(src, { ...rest[0], ...(src.description ? { description: src.description } : {}) });
      } else src.anyOf = rest;
    }
    if (src.enum !== undefined) {
      const values = (src.enum as unknown[]).filter((v) => v !== null);
      if (values.every((v) => typeof v === 'string')) {
        src.enum = values;
        src.type = 'string';
        src.format = 'enum';
      } else {
        // Gemini takes enums of strings only: a number or boolean choice stays in the description.
        delete src.enum;
        if (values.length) src.description = `${src.description ? `${src.description} ` : ''}One of ${values.map((v) => JSON.stringify(v)).join(', ')}.`;
      }
    }
    if (src.format !== undefined && !GEMINI_FORMATS.has(String(src.format))) delete src.format;
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(src)) if (GEMINI_KEEP.has(k)) out[k] = v;
    if (typeof out.type === 'string') out.type = GEMINI_TYPES[out.type] ?? out.type;
    // zod writes JavaScript's safe-integer range on every int: a bound no model needs to read.
    if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
    if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
    return out;
  });
  return { name, description: entry.description, parameters };
}

// ---------------------------------------------------------------------------------------------
// MCP (`tools/list` entries)

export interface McpToolView {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

/** An icon of a tool in tools/list (MCP 2025-11-25, SEP-973). */
export interface McpIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
}

/**
 * A dry run's answer (shared/core/dry-run.ts, `_meta.dry_run` on MCP) is the plan of writes, not the
 * tool's result: a write tool's MCP output schema takes it as the other branch, by its marker.
 */
const DRY_RUN_PLAN: JsonSchema = { type: 'object', properties: { dry_run: { const: true } }, required: ['dry_run'] };

/**
 * An output schema as MCP takes it: `type: "object"` at the root. A result that is not an object
 * (a list, a value) is served as structuredContent `{result: …}`: its schema is wrapped alike. A
 * write tool's may also be a dry run's plan.
 */
export function mcpOutputSchema(schema: JsonSchema, opts: { write?: boolean } = {}): JsonSchema & { type: 'object' } {
  const { $defs, ...rest } = schema;
  const result: JsonSchema = rest.type === 'object' ? rest : { type: 'object', properties: { result: rest }, required: ['result'] };
  const out: JsonSchema = opts.write ? { type: 'object', anyOf: [result, DRY_RUN_PLAN] } : result;
  return { ...out, ...($defs ? { $defs } : {}) } as JsonSchema & { type: 'object' };
}

/**
 * The structuredContent of a result under its tool's output schema: wrapped as `{result}` where
 * the schema is (or, without a schema, where the result is no object); a dry run's plan as is.
 */
export function structuredOf(schema: JsonSchema | undefined, data: unknown, opts: { plan?: boolean } = {}): Record<string, unknown> {
  const isObject = data !== null && typeof data === 'object' && !Array.isArray(data);
  if (opts.plan && isObject) return data as Record<string, unknown>;
  const wrapped = schema ? schema.type !== 'object' : !isObject;
  return wrapped ? { result: data } : (data as Record<string, unknown>);
}

export function mcpTool(entry: CatalogEntry, name = entry.name): McpToolView {
  const t = toolTitle(entry.name);
  return {
    name,
    title: t,
    description: entry.description,
    // What a model reads of the parameters, in fewer tokens (shared/catalog/model-schema.ts).
    inputSchema: modelInputSchema(withoutDialect(entry.inputSchema)) as McpToolView['inputSchema'],
    annotations: {
      title: t,
      readOnlyHint: entry.annotations.readOnly,
      destructiveHint: entry.annotations.destructive,
      idempotentHint: entry.annotations.idempotent,
      // Every tool talks to a SaaS platform outside this service.
      openWorldHint: true,
    },
  };
}

/**
 * A provider's tool list. With a deferring profile, Anthropic's carries defer_loading and its tool
 * search tool, OpenAI's is the Responses API's namespaces with tool_search; Gemini and MCP have no
 * deferral in their formats, so they list what the profile loads.
 */
/**
 * A tools/list entry: the MCP view with the platform's icons and, when `typed` (an endpoint's
 * `?format=json`, whose results carry the typed structuredContent), the tool's output schema.
 * Without it a result is the compact text alone, which every host hands its model as it is
 * (docs/mcp-output.md).
 */
export function mcpListedTool(
  entry: CatalogEntry,
  name = entry.name,
  icons?: readonly McpIcon[],
  opts: { typed?: boolean } = {},
): McpToolView & { outputSchema?: JsonSchema; icons?: McpIcon[] } {
  const outputSchema = opts.typed && entry.outputSchema ? mcpOutputSchema(entry.outputSchema, { write: !entry.annotations.readOnly }) : undefined;
  return {
    ...mcpTool(entry, name),
    ...(outputSchema ? { outputSchema } : {}),
    ...(icons?.length ? { icons: [...icons] } : {}),
  };
}

export interface McpListOptions extends ProfileOptions {
  /** The name a tool is listed by (the combined endpoint prefixes the platform). */
  nameOf?: (entry: CatalogEntry) => string;
  /** The listed view of a tool, when the caller keeps them built (mcpListedTool with nameOf and iconsOf otherwise). */
  viewOf?: (entry: CatalogEntry) => unknown;
  /** The endpoint's own search tool: listed first where the listing defers tools (or always, with `always`). */
  search?: { tool: unknown; always?: boolean };
  iconsOf?: (platform: string) => readonly McpIcon[] | undefined;
}

/**
 * A tools/list under a profile: the tools it loads (catalog order: stable across requests and
 * pages), each with its output schema and icons, and the search tool first where there is one to
 * list. A deferring profile always lists the search tool: it is how the rest is reached.
 */
export function mcpToolsList(entries: readonly CatalogEntry[], opts: McpListOptions = {}): unknown[] {
  const profile = opts.profile ?? { kind: 'full' };
  const deferring = profile.kind !== 'full';
  const searchable = opts.search !== undefined && (opts.search.always === true || deferring);
  let { loaded, deferred } = applyProfile(entries, profile, opts.mainGroups ?? {}, searchable ? 1 : 0);
  // A budget the endpoint's tools fit in whole needs no search tool (unless the endpoint always lists one).
  if (searchable && !opts.search!.always && profile.kind === 'max' && entries.length <= profile.maxTools) ({ loaded, deferred } = { loaded: [...entries], deferred: [] });
  const withSearch = searchable && (opts.search!.always === true || deferred.length > 0);
  const tools = loaded.map((e) => (opts.viewOf ? opts.viewOf(e) : mcpListedTool(e, opts.nameOf ? opts.nameOf(e) : e.name, opts.iconsOf?.(e.platform))));
  return withSearch ? [opts.search!.tool, ...tools] : tools;
}

export function providerTools(provider: Provider, entries: readonly CatalogEntry[], opts: ProfileOptions = {}): unknown[] {
  const deferring = opts.profile !== undefined && opts.profile.kind !== 'full';
  switch (provider) {
    case 'openai':
      return deferring ? openaiResponsesTools(entries, opts) : entries.map((e) => openaiTool(e));
    case 'anthropic':
      return anthropicTools(entries, opts);
    case 'gemini':
      return (deferring ? applyProfile(entries, opts.profile!, opts.mainGroups ?? {}, 0).loaded : entries).map((e) => geminiTool(e));
    case 'mcp':
      return (deferring ? applyProfile(entries, opts.profile!, opts.mainGroups ?? {}, 0).loaded : entries).map((e) => mcpListedTool(e));
  }
}
