import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { ToolError } from '../core/errors';
import { log } from '../core/log';
import type { Registry } from '../core/registry';
import { groupOf, type Annotations, type Platform } from '../core/tool';
import { PREBUILT, type PrebuiltFiles } from './prebuilt';

/** A JSON Schema object (draft 2020-12, as zod writes it). */
export type JsonSchema = Record<string, unknown>;

/** One tool as every agent surface describes it: the registry's tool with its JSON Schema. */
export interface CatalogEntry {
  platform: string;
  name: string;
  description: string;
  annotations: Annotations;
  /** Whether a call may run as an MCP task (Tool.task). */
  task?: 'optional';
  /** The folder functions/<platform>/tools/<group>/, when the platform's group index tags it. */
  group?: string;
  /** The input JSON Schema, exactly as GET /v1/tools/{platform} serves it. */
  inputSchema: JsonSchema;
  /** The JSON Schema of the tool's `format=json` result (generated from its result type), when the platform declares them. */
  outputSchema?: JsonSchema;
  /** Inputs that show how the tool is called: its example's and one per other mode (Anthropic's input_examples). */
  inputExamples?: readonly Record<string, unknown>[];
}

/**
 * Every entry of a platform, built once per registry (= once per container): converting ~190 zod
 * schemas costs tens of ms, too much per request. The entries are shared: never mutate them.
 */
const built = new WeakMap<Registry, Map<string, Promise<readonly CatalogEntry[]>>>();

/**
 * One build-time document's bytes (shared/catalog/prebuilt.ts), read from its data file on first
 * use and kept; undefined from source, for a key the build made no file for, or where the file
 * cannot be read (then the caller builds the document as it would from source).
 */
const documents = new Map<string, Buffer | null>();
function prebuiltBytes(key: string): Buffer | undefined {
  const files: PrebuiltFiles | undefined = PREBUILT;
  if (!files) return undefined;
  let bytes = documents.get(key);
  if (bytes === undefined) {
    bytes = null;
    const file = Object.hasOwn(files.files, key) ? files.files[key] : undefined;
    if (file !== undefined) {
      try {
        bytes = readFileSync(join(files.dir, file));
      } catch (err) {
        log('warn', 'build-time document unreadable: built at runtime instead', { document: key, error: err instanceof Error ? err.message.slice(0, 200) : 'unknown' });
      }
    }
    documents.set(key, bytes);
  }
  return bytes ?? undefined;
}

/** A build-time document's JSON text (see prebuiltBytes). */
export function prebuiltDocument(key: string): string | undefined {
  return prebuiltBytes(key)?.toString('utf8');
}

/** The keys of the build-time documents (shared/catalog/prebuilt.ts): made by infra/build.ts, read by the routes. */
export const documentKeys = {
  catalog: 'catalog',
  /** An MCP endpoint's default tools/list result (mcpListKey). */
  mcpList: (listKey: string) => `mcp:${listKey}`,
  /** The OpenAPI document of these platforms, in this order. */
  openApi: (platforms: readonly { name: string }[]) => `openapi:${platforms.map((p) => p.name).join(',')}`,
  /** GET /v1/tools/{platform}, with ?schema= (and ?profile=deferred) and no filter. */
  /** What tool search learned from the example requests (shared/catalog/search-data.ts). */
  searchModel: 'search-model',
  toolList: (platform: string, provider?: string, profile?: string) => `tools:${[platform, provider, profile].filter((s) => s !== undefined).join('.')}`,
};

let prebuiltCatalog: Record<string, readonly CatalogEntry[]> | null | undefined;
function prebuiltEntries(platform: string): readonly CatalogEntry[] | undefined {
  if (prebuiltCatalog === undefined) {
    const text = prebuiltDocument(documentKeys.catalog);
    prebuiltCatalog = text === undefined ? null : (JSON.parse(text) as Record<string, readonly CatalogEntry[]>);
  }
  return prebuiltCatalog && Object.hasOwn(prebuiltCatalog, platform) ? prebuiltCatalog[platform] : undefined;
}

/** Every bundled platform's entries, as the build writes them (infra/build.ts). */
export async function catalogByPlatform(registry: Registry): Promise<Record<string, readonly CatalogEntry[]>> {
  const out: Record<string, readonly CatalogEntry[]> = {};
  for (const p of registry.platforms.values()) out[p.name] = await buildEntries(registry, p);
  return out;
}

/**
 * Stands for the service's origin in the build's JSON documents (the icons' URLs of a tools/list,
 * the servers of an OpenAPI document): the answer of a request puts its own origin in its place.
 * A NUL no description or schema carries.
 */
export const ORIGIN_TOKEN = '\u0000origin\u0000';
export const ORIGIN_IN_JSON = JSON.stringify(ORIGIN_TOKEN).slice(1, -1);

/** Which endpoint's default tools/list: a platform's name, or the combined endpoint's platforms in registry order. */
export function mcpListKey(registry: Registry, platform?: Platform): string {
  return platform ? platform.name : `*${[...registry.platforms.keys()].join(',')}`;
}

