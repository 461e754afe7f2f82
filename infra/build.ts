import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { cacheFiles } from '../shared/store/code-cache';
import { BUNDLE_FILE } from '../shared/lambda/bundle-loader';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { localPlatforms } from './local/platforms';
import { mcpListEvent, toolEvent } from './lambda-events';
import { toolsListResult, type McpScope } from '../shared/mcp/server';
import { createRegistry, type Registry } from '../shared/core/registry';
import { toolListDocument } from '../shared/catalog/list-tools';
import { openApiDocument } from '../shared/catalog/openapi';
import { catalog, catalogByPlatform, documentKeys, mcpListKey, ORIGIN_IN_JSON, ORIGIN_TOKEN } from '../shared/catalog/catalog';
import { PROVIDERS } from '../shared/catalog/providers';
import { trainedModelDocument } from '../shared/catalog/search-data';
import type { Platform } from '../shared/core/tool';
import { platforms as registered } from '../functions/platforms';

export interface BundleInfo {
  name: string;
  /** The handler's file: handler.js (CommonJS), or handler.mjs of the combined function's split build (SPLIT_BUILD). */
  file: string;
  /** Every JS file of the function's own code: the handler, and the split build's chunks. */
  files: string[];
  /** The JS files a cold start loads: handler.js, or handler.mjs with the chunks it and its app import (coldStartFiles). */
  coldFiles: string[];
  /** Their bytes: what MAX_BUNDLE_BYTES bounds. */
  bytes: number;
  /** All of the function's JS (the same as `bytes` unless split: then every chunk, each platform's tools among them). */
  totalBytes: number;
  gzipBytes: number;
  /** Everything the function's package holds (dist/<name>/, unzipped): the bundle, its data files, the store client. */
  packageBytes: number;
  /** Whether it loads the document converters (then it takes the converters layer). */
  converts: boolean;
  /** STORE_CLIENT_FILE beside it: the DynamoDB store and its client, loaded when the store is DynamoDB (as deployed). */
  storeClientBytes: number;
  /** The build-time documents beside it (dist/<name>/prebuilt/): read only when first asked for. */
  dataBytes: number;
}

const root = new URL('..', import.meta.url).pathname;
const exec = promisify(execFile);

/** Packages loaded only by the document converters (shared/files/convert.ts, analysis.ts). */
export const CONVERTER_MODULES = ['officeparser', 'tesseract.js', '@tesseract.js-data/eng', 'image-size', 'franc-min'];

/** A platform module's platform: functions/<name>/index.ts exports it under its name. */
async function platformModule(name: string): Promise<Platform<any>> {
  const mod = (await import(pathToFileURL(join(root, 'functions', name, 'index.ts')).href)) as Record<string, Platform<any> | undefined>;
  const platform = mod[name];
  if (!platform || platform.name !== name) throw new Error(`functions/${name}/index.ts exports no platform "${name}"`);
  return platform;
}

/** The combined function (functions/mcp/handler.ts): it serves every platform of the registry. */
export const COMBINED_FUNCTION = 'mcp';

/**
 * The platforms a function's bundle serves, in its registry's order: a platform function's own
 * (functions/<name>/index.ts), every registered one (functions/platforms.ts) for the combined
 * function; none for identity, which only reads their descriptors.
 */
export async function bundledPlatforms(name: string): Promise<Platform<any>[]> {
  if (existsSync(join(root, 'functions', name, 'index.ts'))) return [await platformModule(name)];
  return name === COMBINED_FUNCTION ? [...registered] : [];
}

/**
 * In a bundle that serves none of a platform's tools (the identity function reads every
 * descriptor), what the descriptor loads on first use — its tool modules, events adapter and
 * output schemas — is left out: each such import becomes a module that throws, naming it.
 */
