import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { OUTPUT_DIR } from '../../infra/output-schemas';
import type { Registry } from '../../shared/core/registry';
import type { JsonSchema } from '../../shared/catalog/catalog';

/** The committed shared/catalog/output/<platform>.json files: platform → tool → schema. */
export async function committedOutputSchemas(): Promise<Record<string, Record<string, JsonSchema>>> {
  const out: Record<string, Record<string, JsonSchema>> = {};
  for (const p of ['collab', 'crm', 'dbapp', 'filebox', 'realty']) {
    out[p] = (JSON.parse(await readFile(join(OUTPUT_DIR, `${p}.json`), 'utf8')) as { tools: Record<string, JsonSchema> }).tools;
  }
  return out;
}

/**
 * Every object of a schema closed (additionalProperties: false where it declares properties and
 * no map): an answer then fits only if its type declares every property it carries.
 */
export function closed(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema)) return schema.map((s) => (s && typeof s === 'object' ? closed(s as JsonSchema) : s)) as unknown as JsonSchema;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] = k !== 'const' && k !== 'enum' && v && typeof v === 'object' ? closed(v as JsonSchema) : v;
  }
  if (out.type === 'object' && out.additionalProperties === undefined && !out.anyOf) out.additionalProperties = false;
  return out;
}

/** A validator over the schemas: undefined when the value fits, else ajv's errors in words. */
export function outputValidator(schemas: Record<string, Record<string, JsonSchema>>, opts: { closed?: boolean } = {}) {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats.default(ajv);
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return (platform: string, tool: string, value: unknown): string | undefined => {
    const key = `${platform}/${tool}`;
    let v = compiled.get(key);
    if (!v) {
      const schema = schemas[platform]?.[tool];
      if (!schema) return `no output schema for ${key}`;
      try {
        v = ajv.compile(opts.closed ? closed(schema) : schema);
      } catch (err) {
        return `the schema of ${key} is not valid JSON Schema: ${(err as Error).message}`;
      }
      compiled.set(key, v);
    }
    return v(value) ? undefined : ajv.errorsText(v.errors, { dataVar: 'result' });
  };
}

/** Every read tool (readOnly annotation) of the registry, loaded. */
export async function readToolsOf(registry: Registry) {
  const out = [];
  for (const p of registry.platforms.values()) for (const tool of await registry.list(p)) if (tool.annotations.readOnly) out.push({ platform: p.name, tool });
  return out;
}