/** The last origin's copy of each document: a container serves one origin. */
const filled = new Map<string, { origin: string; bytes: Buffer }>();
const TOKEN_BYTES = Buffer.from(ORIGIN_IN_JSON);
/**
 * A build-time JSON document (prebuiltBytes) with `origin` in place of ORIGIN_TOKEN, as UTF-8
 * bytes, when the build made it: the default tools/list result of an MCP endpoint (icons), an
 * OpenAPI document (servers). Bytes, not text: the answer goes out as it was read, never decoded
 * to a string and encoded again (hundreds of KB on the combined endpoint's first list).
 */
export function prebuiltWithOrigin(key: string, origin: string): Buffer | undefined {
  const raw = prebuiltBytes(key);
  if (raw === undefined) return undefined;
  const last = filled.get(key);
  if (last?.origin === origin) return last.bytes;
  // The origin as JSON string content: quotes and backslashes of a Host header escaped.
  const value = Buffer.from(JSON.stringify(origin).slice(1, -1));
  const parts: Buffer[] = [];
  let at = 0;
  for (let i = raw.indexOf(TOKEN_BYTES); i !== -1; i = raw.indexOf(TOKEN_BYTES, at)) {
    parts.push(raw.subarray(at, i), value);
    at = i + TOKEN_BYTES.length;
  }
  parts.push(raw.subarray(at));
  const bytes = Buffer.concat(parts);
  filled.set(key, { origin, bytes });
  return bytes;
}

export function platformCatalog(registry: Registry, platform: Platform): Promise<readonly CatalogEntry[]> {
  let perPlatform = built.get(registry);
  if (!perPlatform) built.set(registry, (perPlatform = new Map()));
  let entries = perPlatform.get(platform.name);
  if (!entries) {
    const ready = prebuiltEntries(platform.name);
    entries = ready ? Promise.resolve(ready) : buildEntries(registry, platform);
    // A failed build (a tool module that throws) is not kept: the next request tries again.
    entries.catch(() => perPlatform.delete(platform.name));
    perPlatform.set(platform.name, entries);
  }
  return entries;
}

/** The entries as the registry's tools describe them: every tool module loaded, its input converted to JSON Schema. */
function buildEntries(registry: Registry, platform: Platform): Promise<readonly CatalogEntry[]> {
  return Promise.all([registry.list(platform), platform.outputSchemas?.()]).then(([tools, outputs]) =>
    tools.map((t) => {
      const group = groupOf(platform, t.name);
      const output = outputs && Object.hasOwn(outputs, t.name) ? outputs[t.name] : undefined;
      return {
        platform: platform.name,
        name: t.name,
        description: t.description,
        annotations: t.annotations,
        ...(t.task ? { task: t.task } : {}),
        ...(group ? { group } : {}),
        inputSchema: z.toJSONSchema(t.input, { io: 'input' }) as JsonSchema,
        ...(output ? { outputSchema: output } : {}),
        inputExamples: [t.example.input, ...(t.moreInputs ?? [])] as Record<string, unknown>[],
      };
    }),
  );
}

/** The entries of several platforms (all of the registry's when none is named), in registry order. */
export async function catalog(registry: Registry, platforms?: readonly Platform[]): Promise<CatalogEntry[]> {
  const chosen = platforms ?? [...registry.platforms.values()];
  return (await Promise.all(chosen.map((p) => platformCatalog(registry, p)))).flat();
}

/** `?toolsets=records,views&read_only=true`: which tools a host wants to see. */
export interface CatalogFilter {
  toolsets?: readonly string[];
  readOnly: boolean;
}

/**
 * Reads `toolsets` (comma-separated group names) and `read_only` (true|false) from a query;
 * anything else is INVALID_PARAMETER naming the query parameter.
 */
export function parseFilter(query: { toolsets?: string | undefined; read_only?: string | undefined }): CatalogFilter {
  const readOnly = query.read_only;
  if (readOnly !== undefined && readOnly !== 'true' && readOnly !== 'false') {
    throw new ToolError('INVALID_PARAMETER', `Query "read_only" must be "true" or "false"; got "${readOnly}".`, { parameter: 'read_only', expected: '"true" or "false"' });
  }
  const raw = query.toolsets;
  if (raw === undefined) return { readOnly: readOnly === 'true' };
  const toolsets = raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (toolsets.length === 0) {
    throw new ToolError('INVALID_PARAMETER', 'Query "toolsets" names no group; pass group names separated by commas, e.g. "records,views".', { parameter: 'toolsets', expected: 'comma-separated group names' });
  }
  return { toolsets, readOnly: readOnly === 'true' };
}

/**
 * Applies a filter. A toolset no listed tool belongs to is refused with the groups there are: a
 * typo must not silently serve an empty tool list.
 */
export function applyFilter(entries: readonly CatalogEntry[], filter: CatalogFilter): CatalogEntry[] {
  let out = [...entries];
  if (filter.toolsets) {
    const groups = [...new Set(entries.flatMap((e) => (e.group ? [e.group] : [])))];
    const unknown = filter.toolsets.filter((t) => !groups.includes(t));
    if (unknown.length > 0) {
      const known = groups.length ? `one of ${groups.join(', ')}` : 'none: these tools declare no groups';
      throw new ToolError('INVALID_PARAMETER', `Unknown toolset "${unknown[0]}" in query "toolsets"; toolsets here: ${known}.`, { parameter: 'toolsets', expected: known });
    }
    out = out.filter((e) => e.group !== undefined && filter.toolsets!.includes(e.group));
  }
  if (filter.readOnly) out = out.filter((e) => e.annotations.readOnly);
  return out;
}