function unservedLazyModules(served: readonly Platform<any>[]): Plugin {
  const functions = join(root, 'functions');
  const own = new Set(served.map((p) => p.name));
  return {
    name: 'unserved-lazy-modules',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const from = relative(functions, args.importer).split(sep);
        if (from.length < 2 || from[0] === '..' || own.has(from[0]!)) return undefined;
        return { path: `${from[0]}: ${args.path}`, namespace: 'unserved' };
      });
      b.onLoad({ filter: /.*/, namespace: 'unserved' }, (args) => ({ contents: `throw new Error(${JSON.stringify(`not in this function's bundle: ${args.path}`)});`, loader: 'js' }));
    },
  };
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
  const model = await searchModelJson();
  if (model !== undefined) docs[documentKeys.searchModel] = model;
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

let searchModel: Promise<string | undefined> | undefined;
/**
 * What tool search learned from every platform's example requests (shared/catalog/search-data.ts),
 * trained once per build (seconds; a deterministic seed) and written beside every bundle that
 * serves tools: one model of all tools, each bundle's search ranking its own among them.
 */
export function searchModelJson(): Promise<string | undefined> {
  return (searchModel ??= (async () => {
    const names = (await functionNames()).filter((n) => existsSync(join(root, 'functions', n, 'index.ts')));
    const registry = createRegistry(await Promise.all(names.map(platformModule)));
    const doc = await trainedModelDocument(registry, await catalog(registry));
    const json = doc && JSON.stringify(doc);
    if (json !== undefined && json.length > MAX_SEARCH_MODEL_BYTES) throw new Error(`the search model is ${json.length} bytes, over ${MAX_SEARCH_MODEL_BYTES}`);
    return json;
  })());
}

/** The search model's size limit: it is read whole on a bundle's first search. */
export const MAX_SEARCH_MODEL_BYTES = 5_000_000;

/**
 * The example requests (functions/<p>/search-examples.json) are what the model is trained from at
 * build time: a bundle carries the model (its build-time document), so they are left out of it.
 */
const withoutSearchExamples: Plugin = {
  name: 'search-examples',
  setup(b) {
    b.onLoad({ filter: /[\\/]functions[\\/][^\\/]+[\\/]search-examples\.json$/ }, () => ({ contents: '{}', loader: 'json' }));
  },
};

/**
 * The output schemas (shared/catalog/output/<p>.json) are read only to build the catalog's entries
 * (shared/catalog/catalog.ts buildEntries), which a bundle reads from its build-time catalog
 * instead, written above with every schema in it: so where that catalog is written the bundle
 * leaves them out (collab's alone is 64 KB of JSON). Without a build-time catalog they stay.
 */
const withoutOutputSchemas: Plugin = {
  name: 'output-schemas',
  setup(b) {
    b.onLoad({ filter: /[\\/]shared[\\/]catalog[\\/]output[\\/][^\\/]+\.json$/ }, () => ({ contents: '{"tools":{}}', loader: 'json' }));
  },
};

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
 * The JS a function's cold start loads may be this large: a platform's handler.js, the combined
 * function's handler.mjs with the chunks it loads at init (coldStartFiles); its data files are not
 * JS and are counted apart. The goal (README, Performance): collab's one file, the largest, is
 * about 653 KB without the output schemas its build-time catalog carries (withoutOutputSchemas).
 * Built as the combined function is (SPLIT_BUILD), every platform's cold start loads 340–360 KB,
 * but takes more CPU to its first answer, so the platforms stay one file each.
 */
export const MAX_BUNDLE_BYTES = 700_000;

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

/** How a Lambda's JavaScript is built: one minified CommonJS file for Node 22 (every function's bundle; the bench's store floor). */
export const LAMBDA_BUILD = {
  bundle: true,
  minify: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  // The document converters of fileToMarkdown/analyzeFile (tens of MB with pdf.js and the OCR
  // model) stay outside the bundle too: they ship once, as the Lambda layer every function that
  // loads them shares (buildConverterLayer), where `require` finds them.
  external: ['@aws-sdk/*', ...CONVERTER_MODULES],
  // Lazy `import('@aws-sdk/…')` must become `require`: a native import() resolves as ESM,
  // which ignores NODE_PATH, so it would not find the runtime's SDK from /var/task.
  supported: { 'dynamic-import': false },
  legalComments: 'none',
  logLevel: 'warning',
} satisfies BuildOptions;

/**
 * The combined function's build (it carries every platform: one file would be some 1.2 MB parsed at
 * every cold start): ES modules with esbuild's code splitting, so each module a dynamic import loads
 * — every tool of every platform (their manifests import them lazily), the app, the MCP server —
 * is a chunk of its own (with the chunks they share), loaded when first needed. tools/list reads
 * the build's catalog and list documents (dist/<name>/prebuilt/), not the tools. Lambda's Node 22
 * runtime loads an `.mjs` handler as an ES module; the banner gives the modules the `require`,
 * `__filename` and `__dirname` CommonJS code expects (the store client beside it, the data files,
 * and externals resolved as CommonJS resolves them: NODE_PATH, where the runtime's SDK and the
 * converters layer are).
 */
export const SPLIT_BUILD = {
  ...(({ supported: _native, ...rest }) => rest)(LAMBDA_BUILD),
  format: 'esm',
  splitting: true,
  // Metafile paths relative to the repository (coldStartFiles), wherever the build runs from.
  absWorkingDir: root,
  // Beside the handler: a chunk's __dirname is the handler's folder, where the data files and the store client are.
  chunkNames: '[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  banner: {
    js: "import{createRequire as __tesRequire}from'node:module';import{dirname as __tesDirname}from'node:path';import{fileURLToPath as __tesPath}from'node:url';const require=__tesRequire(import.meta.url),__filename=__tesPath(import.meta.url),__dirname=__tesDirname(__filename);",
  },
} satisfies BuildOptions;

