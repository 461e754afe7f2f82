import Ajv2020 from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalog, type CatalogEntry, type JsonSchema } from '../../shared/catalog/catalog';
import { omitNulls } from '../../shared/core/nulls';
import { anthropicTool, geminiTool, openaiTool } from '../../shared/catalog/providers';
import { parseInput } from '../../shared/core/validate';
import { harness } from '../helpers/harness';
import { platformCases } from '../helpers/platforms';

let h: Awaited<ReturnType<typeof harness>>;
let entries: CatalogEntry[];
beforeAll(async () => {
  h = await harness();
  entries = await catalog(h.rt.registry);
});

const isObj = (v: unknown): v is JsonSchema => v !== null && typeof v === 'object' && !Array.isArray(v);
/** Every subschema of a schema with its path. */
function* walk(s: JsonSchema, path = '$'): Generator<[string, JsonSchema]> {
  yield [path, s];
  if (isObj(s.properties)) for (const [k, v] of Object.entries(s.properties)) if (isObj(v)) yield* walk(v, `${path}.${k}`);
  if (isObj(s.items)) yield* walk(s.items, `${path}[]`);
  if (isObj(s.additionalProperties)) yield* walk(s.additionalProperties, `${path}{}`);
  for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(s[key])) for (const [i, v] of (s[key] as unknown[]).entries()) if (isObj(v)) yield* walk(v, `${path}.${key}[${i}]`);
}

/**
 * A model's answer under OpenAI strict mode: every property present, the ones the input leaves
 * out as null (strict mode makes them required-nullable), nested objects alike.
 */
function withNulls(schema: JsonSchema, value: unknown): unknown {
  if (isObj(value) && isObj(schema.properties)) {
    const out: Record<string, unknown> = {};
    for (const [k, sub] of Object.entries(schema.properties as Record<string, JsonSchema>)) out[k] = k in value ? withNulls(sub, value[k]) : null;
    for (const [k, v] of Object.entries(value)) if (!(k in out)) out[k] = v;
    return out;
  }
  if (Array.isArray(value) && isObj(schema.items)) return value.map((v) => withNulls(schema.items as JsonSchema, v));
  // Through nullable wrappers (anyOf [X, null]): the non-null branch that is an object.
  if (Array.isArray(schema.anyOf) && isObj(value)) {
    const branch = (schema.anyOf as JsonSchema[]).find((b) => isObj(b.properties));
    if (branch) return withNulls(branch, value);
  }
  return value;
}

