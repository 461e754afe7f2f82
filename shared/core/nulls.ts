import * as z from 'zod';
import type { Registry } from './registry';
import { isObject } from './is-object';

/** Unwraps optional/default/prefault/catch/readonly wrappers down to the schema with the shape. */
function inner(schema: z.ZodType): z.ZodType {
  let s = schema as { _zod: { def: { innerType?: z.ZodType } } };
  while (s._zod.def.innerType) s = s._zod.def.innerType as unknown as typeof s;
  return s as unknown as z.ZodType;
}

/** Whether a parameter may be left out: then a null for it can only mean "not given". */
function omittable(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}


/**
 * Drops `null` where the tool's schema has an optional parameter that does not take null.
 *
 * Why: OpenAI's strict mode (and Gemini's "nullable") makes every parameter required, so a model
 * sends `"due_date": null` for "not given" (shared/catalog/providers.ts rewrites optionals that
 * way). One generic rule on the way in serves every provider: a null where the tool accepts
 * null (e.g. to clear a field) is kept; a null for a parameter that may be omitted but not null
 * is the omission it stands for; anything else is left to validation, which names it. Walks
 * nested objects and arrays of objects along the schema; returns a copy, never mutates params.
 */
export function omitNulls(schema: z.ZodType, params: unknown): unknown {
  const s = inner(schema);
  if (s instanceof z.ZodObject && isObject(params)) {
    const shape = s.shape as Record<string, z.ZodType>;
    const out: [string, unknown][] = [];
    for (const [key, value] of Object.entries(params)) {
      const prop = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (!prop) out.push([key, value]);
      else if (!(value === null && omittable(prop) && !prop.safeParse(null).success)) out.push([key, omitNulls(prop, value)]);
    }
    // fromEntries keeps a "__proto__" key an own key, for validation to refuse by name.
    return Object.fromEntries(out);
  }
  if (s instanceof z.ZodArray && Array.isArray(params)) return params.map((item) => omitNulls(s.element as z.ZodType, item));
  return params;
}

/**
 * omitNulls for a call by name, as the HTTP route receives it: params that are not a JSON object
 * (or a tool that does not exist) are passed on untouched, for execute to report.
 */
export async function omitNullsFor(registry: Registry, platform: string, tool: string, params: unknown): Promise<unknown> {
  if (!isObject(params) || !registry.platforms.has(platform)) return params;
  const found = await registry.find(platform, tool).catch(() => undefined);
  return found ? omitNulls(found.tool.input, params) : params;
}