/**
 * SPLIT_BUILD's banner is on every chunk, and each one that runs it makes a `require` (a module
 * record, a path resolution): on the 23 chunks of a cold start that was about 5 ms of CPU. A chunk
 * whose code names none of what it defines does not need it: the banner is taken off that chunk.
 * The names are looked for as text, anywhere (a string included): where in doubt it stays.
 */
async function dropUnusedBanner(file: string): Promise<void> {
  const banner = SPLIT_BUILD.banner.js;
  const text = await readFile(file, 'utf8');
  if (!text.startsWith(banner)) throw new Error(`split build: ${file} does not start with the banner`);
  const code = text.slice(banner.length);
  if (!/require|__filename|__dirname/.test(code)) await writeFile(file, code);
}

/**
 * In an ES module build, a lazy `import('@aws-sdk/…')` (or a converter's) stays a native import(),
 * which resolves as ESM and ignores NODE_PATH: it becomes a chunk that `require`s the package, as
 * the CommonJS build's does (LAMBDA_BUILD, dynamic-import unsupported), and exports what the
 * package exports by name (read from node_modules now) as well as the whole as `default` — an
 * import() of a CommonJS module would give only `default`, and the callers take names
 * (`const { S3Client } = await import(…)`).
 */
export const externalRequire: Plugin = {
  name: 'external-require',
  setup(b) {
    const externals = LAMBDA_BUILD.external.map((e) => e.replace(/\*$/, ''));
    const fromRoot = createRequire(join(root, 'package.json'));
    b.onResolve({ filter: /^[@a-z]/ }, (args) => {
      if (!externals.some((e) => (e.endsWith('/') ? args.path.startsWith(e) : args.path === e || args.path.startsWith(`${e}/`)))) return undefined;
      return args.kind === 'dynamic-import' ? { path: args.path, namespace: 'external-require' } : { path: args.path, external: true };
    });
    b.onLoad({ filter: /.*/, namespace: 'external-require' }, (args) => {
      const names = Object.keys(fromRoot(args.path) as object).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && !RESERVED.has(n));
      const spec = JSON.stringify(args.path);
      return { contents: `const m = require(${spec});\nexport default m;\n${names.length ? `export const { ${names.join(', ')} } = m;\n` : ''}`, loader: 'js' };
    });
  },
};