describe('OpenAI (strict function calling)', () => {
  /** OpenAI "Structured Outputs → Supported schemas": what strict mode takes. */
  const UNSUPPORTED = ['default', 'minLength', 'maxLength', 'patternProperties', 'propertyNames', 'unevaluatedProperties', 'minProperties', 'maxProperties', 'uniqueItems', 'contains', 'if', 'then', 'else', 'not', 'oneOf', 'allOf', '$schema'];
  const FORMATS = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'];

  it('follows strict mode\'s rules: closed objects, every property required, no unsupported keyword', () => {
    let strict = 0;
    for (const e of entries) {
      const t = openaiTool(e);
      expect(t.type).toBe('function');
      expect(t.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(t.function.parameters.type).toBe('object');
      for (const [path, s] of walk(t.function.parameters)) {
        for (const k of UNSUPPORTED) expect(k in s, `${e.platform}/${e.name} ${path}: ${k}`).toBe(false);
        if (typeof s.format === 'string') expect(FORMATS, `${e.platform}/${e.name} ${path}`).toContain(s.format);
        if (isObj(s.properties) && t.function.strict) {
          expect(s.required, `${e.platform}/${e.name} ${path}`).toEqual(Object.keys(s.properties));
          expect(s.additionalProperties, `${e.platform}/${e.name} ${path}`).toBe(false);
        }
      }
      if (t.function.strict) strict += 1;
    }
    // Only tools with free-form maps (field values keyed by name) or "null clears it" optionals cannot be strict.
    expect(strict / entries.length).toBeGreaterThan(0.5);
  });

  it('makes optional parameters nullable and keeps required ones as they are', () => {
    const e = entries.find((x) => x.platform === 'dbapp' && x.name === 'createWorkspace')!;
    const p = openaiTool(e).function.parameters as { properties: Record<string, JsonSchema> };
    expect(p.properties.name!.type).toBe('string');
    expect(p.properties.description!.type).toEqual(['string', 'null']);
  });

  it('serves a tool whose optional takes null (to clear it) non-strict, leaving that optional optional', () => {
    const t = openaiTool(entries.find((x) => x.platform === 'dbapp' && x.name === 'updateAutomation')!);
    expect(t.function.strict).toBe(false);
    expect(t.function.parameters.required).toEqual(['automation_id']);
  });

  it('round trip: every example, as a model would send it (strict: nulls for what it omits), passes the rewritten schema and means the same to the tool', async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    let checked = 0;
    for (const e of entries) {
      const { tool } = (await h.rt.registry.find(e.platform, e.name))!;
      const { parameters: schema, strict } = openaiTool(e).function;
      const sent = strict ? withNulls(schema, tool.example.input) : tool.example.input;
      expect(ajv.validate(schema, sent), `${e.platform}/${e.name}: ${JSON.stringify(ajv.errors)}`).toBe(true);
      expect(parseInput(tool.input, omitNulls(tool.input, sent)), `${e.platform}/${e.name}`).toEqual(parseInput(tool.input, tool.example.input));
      checked += 1;
    }
    expect(checked).toBe(entries.length);
  });

  it('round trip over HTTP: a call with nulls for omitted optionals runs as if they were left out', async () => {
    const sent = { name: 'Strict model', type: 'open', description: null };
    const res = await h.call('dbapp/createWorkspace', sent, { query: 'format=json' });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    // A null where the tool takes no null and the parameter is required is still refused, naming it.
    const bad = await h.call('dbapp/createWorkspace', { name: null, type: 'open' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('name');
  });
});

describe('Anthropic (Messages API tools)', () => {
  it('takes the JSON Schema as input_schema, an object, with a valid name', () => {
    for (const e of entries) {
      const t = anthropicTool(e);
      expect(Object.keys(t).sort()).toEqual(['description', 'input_examples', 'input_schema', 'name']);
      expect(t.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(t.input_schema.type).toBe('object');
      expect('$schema' in t.input_schema).toBe(false);
    }
  });
});

describe('Gemini (functionDeclarations)', () => {
  /** The fields of Gemini's Schema object (an OpenAPI 3.0 subset). */
  const ALLOWED = new Set(['type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required', 'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'anyOf', 'propertyOrdering', 'default', 'items', 'minimum', 'maximum']);
  const TYPES = ['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT'];

  it('uses only fields of its Schema object, its type names, string enums and no null type', () => {
    for (const e of entries) {
      const t = geminiTool(e);
      expect(t.parameters.type).toBe('OBJECT');
      for (const [path, s] of walk(t.parameters)) {
        const where = `${e.platform}/${e.name} ${path}`;
        for (const k of Object.keys(s)) expect(ALLOWED.has(k), `${where}: ${k}`).toBe(true);
        if ('type' in s) expect(TYPES, where).toContain(s.type);
        if (Array.isArray(s.enum)) {
          expect(s.type, where).toBe('STRING');
          expect(s.enum.every((v) => typeof v === 'string'), where).toBe(true);
        }
        if (Array.isArray(s.anyOf)) expect((s.anyOf as JsonSchema[]).some((b) => b.type === 'NULL'), where).toBe(false);
      }
    }
  });

  it('says "nullable" where the tool takes null, and keeps optional parameters optional', () => {
    const withNullable = entries.map((e) => geminiTool(e)).filter((t) => [...walk(t.parameters)].some(([, s]) => s.nullable === true));
    expect(withNullable.length).toBeGreaterThan(0);
    const e = entries.find((x) => x.platform === 'dbapp' && x.name === 'createWorkspace')!;
    expect(geminiTool(e).parameters.required).toEqual(e.inputSchema.required);
  });
});

describe('GET /v1/tools/{platform}?schema=', () => {
  it.each(['openai', 'anthropic', 'gemini', 'mcp'])('serves every platform\'s tools in the %s shape', async (schema) => {
    for (const c of platformCases) {
      const res = await h.app.request(`/v1/tools/${c.name}?schema=${schema}`, { headers: { authorization: `Bearer ${c.keys.owner}` } });
      expect(res.status).toBe(200);
      const data = ((await res.json()) as { data: { schema: string; tools: Record<string, any>[] } }).data;
      expect(data.schema).toBe(schema);
      expect(data.tools.length).toBe(entries.filter((e) => e.platform === c.name).length);
      const first = data.tools[0]!;
      if (schema === 'openai') expect(first).toMatchObject({ type: 'function', function: { name: expect.any(String), parameters: { type: 'object' } } });
      if (schema === 'anthropic') expect(first).toMatchObject({ name: expect.any(String), input_schema: { type: 'object' } });
      if (schema === 'gemini') expect(first).toMatchObject({ name: expect.any(String), parameters: { type: 'OBJECT' } });
      if (schema === 'mcp') expect(first).toMatchObject({ name: expect.any(String), inputSchema: { type: 'object' }, annotations: { readOnlyHint: expect.any(Boolean) } });
    }
  });

  it('refuses an unknown provider naming the parameter, and needs the key first', async () => {
    const res = await h.app.request('/v1/tools/dbapp?schema=llama', { headers: { authorization: `Bearer ${platformCases[0]!.keys.owner}` } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'INVALID_PARAMETER', details: { parameter: 'schema' } } });
    expect((await h.app.request('/v1/tools/dbapp?schema=openai')).status).toBe(401);
  });
});
