import { brotliCompressSync, brotliDecompressSync, constants as zlib } from 'node:zlib';
import * as z from 'zod';
import { ToolError } from '../errors';
import type { Registry } from '../registry';
import { groupOf, type Annotations, type Platform } from '../tool';
import { PREBUILT, PREBUILT_LISTS } from './prebuilt';

/** A JSON Schema object (draft 2020-12, as zod writes it). */
export type JsonSchema = Record<string, unknown>;

/** One tool as every agent surface describes it: the registry's tool with its JSON Schema. */
export interface CatalogEntry {
  platform: string;
  name: string;
  description: string;
  annotations: Annotations;
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
 * The build's copy (shared/schemas/prebuilt.ts), unpacked on first use: lines of JSON, the first
 * the catalog entries by platform (parsed when first needed), then a key (mcpListKey) and the
 * JSON of that endpoint's default tools/list result, per endpoint. One Brotli stream for both:
 * the lists repeat the catalog's schemas, which Brotli's long window finds (collab's copy is 33 KB
 * where a gzipped catalog and a separate list took 65 KB, which took its bundle past 700 KB).
 * Where the bundle has room, the lists are in PREBUILT_LISTS as they are instead: unpacking costs
 * the first list several ms of CPU (zlib's first use, then the text).
 */
let unpacked: { catalog: string; entries?: Record<string, readonly CatalogEntry[]>; lists: Map<string, string> } | undefined;
function unpack(): typeof unpacked {
  const packed: string | undefined = PREBUILT;
  if (packed === undefined) return undefined;
  if (!unpacked) {
    const lines = brotliDecompressSync(Buffer.from(packed, 'base64')).toString('utf8').split('\n');
    const lists = new Map<string, string>();
    for (let i = 1; i + 1 < lines.length; i += 2) lists.set(JSON.parse(lines[i]!) as string, lines[i + 1]!);
    unpacked = { catalog: lines[0]!, lists };
  }
  return unpacked;
}

function prebuiltEntries(platform: string): readonly CatalogEntry[] | undefined {
  const copy = unpack();
  if (!copy) return undefined;
  copy.entries ??= JSON.parse(copy.catalog) as Record<string, readonly CatalogEntry[]>;
  return copy.entries[platform];
}

/** Every bundled platform's entries, as the build embeds them (infra/build.ts, packPrebuilt). */
export async function catalogByPlatform(registry: Registry): Promise<Record<string, readonly CatalogEntry[]>> {
  const out: Record<string, readonly CatalogEntry[]> = {};
  for (const p of registry.platforms.values()) out[p.name] = await buildEntries(registry, p);
  return out;
}

/**
 * Stands for the service's origin in the build's tools/list JSON (the icons' URLs): the answer of
 * a request puts its own origin in its place. A NUL no description or schema carries.
 */
export const ORIGIN_TOKEN = '\u0000origin\u0000';
const ORIGIN_IN_JSON = JSON.stringify(ORIGIN_TOKEN).slice(1, -1);

/** Which endpoint's default tools/list: a platform's name, or the combined endpoint's platforms in registry order. */
export function mcpListKey(registry: Registry, platform?: Platform): string {
  return platform ? platform.name : `*${[...registry.platforms.keys()].join(',')}`;
}

/** The last origin's copy of each list: a container serves one origin. */
const filled = new Map<string, { origin: string; json: string }>();
/** The JSON of an endpoint's default tools/list result with `origin` in place, when the build made it. */
export function prebuiltMcpList(key: string, origin: string): string | undefined {
  const raw: Record<string, string> | undefined = PREBUILT_LISTS;
  const json = raw && Object.hasOwn(raw, key) ? raw[key] : unpack()?.lists.get(key);
  if (json === undefined) return undefined;
  const last = filled.get(key);
  if (last?.origin === origin) return last.json;
  // split/join, not replace: "$&" and the like in a Host header must stay text.
  const out = json.split(ORIGIN_IN_JSON).join(JSON.stringify(origin).slice(1, -1));
  filled.set(key, { origin, json: out });
  return out;
}

/** The build's embedded copy (see unpack): the catalog entries and tools/list JSON texts by mcpListKey, Brotli-compressed, base64-encoded. */
export function packPrebuilt(entries: Record<string, readonly CatalogEntry[]>, lists: Record<string, string>): string {
  // JSON.stringify writes no raw line break: one per line is unambiguous.
  const text = [JSON.stringify(entries), ...Object.entries(lists).flatMap(([key, json]) => [JSON.stringify(key), json])].join('\n');
  return brotliCompressSync(text, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: text.length } }).toString('base64');
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