/** Names a package may export that cannot be bound as such. */
const RESERVED = new Set(['default', 'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'delete', 'do', 'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'let', 'new', 'null', 'return', 'static', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield', 'implements', 'interface', 'package', 'private', 'protected', 'public', 'arguments', 'eval']);

/**
 * The files of a split build a cold start loads: the handler and every chunk it imports
 * statically, and the same of the app's chunk (shared/http/tool-app.ts), which a function serving
 * no single platform builds at init (shared/lambda/handler.ts).
 */
export function coldStartFiles(meta: Metafile, handler: string): string[] {
  const outputs = meta.outputs;
  const key = (f: string) => relative(root, f);
  const seen = new Set<string>();
  const visit = (out: string) => {
    if (seen.has(out) || !outputs[out]) return;
    seen.add(out);
    for (const i of outputs[out]!.imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(key(handler));
  const app = Object.keys(outputs).find((o) => outputs[o]!.entryPoint === 'shared/http/tool-app.ts');
  if (!app) throw new Error('split build: no chunk of shared/http/tool-app.ts');
  visit(app);
  return [...seen].map((o) => join(root, o));
}

async function sumBytes(files: readonly string[]): Promise<number> {
  let n = 0;
  for (const f of files) n += (await stat(f)).size;
  return n;
}

/**
 * The DynamoDB store with its client (shared/store/dynamo.ts), built apart from handler.js into
 * this file beside it, where `require` finds it when the store is first made. The SDK is bundled
 * into it from its ES modules, so only what the store uses is kept: DynamoDBClient and the
 * commands it sends, not the rest of the client (its index is one CommonJS file of every command,
 * waiter and paginator); and the default credential chain is replaced by the environment's
 * credentials (shared/store/env-credentials.ts), which is all Lambda uses. Apart from handler.js
 * because it replaces the SDK the runtime would otherwise load from outside the bundle.
 */
export const STORE_CLIENT_FILE = 'store-dynamodb.js';

/**
 * handler.js's `import('./dynamo')` of shared/store/index.ts becomes a load of STORE_CLIENT_FILE
 * beside it, through its build-time code cache (shared/store/code-cache.ts; a cache of another
 * Node version or architecture is left aside).
 */
export const storeApart: Plugin = {
  name: 'store-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/dynamo$/ }, (args) => (/[\\/]shared[\\/]store[\\/]index\.ts$/.test(args.importer) ? { path: STORE_CLIENT_FILE, namespace: 'store-apart' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'store-apart' }, () => ({
      resolveDir: join(root, 'shared', 'store'),
      loader: 'ts',
      contents: [
        "import { requireWithCache } from './code-cache';",
        "import { log } from '../core/log';",
        `const loaded = requireWithCache(require('node:path').join(__dirname, ${JSON.stringify(STORE_CLIENT_FILE)}));`,
        "if (loaded.use === 'rejected') log('warn', 'the code cache of the store client was rejected: it is compiled without it', {});",
        "export const createDynamoStore = loaded.exports.createDynamoStore as typeof import('./dynamo').createDynamoStore;",
      ].join('\n'),
    }));
  },
};

/**
 * Makes the V8 code cache of a CommonJS `file` beside it (shared/store/code-cache.ts): a fresh Node
 * compiles the file, loads it and runs `path` — JS run with the file's exports as `mod`, the
 * path a cold start takes — so the cache also holds the functions that path compiles; then writes
 * V8's cache and the Node version and architecture that made it. Only a runtime of that same
 * version and architecture uses it.
 */
