import { build, type Metafile, type Plugin } from 'esbuild';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { toolsListResult, type McpScope } from '../shared/mcp/server';
import { createRegistry, type Registry } from '../shared/core/registry';
import { toolListDocument } from '../shared/catalog/list-tools';
import { openApiDocument } from '../shared/catalog/openapi';
import { catalog, catalogByPlatform, documentKeys, mcpListKey, ORIGIN_IN_JSON, ORIGIN_TOKEN } from '../shared/catalog/catalog';
import { PROVIDERS } from '../shared/catalog/providers';
import type { Platform } from '../shared/core/tool';

export interface BundleInfo {
  name: string;
  file: string;
  /** handler.js: the JavaScript a cold start loads. */
  bytes: number;
  gzipBytes: number;
  /** The build-time documents beside it (dist/<name>/prebuilt/): read only when first asked for. */
  dataBytes: number;
}

const root = new URL('..', import.meta.url).pathname;

/** Packages loaded only by the document converters (shared/files/convert.ts, analysis.ts). */
export const CONVERTER_MODULES = ['officeparser', 'tesseract.js', '@tesseract.js-data/eng', 'image-size', 'franc-min'];

/** A platform module's platform: functions/<name>/index.ts exports it under its name. */
async function platformModule(name: string): Promise<Platform<any>> {
  const mod = (await import(pathToFileURL(join(root, 'functions', name, 'index.ts')).href)) as Record<string, Platform<any> | undefined>;
  const platform = mod[name];
  if (!platform || platform.name !== name) throw new Error(`functions/${name}/index.ts exports no platform "${name}"`);
  return platform;
}

/**
 * The platforms a function's bundle serves, in its registry's order: a platform function's own
 * (functions/<name>/index.ts), or those its handler hands to appHandler (the combined mcp
 * function, functions/mcp/handler.ts); none for identity.
 */
export async function bundledPlatforms(name: string): Promise<Platform<any>[]> {
  if (existsSync(join(root, 'functions', name, 'index.ts'))) return [await platformModule(name)];
  const source = await readFile(join(root, 'functions', name, 'handler.ts'), 'utf8');
  const listed = /appHandler\(\s*'[^']*'\s*,\s*\[([^\]]*)\]/.exec(source);
  if (!listed) return [];
  return Promise.all(listed[1]!.split(',').map((s) => s.trim()).filter(Boolean).map(platformModule));
}

/** The folder of a bundle's build-time documents, beside handler.js (in the function's package: serverless.yml takes dist/<name>/**). */
export const PREBUILT_DIR = 'prebuilt';

/**
 * The build-time documents of a function's bundle by key (shared/catalog/catalog.ts,
 * documentKeys), made now by the code the container runs: the tool catalog of its platforms (so
 * the first list reads it instead of loading every tool module and converting each zod schema);
 * the JSON of its MCP endpoint's default tools/list result (its own platform's, or the combined
 * endpoint's), which a lone tools/list is answered with as is; its OpenAPI document; and, on a
 * platform's function, GET /v1/tools/{platform} plain and in each provider's shape (full and
 * deferred) as requested without filters. None for identity.
 */
export async function prebuiltDocuments(name: string): Promise<Record<string, string>> {
  const platforms = await bundledPlatforms(name);
  if (platforms.length === 0) return {};
  const registry = createRegistry(platforms);
  const own = platforms.length === 1 && platforms[0]!.name === name ? platforms[0] : undefined;
  const docs: Record<string, string> = {
    [documentKeys.catalog]: JSON.stringify(await catalogByPlatform(registry)),
    ...(await prebuiltMcpLists(registry, own)),
    [documentKeys.openApi(platforms)]: withOriginToken(`OpenAPI document of ${name}`, openApiDocument(await catalog(registry, platforms), platforms, ORIGIN_TOKEN), 1),
  };
  if (own) {
    const entries = await catalog(registry, [own]);
    docs[documentKeys.toolList(own.name)] = JSON.stringify(toolListDocument(own, entries));
    for (const provider of PROVIDERS) {
      for (const profile of [undefined, { kind: 'deferred' } as const]) {
        docs[documentKeys.toolList(own.name, provider, profile?.kind)] = JSON.stringify(toolListDocument(own, entries, provider, profile));
      }
    }
  }
  return docs;
}

/** The JSON of a document built with ORIGIN_TOKEN as its origin, checked to carry it exactly `times` times (each place a request's origin goes). */
function withOriginToken(what: string, doc: unknown, times: number): string {
  const json = JSON.stringify(doc);
  const found = json.split(ORIGIN_IN_JSON).length - 1;
  if (found !== times) throw new Error(`${what}: the origin token is found ${found} times, expected ${times}`);
  return json;
}

