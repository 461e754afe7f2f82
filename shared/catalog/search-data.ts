import { createHash } from 'node:crypto';
import type { Registry } from '../core/registry';
import { log } from '../core/log';
import { documentKeys, prebuiltDocument, type CatalogEntry } from './catalog';
import { firstSentence } from './words';
import { buildSearchModel, searchModelDocument, searchModelFromDocument, TRAINING, type SearchModel, type SearchModelDocument } from './search-model';

/**
 * The example requests of every tool of a registry, by `platform/tool` (each platform's
 * Platform.search.examples: functions/<p>/search-examples.json); undefined when no platform has any.
 */
export async function registryExamples(registry: Registry): Promise<Map<string, readonly string[]> | undefined> {
  const out = new Map<string, readonly string[]>();
  for (const p of registry.platforms.values()) {
    const examples = await p.search?.examples?.();
    for (const [tool, list] of Object.entries(examples ?? {})) out.set(`${p.name}/${tool}`, list);
  }
  return out.size ? out : undefined;
}

/**
 * Where a model trained from source is kept between processes (tests and the local server train
 * it once per change of the examples, the tools or the training): SEARCH_MODEL_CACHE, else
 * node_modules/.cache/tool-search under the working directory.
 */
const cacheDir = async () => process.env.SEARCH_MODEL_CACHE ?? (await import('node:path')).join(process.cwd(), 'node_modules', '.cache', 'tool-search');

/**
 * The model search fuses (shared/catalog/search-model.ts), loaded on the first search: a bundle
 * reads its build-time document (infra/build.ts); from source it is trained from the platforms'
 * examples, kept in a file cache keyed by everything it is made of. Undefined where there are no
 * examples (a registry of test platforms): search then ranks by words alone.
 */
export async function loadSearchModel(registry: Registry, entries: readonly CatalogEntry[]): Promise<SearchModel | undefined> {
  const built = prebuiltDocument(documentKeys.searchModel);
  const doc = built !== undefined ? (JSON.parse(built) as SearchModelDocument) : await trainedModelDocument(registry, entries);
  return doc && searchModelFromDocument(doc);
}

/** The model of these tools trained from the registry's examples, through the file cache (see loadSearchModel): what infra/build.ts writes beside each bundle. */
export async function trainedModelDocument(registry: Registry, entries: readonly CatalogEntry[]): Promise<SearchModelDocument | undefined> {
  const examples = await registryExamples(registry);
  if (!examples) return undefined;
  // In name order: the same tools train the same model whatever order a registry lists them in.
  const tools = entries.map((e) => `${e.platform}/${e.name}`).sort();
  const summaries = toolSummaries(entries);
  const key = createHash('sha256').update(JSON.stringify([TRAINING, tools, tools.map((t) => [summaries.get(t), examples.get(t) ?? []])])).digest('hex').slice(0, 24);
  const { readFile, writeFile, mkdir, rename } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const dir = await cacheDir();
  const file = join(dir, `${key}.json`);
  try {
    return JSON.parse(await readFile(file, 'utf8')) as SearchModelDocument;
  } catch {
    // Not cached yet (or unreadable): trained below.
  }
  // Through its document, as a bundle reads it: the same (quantized) model from source and from a build.
  const doc = searchModelDocument(buildSearchModel(tools, examples, {}, summaries));
  try {
    await mkdir(dir, { recursive: true });
    // Written aside and renamed: a process reading meanwhile never sees half a file.
    const part = `${file}.${process.pid}.part`;
    await writeFile(part, JSON.stringify(doc));
    await rename(part, file);
  } catch (err) {
    log('warn', 'search model not cached', { error: err instanceof Error ? err.message.slice(0, 200) : 'unknown' });
  }
  return doc;
}

/**
 * Each tool's summary (its description's first sentence, other tools' names left out), by
 * `platform/tool`: the tool in its platform's own words (a Tape record, a Podio item), which the
 * example requests, written to avoid the tool's name words, say less often.
 */
export function toolSummaries(entries: readonly CatalogEntry[]): Map<string, string> {
  const names = new Set(entries.map((e) => e.name));
  return new Map(entries.map((e) => [`${e.platform}/${e.name}`, firstSentence(e.description).replace(/\b[a-z]+[A-Z][A-Za-z]*\b/g, (w) => (names.has(w) ? ' ' : w))]));
}