async function makeCodeCache(helper: string, file: string, path: string, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const script = `
const { compileWithCache, runModule, cacheFiles } = require(process.env.CODE_CACHE);
const { writeFileSync } = require('node:fs');
const file = process.env.CACHE_FILE;
const { script } = compileWithCache(file, true);
const mod = runModule(script, file);
(async () => { ${path} })().then(() => {
  const out = cacheFiles(file);
  writeFileSync(out.data, script.createCachedData());
  writeFileSync(out.meta, JSON.stringify({ node: process.version, arch: process.arch }) + '\\n');
  process.exit(0);
}, (err) => { process.stderr.write(String(err && err.stack || err) + '\\n'); process.exit(1); });
`;
  await exec(process.execPath, ['-e', script], { env: { PATH: process.env.PATH ?? '', ...env, CODE_CACHE: helper, CACHE_FILE: file }, timeout: 60_000 });
}

/** shared/store/code-cache.ts built as CommonJS into `file`: what makeCodeCache's fresh Node loads. */
async function buildCodeCacheHelper(file: string): Promise<void> {
  await build({ ...LAMBDA_BUILD, entryPoints: [join(root, 'shared', 'store', 'code-cache.ts')], outfile: file, logLevel: 'error' });
}

/**
 * STORE_CLIENT_FILE's code cache: the store made and run once through what a cold start does —
 * warm-up read, a rate-limit count — against a stand-in for DynamoDB on loopback.
 */
const STORE_CLIENT_PATH = `
const server = require('node:http').createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.setHeader('content-type', 'application/x-amz-json-1.0');
    res.end(String(req.headers['x-amz-target']).endsWith('.UpdateItem') ? '{"Attributes":{"n":{"N":"1"}}}' : '{}');
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const store = mod.createDynamoStore({ table: 'code-cache', region: 'us-east-1', endpoint: 'http://127.0.0.1:' + server.address().port });
await store.warm();
await store.increment('code-cache', 60, 10);
server.close();
`;

/**
 * A bundle's code cache (BUNDLE_FILE): its handler answers what a new container first answers —
 * its platform's probe, the read-only call of infra/local/platforms.ts, against the platform's
 * twin on loopback with the twin's sandbox key passed through, then an MCP tools/list — on the
 * memory store (the DynamoDB store is in STORE_CLIENT_FILE, with its own cache). A function of no
 * platform (identity) caches what loading it compiles.
 */