/** A document key as a file name: letters, digits, dots, commas and dashes. */
const fileOf = (key: string) => `${key.replace('*', 'all-').replace(/:/g, '.').replace(/[^A-Za-z0-9.,-]/g, '_')}.json`;

/**
 * Writes a function's documents to dist/<name>/prebuilt/ and returns the plugin that puts the
 * module naming them (folder and file per key) in place of shared/catalog/prebuilt.ts; undefined
 * (and no folder) where there are none.
 */
async function writePrebuilt(name: string, dir: string): Promise<{ plugin: Plugin; bytes: number } | undefined> {
  const docs = await prebuiltDocuments(name);
  const folder = join(dir, PREBUILT_DIR);
  await rm(folder, { recursive: true, force: true });
  if (Object.keys(docs).length === 0) return undefined;
  await mkdir(folder, { recursive: true });
  const files: Record<string, string> = {};
  let bytes = 0;
  for (const [key, json] of Object.entries(docs)) {
    const file = fileOf(key);
    if (Object.values(files).includes(file)) throw new Error(`build-time documents of ${name}: two keys map to the file ${file}`);
    files[key] = file;
    await writeFile(join(folder, file), json);
    bytes += Buffer.byteLength(json);
  }
  // __dirname: the bundle's own folder, wherever the runtime unpacked the package (CommonJS).
  const contents = `export const PREBUILT = { dir: require('node:path').join(__dirname, ${JSON.stringify(PREBUILT_DIR)}), files: ${JSON.stringify(files)} };`;
  return {
    bytes,
    plugin: {
      name: 'prebuilt',
      setup(b) {
        b.onLoad({ filter: /[\\/]shared[\\/]catalog[\\/]prebuilt\.ts$/ }, () => ({ contents, loader: 'ts' }));
      },
    },
  };
}

/**
 * A function's bundle may be this large (README, Performance); its data files are not JS and are
 * counted apart. Every function's app carries the identity routes, and with the pages and the
 * console (about 22 KB minified) the largest platform bundle, collab's, is just over 700,000.
 */
export const MAX_BUNDLE_BYTES = 720_000;

/**
 * The default tools/list result (every tool, no filter, profile or page size) of one endpoint as
 * JSON by document key: the platform's (/v1/mcp/{platform}) or, without one, the combined /v1/mcp.
 * The icons' origin is the token a request's origin replaces: each tool carries it once.
 */
export async function prebuiltMcpLists(registry: Registry, platform?: Platform<any>): Promise<Record<string, string>> {
  const scope: McpScope = { ...(platform ? { platform } : {}), filter: { readOnly: false }, structured: false, origin: ORIGIN_TOKEN };
  const result = toolsListResult(registry, scope, await catalog(registry, platform ? [platform] : undefined));
  const key = mcpListKey(registry, platform);
  return { [documentKeys.mcpList(key)]: withOriginToken(`tools/list of ${key}`, result, result.tools.filter((t) => t.icons !== undefined).length) };
}

/** Platforms = folders of functions/ that have a handler.ts. */
export async function functionNames(): Promise<string[]> {
  const dirs = await readdir(join(root, 'functions'), { withFileTypes: true });
  const names: string[] = [];
  for (const d of dirs) {
    if (!d.isDirectory()) continue;
    if (await stat(join(root, 'functions', d.name, 'handler.ts')).catch(() => undefined)) names.push(d.name);
  }
  return names.sort();
}

/**
 * One minified CommonJS file per function: dist/<name>/handler.js, its build-time documents in
 * dist/<name>/prebuilt/ (writePrebuilt). The AWS SDK stays external:
 * the nodejs22.x runtime provides it, and CommonJS `require` finds it there.
 */
export async function buildAll(outDir = join(root, 'dist')): Promise<BundleInfo[]> {
  const infos: BundleInfo[] = [];
  for (const name of await functionNames()) {
    const dir = join(outDir, name);
    await mkdir(dir, { recursive: true });
    const file = join(dir, 'handler.js');
    const made = await writePrebuilt(name, dir);
    const result = await build({
      metafile: true,
      entryPoints: [join(root, 'functions', name, 'handler.ts')],
      outfile: file,
      bundle: true,
      minify: true,
      platform: 'node',
      target: 'node22',
      format: 'cjs',
      // The document converters of fileToMarkdown/analyzeFile (tens of MB with pdf.js and the OCR
      // model) stay outside the bundle too: they ship beside it in dist/<name>/node_modules
      // (buildConverterModules) of each function that loads them, where `require` finds them.
      external: ['@aws-sdk/*', ...CONVERTER_MODULES],
      // Lazy `import('@aws-sdk/…')` must become `require`: a native import() resolves as ESM,
      // which ignores NODE_PATH, so it would not find the runtime's SDK from /var/task.
      supported: { 'dynamic-import': false },
      legalComments: 'none',
      logLevel: 'warning',
      plugins: made ? [made.plugin] : [],
    });
    // The repo is "type": "module"; this marks the bundle as CommonJS wherever it is loaded.
    await writeFile(join(dir, 'package.json'), '{"type":"commonjs"}\n');
    const code = await readFile(file);
    infos.push({ name, file, bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length, dataBytes: made?.bytes ?? 0 });
    if (usesConverters(result.metafile)) await buildConverterModules(name, outDir);
    else await rm(join(dir, 'node_modules'), { recursive: true, force: true });
  }
  return infos;
}

/** Parts of those packages the converters never load: the full-size OCR model (the smaller best_int one is used), pdf.js's viewer and types. */
const LAYER_SKIP = new Set(['@tesseract.js-data/eng/4.0.0', 'pdfjs-dist/web', 'pdfjs-dist/types', 'pdfjs-dist/image_decoders']);

/** Whether a bundle imports any of the converter packages (kept external, so listed among its imports). */
export function usesConverters(meta: Metafile): boolean {
  return Object.values(meta.outputs).some((o) => o.imports.some((i) => i.external && CONVERTER_MODULES.some((m) => i.path === m || i.path.startsWith(`${m}/`))));
}

/**
 * A function's converters: CONVERTER_MODULES and every package they depend on, copied
 * from node_modules to dist/<name>/node_modules, beside the bundle (the function's zip takes them;
 * a Lambda layer would make `osls package` call AWS). Optional dependencies (pdf.js's canvas for
 * rendering) are left out: the converters only read text.
 */
export async function buildConverterModules(name: string, outDir = join(root, 'dist')): Promise<{ dir: string; bytes: number; packages: number }> {
  const modules = join(root, 'node_modules');
  const dir = join(outDir, name, 'node_modules');
  await rm(dir, { recursive: true, force: true });
  const seen = new Set<string>();
  /** Where Node finds `name` from the package at `from` (its own node_modules, then upward). */
  const locate = async (name: string, from: string): Promise<string | undefined> => {
    for (let at = from; at.startsWith(modules); at = dirname(at)) {
      const candidate = join(at, 'node_modules', name);
      if (await stat(join(candidate, 'package.json')).catch(() => undefined)) return candidate;
      if (at === modules) break;
    }
    const top = join(modules, name);
    return (await stat(join(top, 'package.json')).catch(() => undefined)) ? top : undefined;
  };
  const visit = async (pkgDir: string): Promise<void> => {
    if (seen.has(pkgDir)) return;
    seen.add(pkgDir);
    const pkg = JSON.parse(await readFile(join(pkgDir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dep of Object.keys(pkg.dependencies ?? {})) {
      const found = await locate(dep, pkgDir);
      if (!found) throw new Error(`converters layer: ${dep} (needed by ${relative(modules, pkgDir)}) is not installed`);
      await visit(found);
    }
  };
  for (const m of CONVERTER_MODULES) await visit(join(modules, m));
  let bytes = 0;
  for (const pkgDir of seen) {
    const target = join(dir, relative(modules, pkgDir));
    // Nested node_modules are packages of their own, copied when the walk reached them.
    await cp(pkgDir, target, { recursive: true, filter: (src) => !relative(pkgDir, src).split(sep).some((part) => part === 'node_modules' || LAYER_SKIP.has(`${relative(modules, pkgDir)}/${part}`)) });
  }
  const du = async (p: string): Promise<number> => {
    const s = await stat(p);
    if (!s.isDirectory()) return s.size;
    let n = 0;
    for (const e of await readdir(p)) n += await du(join(p, e));
    return n;
  };
  bytes = await du(dir);
  return { dir, bytes, packages: seen.size };
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  const infos = await buildAll();
  for (const i of infos) console.log(`${i.name.padEnd(10)} ${String(i.bytes).padStart(9)} B JS  ${String(i.gzipBytes).padStart(8)} B gzip  ${String(i.dataBytes).padStart(9)} B data  ${i.file.replace(root, '')}`);
}