async function makeBundleCache(helper: string, name: string, dir: string): Promise<void> {
  const local = localPlatforms.find((p) => p.platform.name === name);
  const file = join(dir, BUNDLE_FILE);
  if (!local) return makeCodeCache(helper, file, '', { STORE: 'memory' });
  const server = serve({ fetch: local.twin().app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const events = [toolEvent(name, local.probe.tool, local.probe.params, local.keys.owner), mcpListEvent(name, local.keys.owner)];
  const path = `
const context = { functionName: 'code-cache', awsRequestId: 'code-cache', getRemainingTimeInMillis: () => 29000 };
for (const event of ${JSON.stringify(events)}) {
  const res = await mod.handler(event, context);
  if (res.statusCode !== 200) throw new Error('code-cache run: ' + event.rawPath + ' answered ' + res.statusCode + ': ' + res.body);
}
`;
  try {
    await makeCodeCache(helper, file, path, { STORE: 'memory', LOG_LEVEL: 'error', [`${name.toUpperCase()}_BASE_URL`]: `http://127.0.0.1:${port}` });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** STORE_CLIENT_FILE's code, as storeApart's require loads it. */
async function buildStoreClient(): Promise<string> {
  const result = await build({
    ...LAMBDA_BUILD,
    entryPoints: [join(root, 'shared', 'store', 'dynamo.ts')],
    write: false,
    outfile: STORE_CLIENT_FILE,
    external: [],
    // The SDK's ES modules, which esbuild can trim to what is used (its CommonJS index cannot be).
    mainFields: ['module', 'main'],
    plugins: [
      {
        name: 'environment-credentials',
        setup(b) {
          b.onResolve({ filter: /^@aws-sdk\/credential-provider-node$/ }, () => ({ path: join(root, 'shared', 'store', 'env-credentials.ts') }));
        },
      },
    ],
  });
  return result.outputFiles[0]!.text;
}

/**
 * Per function, in dist/<name>/: one minified CommonJS handler.js, or the combined function's split
 * build (handler.mjs and its chunks, SPLIT_BUILD); its build-time documents in prebuilt/
 * (writePrebuilt); the store client and its code cache. The AWS SDK stays external: the nodejs22.x
 * runtime provides it, and `require` finds it there.
 */
export async function buildAll(outDir = join(root, 'dist')): Promise<BundleInfo[]> {
  const infos: BundleInfo[] = [];
  let anyConverts = false;
  const storeClient = await buildStoreClient();
  // The client's code cache, made once (the file is the same in every function).
  const clientDir = join(outDir, '.store-client');
  await mkdir(clientDir, { recursive: true });
  await writeFile(join(clientDir, 'package.json'), '{"type":"commonjs"}\n');
  await writeFile(join(clientDir, STORE_CLIENT_FILE), storeClient);
  // What makes every code cache of this build (the client's and each bundle's), built once.
  const helper = join(clientDir, 'code-cache.cjs');
  await buildCodeCacheHelper(helper);
  await makeCodeCache(helper, join(clientDir, STORE_CLIENT_FILE), STORE_CLIENT_PATH, { AWS_ACCESS_KEY_ID: 'build', AWS_SECRET_ACCESS_KEY: 'build' });
  const storeCache = cacheFiles(join(clientDir, STORE_CLIENT_FILE));
  for (const name of await functionNames()) {
    const dir = join(outDir, name);
    await mkdir(dir, { recursive: true });
    // What an earlier build left (a handler of the other format, old chunks).
    for (const f of await readdir(dir)) if ((/\.(m?js)$/.test(f) || f.startsWith(`${BUNDLE_FILE}.cache`)) && f !== STORE_CLIENT_FILE) await rm(join(dir, f));
    const made = await writePrebuilt(name, dir);
    const plugins = [storeApart, ...(made ? [made.plugin, withoutOutputSchemas] : []), unservedLazyModules(await bundledPlatforms(name)), withoutSearchExamples];
    // Split (SPLIT_BUILD) only where it makes a cold start lighter: the combined function. A
    // platform's function split the same way loads half the JS at a cold start but takes 3–20 ms
    // more CPU to its first answer (a module per chunk to load and link: README, Performance).
    const split = name === COMBINED_FUNCTION;
    const file = join(dir, split ? 'handler.mjs' : 'handler.js');
    // A CommonJS function is its bundle (BUNDLE_FILE) and handler.js, which loads the bundle
    // through the bundle's code cache (shared/lambda/cached-handler.ts, made below).
    const bundle = join(dir, BUNDLE_FILE);
    const result = split
      ? await build({ ...SPLIT_BUILD, metafile: true, entryPoints: { handler: join(root, 'functions', name, 'handler.ts') }, outdir: dir, plugins: [...plugins, externalRequire] })
      : await build({ ...LAMBDA_BUILD, metafile: true, entryPoints: [join(root, 'functions', name, 'handler.ts')], outfile: bundle, plugins });
    if (!split) await build({ ...LAMBDA_BUILD, entryPoints: [join(root, 'shared', 'lambda', 'cached-handler.ts')], outfile: file });
    const all = split ? Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.mjs')).map((f) => join(root, f)) : [file, bundle];
    if (split) await Promise.all(all.map(dropUnusedBanner));
    await writeFile(join(dir, STORE_CLIENT_FILE), storeClient);
    const cache = cacheFiles(join(dir, STORE_CLIENT_FILE));
    await cp(storeCache.data, cache.data);
    await cp(storeCache.meta, cache.meta);
    // The repo is "type": "module"; this marks the bundle as CommonJS wherever it is loaded.
    await writeFile(join(dir, 'package.json'), '{"type":"commonjs"}\n');
    if (!split) await makeBundleCache(helper, name, dir);
    // The JS a cold start loads: the handler (and its bundle), and in a split build the chunks it and the app import (coldStartFiles).
    const cold = split ? coldStartFiles(result.metafile, file) : [file, bundle];
    const code = Buffer.concat(await Promise.all(cold.map((f) => readFile(f))));
    // The converters are in the layer (buildConverterLayer), not in the function's own package.
    await rm(join(dir, 'node_modules'), { recursive: true, force: true });
    const converts = usesConverters(result.metafile);
    anyConverts ||= converts;
    infos.push({ name, file, files: all, coldFiles: cold, bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length, totalBytes: split ? await sumBytes(all) : code.length, storeClientBytes: Buffer.byteLength(storeClient), dataBytes: made?.bytes ?? 0, packageBytes: await diskBytes(dir), converts });
  }
  await rm(helper, { force: true });
  if (anyConverts) await buildConverterLayer(outDir);
  else await rm(join(outDir, CONVERTER_LAYER_DIR), { recursive: true, force: true });
  return infos;
}

/** Parts of those packages the converters never load: the full-size OCR model (the smaller best_int one is used), pdf.js's viewer and types. */
const LAYER_SKIP = new Set(['@tesseract.js-data/eng/4.0.0', 'pdfjs-dist/web', 'pdfjs-dist/types', 'pdfjs-dist/image_decoders']);

/** Whether a bundle imports any of the converter packages (kept external, so listed among its imports). */
export function usesConverters(meta: Metafile): boolean {
  return Object.values(meta.outputs).some((o) => o.imports.some((i) => i.external && CONVERTER_MODULES.some((m) => i.path === m || i.path.startsWith(`${m}/`))));
}

/** The bytes of a file, or of every file under a folder. */
export async function diskBytes(path: string): Promise<number> {
  const s = await stat(path);
  if (!s.isDirectory()) return s.size;
  let n = 0;
  for (const e of await readdir(path)) n += await diskBytes(join(path, e));
  return n;
}

/** The converters layer's folder under dist/ (serverless.yml, `layers.converters.path`). */
export const CONVERTER_LAYER_DIR = join('layers', 'converters');

/**
 * The converters layer (serverless.yml `layers.converters`, shared by every function whose bundle
 * loads them): CONVERTER_MODULES and every package they depend on, copied from node_modules to
 * dist/layers/converters/nodejs/node_modules — Lambda unpacks a layer into /opt, and the Node.js
 * runtime looks for packages in /opt/nodejs/node_modules
 * (https://docs.aws.amazon.com/lambda/latest/dg/packaging-layers.html). Optional dependencies
 * (pdf.js's canvas for rendering) are left out: the converters only read text. Locally (server,
 * tests) the converters load from the repository's node_modules as any package does.
 */
export async function buildConverterLayer(outDir = join(root, 'dist')): Promise<{ dir: string; bytes: number; packages: number }> {
  const modules = join(root, 'node_modules');
  const dir = join(outDir, CONVERTER_LAYER_DIR, 'nodejs', 'node_modules');
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
  for (const pkgDir of seen) {
    const target = join(dir, relative(modules, pkgDir));
    // Nested node_modules are packages of their own, copied when the walk reached them.
    await cp(pkgDir, target, { recursive: true, filter: (src) => !relative(pkgDir, src).split(sep).some((part) => part === 'node_modules' || LAYER_SKIP.has(`${relative(modules, pkgDir)}/${part}`)) });
  }
  const bytes = await diskBytes(dir);
  return { dir, bytes, packages: seen.size };
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  const infos = await buildAll();
  for (const i of infos) console.log(`${i.name.padEnd(10)} ${String(i.bytes).padStart(9)} B JS  ${String(i.gzipBytes).padStart(8)} B gzip  ${String(i.dataBytes).padStart(9)} B data  ${String(i.packageBytes).padStart(9)} B package${i.converts ? ' + converters layer' : ''}  ${i.file.replace(root, '')}`);
  const layer = join(root, 'dist', CONVERTER_LAYER_DIR);
  if (existsSync(layer)) console.log(`converters layer ${await diskBytes(layer)} B  ${layer.replace(root, '')}`);
}
