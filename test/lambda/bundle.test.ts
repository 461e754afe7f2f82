import { serve, type ServerType } from '@hono/node-server';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { buildAll, bundledPlatforms, externalRequire, MAX_BUNDLE_BYTES, MAX_SEARCH_MODEL_BYTES, PREBUILT_DIR, SPLIT_BUILD, STORE_CLIENT_FILE } from '../../infra/build';
import { createApp } from '../../shared/http/app';
import { createRegistry } from '../../shared/core/registry';
import { catalogByPlatform } from '../../shared/catalog/catalog';
import { PROVIDERS, type Provider } from '../../shared/catalog/providers';
import type { Platform } from '../../shared/core/tool';
import { loadConfig } from '../../shared/core/config';
import { listTools } from '../../shared/catalog/list-tools';
import { createRuntime } from '../../shared/lambda/runtime';
import { MemoryStore } from '../../shared/store/memory';
import { httpApiV2Event } from '../../infra/lambda-events';
import { cacheFiles } from '../../shared/store/code-cache';
import { BUNDLE_FILE } from '../../shared/lambda/bundle-loader';
import { platformCases, type PlatformCase } from '../helpers/platforms';
import { LAZY_PACKAGES } from '../bench/cold';
import { deployedEnvironment } from '../bench/deployed';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;

/**
 * The built bundle, loaded the way the nodejs22.x runtime (and Node 20, which the tests run on) loads it: `require` of the CommonJS
 * file in a fresh Node process, the handler called with an event and a context. The bundle is
 * built into a temporary folder with no node_modules beside it, as in the deployment zip;
 * NODE_PATH stands in for the AWS SDK v3 the runtime provides.
 */
const INVOKE = `
const bundle = process.env.BUNDLE;
// An .mjs handler (the combined function's split build) is an ES module: imported, as the runtime does.
const loaded = bundle.endsWith('.mjs') ? import(require('node:url').pathToFileURL(bundle).href) : Promise.resolve(require(bundle));
const event = JSON.parse(process.env.EVENT);
const budget = Date.now() + 29000;
const context = { functionName: 'tool-execution-service-dev-' + process.env.PLATFORM, awsRequestId: 'local', getRemainingTimeInMillis: () => budget - Date.now() };
loaded.then(({ handler }) => handler(event, context)).then(
  (result) => { process.stdout.write(JSON.stringify(result), () => process.exit(0)); },
  (err) => { console.error(err); process.exit(1); },
);
`;

/**
 * INVOKE, then what of `LAZY` (package names) the process has loaded by the answer: every module
 * Node has required is in require.cache. With LOG_LEVEL=info the handler writes log lines to
 * stdout too, so the result is the last line.
 */
const INVOKE_LOADED = `
const bundle = process.env.BUNDLE;
const loaded = bundle.endsWith('.mjs') ? import(require('node:url').pathToFileURL(bundle).href) : Promise.resolve(require(bundle));
const event = JSON.parse(process.env.EVENT);
const budget = Date.now() + 29000;
const context = { functionName: 'tool-execution-service-dev-' + process.env.PLATFORM, awsRequestId: 'local', getRemainingTimeInMillis: () => budget - Date.now() };
loaded.then(({ handler }) => handler(event, context)).then(
  (result) => {
    const paths = Object.keys(require.cache);
    const loaded = JSON.parse(process.env.LAZY).filter((m) => paths.some((p) => p.includes('/node_modules/' + m + '/')));
    process.stdout.write('\\n' + JSON.stringify({ result, loaded }), () => process.exit(0));
  },
  (err) => { console.error(err); process.exit(1); },
);
`;

let outDir: string;
/**
 * Per platform: its handler, all of its JS, the JS its cold start loads and its bytes (infra/build.ts,
 * coldStartFiles; a split build's are several files), and its twin served over loopback.
 */
const built: Record<string, { bundle: string; code: string; coldFiles: string[]; coldBytes: number; twinUrl: string }> = {};
/** The combined MCP function's handler (functions/mcp/handler.ts: handler.mjs of its split build). */
let mcpBundle: string;
/** All of its JS: the handler and every chunk. */
let mcpCode: string;
/** The JS its cold start loads (infra/build.ts, coldStartFiles), in bytes. */
let mcpColdBytes: number;
/** The identity function's bundle (functions/identity/handler.ts): every platform's descriptor, none of their tools. */
let identityBundle: string;
/** All of its JS: handler.js and its bundle. */
let identityCode: string;
/** The JS its cold start loads, in bytes. */
let identityColdBytes: number;
const servers: ServerType[] = [];

async function listen(fetch: (req: Request) => Response | Promise<Response>): Promise<string> {
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' });
  servers.push(server);
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

let awsUrl: string;
const awsRequests: { target: string; body: Record<string, any>; authorization?: string; token?: string }[] = [];

/** The sandbox key a parameter `/tool-execution-service/dev/<platform>/api-key` holds. */
const ownerKeyOf = (name: string) => platformCases.find((c) => name === `/tool-execution-service/dev/${c.name}/api-key`)?.keys.owner ?? '';

/** A stand-in for the AWS JSON protocol of SSM and DynamoDB: POST / with X-Amz-Target. */
function fakeAws(): Hono {
  const aws = new Hono();
  aws.post('/', async (c) => {
    const target = c.req.header('x-amz-target') ?? '';
    const body = await c.req.json();
    // How DynamoDB requests are signed (the store's client); SSM's are recorded as sent.
    awsRequests.push({ target, body, ...(target.startsWith('DynamoDB_') ? { authorization: c.req.header('authorization'), token: c.req.header('x-amz-security-token') } : {}) });
    const reply = (json: unknown, type: string) => c.body(JSON.stringify(json), 200, { 'content-type': type });
    switch (target) {
      case 'AmazonSSM.GetParameter':
        return reply({ Parameter: { Name: body.Name, Type: 'SecureString', Value: ownerKeyOf(body.Name), Version: 1, DataType: 'text' } }, 'application/x-amz-json-1.1');
      case 'DynamoDB_20120810.UpdateItem':
        return reply({ Attributes: { n: { N: '1' } } }, 'application/x-amz-json-1.0');
      case 'DynamoDB_20120810.GetItem':
      case 'DynamoDB_20120810.PutItem':
        return reply({}, 'application/x-amz-json-1.0');
      default:
        return c.json({ __type: 'UnknownOperationException', message: target }, 400);
    }
  });
  return aws;
}

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'tes-bundle-'));
  const infos = await buildAll(outDir);
  for (const c of platformCases) {
    const info = infos.find((i) => i.name === c.name);
    if (!info) throw new Error(`${c.name} bundle not built`);
    const text = (files: string[]) => files.map((f) => readFileSync(f, 'utf8')).join('\n');
    built[c.name] = { bundle: info.file, code: text(info.files), coldFiles: info.coldFiles, coldBytes: info.bytes, twinUrl: await listen(c.twin().app.fetch) };
  }
  awsUrl = await listen(fakeAws().fetch);
  const mcp = infos.find((i) => i.name === 'mcp')!;
  mcpBundle = mcp.file;
  mcpCode = mcp.files.map((f) => readFileSync(f, 'utf8')).join('\n');
  mcpColdBytes = mcp.bytes;
  const identity = infos.find((i) => i.name === 'identity')!;
  identityBundle = identity.file;
  identityCode = identity.files.map((f) => readFileSync(f, 'utf8')).join('\n');
  identityColdBytes = identity.bytes;
});
beforeEach(() => {
  awsRequests.length = 0;
});

const AWS_ENV = {
  AWS_REGION: 'eu-central-1',
  AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};

afterAll(async () => {
  for (const s of servers) s.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

/** What a fresh Node process running `bundle` (INVOKE, INVOKE_LOADED) is given: the bundle, its function's name and the event. */
const bundleEnv = (bundle: string, name: string, event: unknown) => ({ PATH: process.env.PATH ?? '', NODE_PATH: join(root, 'node_modules'), BUNDLE: bundle, PLATFORM: name, EVENT: JSON.stringify(event) });

/** Runs a bundle once with the memory store. */
async function runBundle(bundle: string, name: string, event: unknown, env: Record<string, string> = {}) {
  const { stdout } = await run(process.execPath, ['-e', INVOKE], { cwd: outDir, timeout: 20_000, env: { ...bundleEnv(bundle, name, event), STORE: 'memory', ...env } });
  // The result is the last line: log lines (a warning) may come before it.
  return JSON.parse(stdout.slice(stdout.lastIndexOf('\n') + 1));
}

/** Runs the platform's bundle once, its vendor at its twin (`<PLATFORM>_BASE_URL`). */
function invoke(c: PlatformCase, event: unknown, env: Record<string, string> = {}) {
  return runBundle(built[c.name]!.bundle, c.name, event, { [`${c.name.toUpperCase()}_BASE_URL`]: built[c.name]!.twinUrl, ...env });
}

/**
 * Runs the platform's probe through its bundle in a fresh Node process (INVOKE_LOADED), its vendor
 * at its twin, with AWS credentials and `env`: the answer, which of `lazy` it loaded, and stdout.
 */
async function invokeLoaded(c: PlatformCase, lazy: readonly string[], env: Record<string, string>) {
  const { stdout } = await run(process.execPath, ['-e', INVOKE_LOADED], {
    cwd: outDir,
    timeout: 20_000,
    env: {
      ...bundleEnv(built[c.name]!.bundle, c.name, probeEvent(c)),
      LAZY: JSON.stringify(lazy),
      ...AWS_ENV,
      ...env,
      [`${c.name.toUpperCase()}_BASE_URL`]: built[c.name]!.twinUrl,
    },
  });
  // With LOG_LEVEL=info log lines come first: the answer is the last line.
  const { result, loaded } = JSON.parse(stdout.slice(stdout.lastIndexOf('\n') + 1)) as { result: { statusCode: number; body: string }; loaded: string[] };
  return { result, loaded, stdout };
}

const probeEvent = (c: PlatformCase) =>
  httpApiV2Event({
    method: 'POST',
    path: `/v1/tools/${c.name}/${c.probe.tool}`,
    query: { format: 'json' },
    headers: { Authorization: `Bearer ${c.keys.owner}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(c.probe.params),
  });

/** A host name with characters the origin must carry as text: "$&" is special to String.replace. */
const ODD_HOST = 'tes-$&-$1.example.com';

/** A lone tools/list on an MCP endpoint, the origin from X-Forwarded-Host. */
const listEvent = (path: string, key: string, query?: Record<string, string>) =>
  httpApiV2Event({
    method: 'POST',
    path,
    ...(query ? { query } : {}),
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'X-Forwarded-Host': ODD_HOST },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'list-1', method: 'tools/list' }),
  });

/** A request answered by the app from source (no build-time documents there: each is built from the registry). */
async function fromSource(platforms: Platform<any>[], method: string, path: string, headers: Record<string, string>, body?: string): Promise<string> {
  const rt = await createRuntime({ platforms, store: new MemoryStore(), config: loadConfig({}) });
  const res = await createApp(rt).request(`https://${ODD_HOST}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  expect(res.status).toBe(200);
  return res.text();
}

/** The lone tools/list answered by the app from source. */
async function listFromSource(platforms: Platform<any>[], path: string, key: string): Promise<string> {
  const event = listEvent(path, key);
  return fromSource(platforms, 'POST', path, event.headers as Record<string, string>, event.body!);
}

describe('built bundle identity/handler.js (keys, connections, MCP sign-in)', () => {
  it("signs in to every registered platform from the descriptors alone: their toolsets are the endpoints' scopes, their tool modules are left out", async () => {
    const platforms = await bundledPlatforms('mcp');
    for (const p of platforms) {
      const answer = await runBundle(identityBundle, 'identity', httpApiV2Event({ method: 'GET', path: `/.well-known/oauth-protected-resource/v1/mcp/${p.name}` }));
      expect(answer.statusCode, p.name).toBe(200);
      expect(JSON.parse(answer.body).scopes_supported, p.name).toEqual(Object.keys(p.toolsets).sort());
    }
    const code = identityCode;
    // Each tool module a descriptor loads on first use is a stub naming it (infra/build.ts), never the tool's code.
    expect(code).toContain("not in this function's bundle: dbapp: ./getRecord");
    const toolText = 'Get one record with its field values';
    expect(mcpCode).toContain(toolText);
    expect(code).not.toContain(toolText);
    expect(identityColdBytes).toBeLessThanOrEqual(MAX_BUNDLE_BYTES);
  });

  it('serves the operator listing of event subscriptions (API Gateway sends /v1/admin/subscriptions here alone): an admin route, refused without an admin key', async () => {
    const answer = await runBundle(identityBundle, 'identity', httpApiV2Event({ method: 'GET', path: '/v1/admin/subscriptions' }));
    expect(answer.statusCode).toBe(401);
    expect(JSON.parse(answer.body).error.code).toBe('UNAUTHORIZED');
  });
});

describe('built bundle mcp/handler.js (the combined /v1/mcp)', () => {
  it('answers tools/list from the list made at build time, byte for byte what the registry builds from the source now', async () => {
    const platforms = await bundledPlatforms('mcp');
    expect(platforms.map((p) => p.name).sort()).toEqual(platformCases.map((c) => c.name).sort());
    const owner = platformCases[0]!.keys.owner;
    const answer = await runBundle(mcpBundle, 'mcp', listEvent('/v1/mcp', owner));
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe(await listFromSource(platforms, '/v1/mcp', owner));
    expect(JSON.parse(answer.body).result.tools.length).toBeGreaterThan(200);
    // No ajv in any bundle: it came only with the MCP SDK's server, which is not bundled.
    for (const text of [mcpCode, ...Object.values(built).map((b) => b.code)]) expect(text).not.toMatch(/require\("ajv|ajv-formats|strictRequired/);
  });
  it('serves /v1/openapi.json (every platform) from the file made at build time, byte for byte what the route builds from the source now', async () => {
    const platforms = await bundledPlatforms('mcp');
    const event = httpApiV2Event({ method: 'GET', path: '/v1/openapi.json', headers: { 'X-Forwarded-Host': ODD_HOST } });
    const answer = await runBundle(mcpBundle, 'mcp', event);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe(await fromSource(platforms, 'GET', '/v1/openapi.json', { 'X-Forwarded-Host': ODD_HOST }));
  });

  it('answers search_tools with the search model made at build time (one data file, ≤ 5 MB, no examples in the bundle), as the source ranks', async () => {
    const platforms = await bundledPlatforms('mcp');
    const owner = platformCases[0]!.keys.owner;
    const headers = { Authorization: `Bearer ${owner}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'who owns APN 123-456-78', limit: 5 } } });
    const answer = await runBundle(mcpBundle, 'mcp', httpApiV2Event({ method: 'POST', path: '/v1/mcp', headers, body }));
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe(await fromSource(platforms, 'POST', '/v1/mcp', headers, body));
    // The default endpoint answers with the text only (docs/mcp-output.md): the first hit leads it.
    expect(JSON.parse(answer.body).result.content[0].text).toMatch(/^realty_lookupProperty \(read\)/);
    const model = join(dirname(mcpBundle), PREBUILT_DIR, 'search-model.json');
    expect(statSync(model).size).toBeLessThanOrEqual(MAX_SEARCH_MODEL_BYTES);
    // The examples train the model at build time; the bundle carries the model, not them.
    const examples = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../functions/crm/search-examples.json'), 'utf8')) as Record<string, string[]>;
    for (const list of Object.values(examples)) expect(mcpCode).not.toContain(JSON.stringify(list[0]).slice(1, -1));
  }, 120_000);

  it("loads at a cold start at most MAX_BUNDLE_BYTES of JS: each platform's tools are chunks of their own, which its calls load", async () => {
    expect(mcpColdBytes).toBeLessThanOrEqual(MAX_BUNDLE_BYTES);
    expect(Buffer.byteLength(mcpCode)).toBeGreaterThan(MAX_BUNDLE_BYTES);
    const cold = readFileSync(mcpBundle, 'utf8');
    expect(cold).not.toContain('Get one record with its field values');
    // Every platform's probe through /v1/mcp, against its twin: its tool's chunk loads and runs.
    const twins = Object.fromEntries(platformCases.map((c) => [`${c.name.toUpperCase()}_BASE_URL`, built[c.name]!.twinUrl]));
    const owner = platformCases[0]!.keys.owner;
    const listed = JSON.parse((await runBundle(mcpBundle, 'mcp', listEvent('/v1/mcp', owner))).body).result.tools as { name: string }[];
    for (const c of platformCases) {
      const name = listed.map((t) => t.name).find((n) => n === c.probe.tool || n.endsWith(`_${c.probe.tool}`));
      expect(name, `${c.name}/${c.probe.tool} listed`).toBeDefined();
      const headers = { Authorization: `Bearer ${c.keys.owner}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: c.probe.params } });
      const answer = await runBundle(mcpBundle, 'mcp', httpApiV2Event({ method: 'POST', path: '/v1/mcp', headers, body }), twins);
      expect(answer.statusCode, c.name).toBe(200);
      const result = JSON.parse(answer.body).result;
      expect(result.isError, `${c.name}: ${JSON.stringify(result).slice(0, 300)}`).toBeFalsy();
      expect(result.content[0].text).toMatch(c.answer.text);
    }
    // A tool's refusal made in its chunk is still the service's error (one copy of shared code, not one per chunk).
    const bad = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: listed.find((t) => /getRecord$/.test(t.name))!.name, arguments: { record_id: 'not-a-number' } } });
    const refused = await runBundle(mcpBundle, 'mcp', httpApiV2Event({ method: 'POST', path: '/v1/mcp', headers: { Authorization: `Bearer ${owner}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: bad }), twins);
    expect(JSON.parse(refused.body).result).toMatchObject({ isError: true });
    expect(JSON.parse(refused.body).result.content[0].text).toMatch(/INVALID_PARAMETER|record_id/);
  }, 120_000);

  it("takes a lazily imported AWS SDK client or converter by name, required through NODE_PATH as the CommonJS build does", async () => {
    // A module importing as shared/ does (shared/aws/ssm.ts, shared/core/audit.ts, shared/files/analysis.ts), built as the combined function is.
    const dir = await mkdtemp(join(outDir, 'split-'));
    const entry = join(dir, 'entry.ts');
    writeFileSync(entry, "export const load = async () => { const { SSMClient, GetParameterCommand } = await import('@aws-sdk/client-ssm'); const s3 = await import('@aws-sdk/client-s3'); const { franc } = await import('franc-min'); return [typeof SSMClient, typeof GetParameterCommand, typeof s3.PutObjectCommand, typeof franc, typeof s3.default.S3Client]; };\n");
    await build({ ...SPLIT_BUILD, entryPoints: { handler: entry }, outdir: dir, absWorkingDir: dir, plugins: [externalRequire] });
    const script = `import(require('node:url').pathToFileURL(process.env.FILE).href).then((m) => m.load()).then((r) => process.stdout.write(JSON.stringify(r)))`;
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: dir, env: { PATH: process.env.PATH ?? '', NODE_PATH: join(root, 'node_modules'), FILE: join(dir, 'handler.mjs') }, timeout: 20_000 });
    expect(JSON.parse(stdout)).toEqual(['function', 'function', 'function', 'function', 'function']);
  });

  it('without its data files (a package that lost them) builds the list at runtime, the same bytes', async () => {
    const platforms = await bundledPlatforms('mcp');
    const bare = join(outDir, 'mcp-bare');
    await cp(dirname(mcpBundle), bare, { recursive: true, filter: (src) => !src.split(sep).some((part) => part === PREBUILT_DIR || part === 'node_modules') });
    expect(existsSync(join(bare, PREBUILT_DIR))).toBe(false);
    const owner = platformCases[0]!.keys.owner;
    const answer = await runBundle(join(bare, basename(mcpBundle)), 'mcp', listEvent('/v1/mcp', owner));
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe(await listFromSource(platforms, '/v1/mcp', owner));
  });
});

describe('the DynamoDB store client beside each bundle', () => {
  it('is the same file in every function, with a code cache this Node uses (made at build time by the same Node)', async () => {
    const files = Object.values(built).map((b) => join(dirname(b.bundle), STORE_CLIENT_FILE));
    for (const file of files) expect(readFileSync(file).equals(readFileSync(files[0]!))).toBe(true);
    const script = `const { requireWithCache } = require(${JSON.stringify(join(root, 'shared/store/code-cache.ts'))}); const { use, exports } = requireWithCache(process.env.FILE); process.stdout.write(use + ' ' + typeof exports.createDynamoStore);`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, env: { ...process.env, FILE: files[0]! }, timeout: 30_000 });
    expect(stdout).toBe('used function');
  });
});

describe.each(platformCases)('built bundle $name/handler.js', (c) => {
  it('answers an HTTP API v2 event against its twin over loopback', async () => {
    const result = await invoke(c, probeEvent(c));
    expect(result.statusCode).toBe(200);
    expect(result.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(result.body);
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject(c.answer.json);
  });

  it('answers MCP tools/list and tools/call (our own MCP server: neither the SDK nor ajv is bundled)', async () => {
    const rpc = (id: number, method: string, params: Record<string, unknown> = {}) =>
      httpApiV2Event({
        method: 'POST',
        path: `/v1/mcp/${c.name}`,
        headers: { Authorization: `Bearer ${c.keys.owner}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      });
    const list = await invoke(c, rpc(1, 'tools/list'));
    expect(list.statusCode).toBe(200);
    expect(JSON.parse(list.body).result.tools.map((t: { name: string }) => t.name)).toContain(c.probe.tool);
    const call = await invoke(c, rpc(2, 'tools/call', { name: c.probe.tool, arguments: c.probe.params }));
    const result = JSON.parse(call.body).result;
    expect(result.isError).toBeFalsy();
    expect(result.content[0].text).toMatch(c.answer.text);
    expect(built[c.name]!.code).not.toContain('strictRequired');
    // A message of the SDK's server transport: the SDK's server is not in the bundle.
    expect(built[c.name]!.code).not.toContain('Server already initialized');
  });

  it('is handler.js loading its bundle through the code cache the build made of it, which V8 takes on the Node that built it', async () => {
    const dir = dirname(built[c.name]!.bundle);
    expect(JSON.parse(readFileSync(cacheFiles(join(dir, BUNDLE_FILE)).meta, 'utf8'))).toEqual({ node: process.version, arch: process.arch });
    const script = `
const { requireWithCache } = require(${JSON.stringify(join(root, 'shared/store/code-cache.ts'))});
const { exports, use } = requireWithCache(process.env.FILE);
process.stdout.write(JSON.stringify({ use, handler: typeof exports.handler }));`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, env: { ...process.env, FILE: join(dir, BUNDLE_FILE) }, timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({ use: 'used', handler: 'function' });
    // handler.js itself is only the loader: the function's code is all in the bundle.
    expect(statSync(built[c.name]!.bundle).size).toBeLessThan(4_000);
  });

  it('counts calls in DynamoDB with STORE=dynamodb (as deployed), using only the actions IAM allows', async () => {
    const result = await invoke(c, probeEvent(c), { ...AWS_ENV, STORE: 'dynamodb', TABLE_NAME: 'tes-dev-store', DYNAMODB_ENDPOINT: awsUrl });
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).data).toMatchObject(c.answer.json);
    expect(awsRequests.length).toBeGreaterThan(0);
    for (const r of awsRequests) {
      expect(['DynamoDB_20120810.GetItem', 'DynamoDB_20120810.PutItem', 'DynamoDB_20120810.UpdateItem']).toContain(r.target);
      expect(r.body.TableName).toBe('tes-dev-store');
    }
    expect(awsRequests.map((r) => r.target)).toContain('DynamoDB_20120810.UpdateItem');
  });

  it("signs its DynamoDB requests with Lambda's environment credentials, its client built into the file beside handler.js (no SDK package loaded from outside)", async () => {
    const { result, loaded } = await invokeLoaded(c, ['@aws-sdk/client-dynamodb', '@aws-sdk/credential-provider-node', '@aws-sdk/core', '@smithy/core'], {
      AWS_SESSION_TOKEN: 'lambda-role-session-token',
      STORE: 'dynamodb',
      TABLE_NAME: 'tes-dev-store',
      DYNAMODB_ENDPOINT: awsUrl,
    });
    expect(result.statusCode).toBe(200);
    expect(loaded).toEqual([]);
    expect(existsSync(join(dirname(built[c.name]!.bundle), STORE_CLIENT_FILE))).toBe(true);
    const dynamo = awsRequests.filter((r) => r.target.startsWith('DynamoDB_'));
    expect(dynamo.length).toBeGreaterThan(0);
    for (const r of dynamo) {
      expect(r.authorization).toContain(`Credential=${AWS_ENV.AWS_ACCESS_KEY_ID}/`);
      expect(r.token).toBe('lambda-role-session-token');
    }
  });

  it('serves the tool lists made at build time (data files beside handler.js), equal to what the registry builds from the source now', async () => {
    const dir = dirname(built[c.name]!.bundle);
    const files = readdirSync(join(dir, PREBUILT_DIR));
    // The JS carries no copy of the documents: it names their files.
    expect(built[c.name]!.code).not.toContain('brotli');
    const rt = await createRuntime({ platforms: [c.platform], store: new MemoryStore(), config: loadConfig({}) });
    const read = (name: string) => readFileSync(join(dir, PREBUILT_DIR, name), 'utf8');
    // Every shape GET /v1/tools/{platform} has a file for, byte for byte the JSON of what listTools builds from source.
    const shapes: { provider?: Provider; profile?: { kind: 'deferred' } }[] = [{}, ...PROVIDERS.flatMap((provider) => [{ provider }, { provider, profile: { kind: 'deferred' } as const }])];
    for (const shape of shapes) {
      const name = `tools.${[c.name, shape.provider, shape.profile?.kind].filter(Boolean).join('.')}.json`;
      expect(files).toContain(name);
      const fromSource = await listTools(rt, { platform: c.name, key: c.keys.owner, filter: { readOnly: false }, ...shape }, {});
      expect(read(name)).toBe(JSON.stringify(fromSource));
    }
    expect(read('catalog.json')).toBe(JSON.stringify(await catalogByPlatform(createRegistry([c.platform]))));
    // The bundle answers from them: the plain list and one provider's shape, as from source.
    for (const query of [{}, { schema: 'openai' }] as Record<string, string>[]) {
      const result = await invoke(c, httpApiV2Event({ method: 'GET', path: `/v1/tools/${c.name}`, query, headers: { Authorization: `Bearer ${c.keys.owner}` } }));
      expect(result.statusCode).toBe(200);
      const fromSource = await listTools(rt, { platform: c.name, key: c.keys.owner, filter: { readOnly: false }, ...(query.schema ? { provider: 'openai' as const } : {}) }, {});
      expect(JSON.parse(result.body).data).toEqual(fromSource);
    }
  });

  it('serves its OpenAPI document from the file made at build time, byte for byte what the route builds from the source now', async () => {
    const event = httpApiV2Event({ method: 'GET', path: `/v1/openapi/${c.name}.json`, headers: { 'X-Forwarded-Host': ODD_HOST } });
    const answer = await invoke(c, event);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe(await fromSource([c.platform], 'GET', `/v1/openapi/${c.name}.json`, { 'X-Forwarded-Host': ODD_HOST }));
    expect(JSON.parse(answer.body).servers).toEqual([{ url: `https://${ODD_HOST}` }]);
  });

  it('answers MCP tools/list from the list made at build time, byte for byte what the registry builds from the source now', async () => {
    const platforms = [c.platform];
    const answer = await invoke(c, listEvent(`/v1/mcp/${c.name}`, c.keys.owner));
    expect(answer.statusCode).toBe(200);
    const expected = await listFromSource(platforms, `/v1/mcp/${c.name}`, c.keys.owner);
    expect(answer.body).toBe(expected);
    // The icons carry the request's origin, escaped as JSON.
    expect(JSON.parse(answer.body).result.tools[0].icons[0].src).toBe(`https://${ODD_HOST}/v1/icons/${c.name}.svg`);
  });

  it('lists typed output (?format=json) with every output schema, as from source, though the bundle leaves the schema files out (its build-time catalog has them)', async () => {
    const answer = await invoke(c, listEvent(`/v1/mcp/${c.name}`, c.keys.owner, { format: 'json' }));
    expect(answer.statusCode).toBe(200);
    const tools = JSON.parse(answer.body).result.tools as { name: string; outputSchema?: unknown }[];
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.filter((t) => !t.outputSchema).map((t) => t.name)).toEqual([]);
    const event = listEvent(`/v1/mcp/${c.name}`, c.keys.owner, { format: 'json' });
    expect(answer.body).toBe(await fromSource([c.platform], 'POST', `/v1/mcp/${c.name}?format=json`, event.headers as Record<string, string>, event.body!));
    // The generated files' comment (shared/catalog/output/<p>.json) is in no bundle.
    expect(built[c.name]!.code).not.toContain('Generated by `npm run schemas`');
  });

  it('with the environment serverless.yml deploys, answers its probe without loading the S3 or Lambda client or a document converter', async () => {
    const deployed = deployedEnvironment({ StoreTable: 'tes-dev-store', BlobBucket: 'tes-dev-blobs' });
    expect(deployed).toMatchObject({ BLOB_BUCKET: 'tes-dev-blobs', LOG_LEVEL: 'info', METRICS: 'on' });
    const bundle = built[c.name]!.code;
    // Not a vacuous check: the bundle can load the S3 client (on a file hand-out), and the
    // platforms with file tools can load the converters (beside the bundle).
    expect(bundle).toContain('@aws-sdk/client-s3');
    // ...and the Lambda client, on the first MCP task (shared/mcp/task-worker.ts).
    expect(bundle).toContain('@aws-sdk/client-lambda');
    if ('fileToMarkdown' in c.platform.tools) expect(bundle).toContain('officeparser');
    const { result, loaded, stdout } = await invokeLoaded(c, LAZY_PACKAGES, { ...deployed, STORE: 'memory' });
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).data).toMatchObject(c.answer.json);
    expect(loaded).toEqual([]);
    // The metrics and access-log lines were written: the deployed environment was in force.
    expect(stdout).toContain('"_aws"');
  });

  it("serves what API Gateway sends it and none of the identity function's routes (serverless.yml): its MCP 401 still names the sign-in metadata", async () => {
    const bundle = built[c.name]!.code;
    // The console, the connect and consent pages and the identity routes' OpenAPI table are the identity function's.
    expect(bundle).not.toContain('Operator console');
    expect(identityCode).toContain('Operator console');
    for (const [method, path] of [['GET', '/v1/admin/keys'], ['GET', '/v1/admin/subscriptions'], ['GET', '/console'], ['GET', '/.well-known/oauth-authorization-server'], ['POST', '/oauth/token'], ['GET', '/v1/openapi/identity.json']] as const) {
      const answer = await invoke(c, httpApiV2Event({ method, path }));
      expect(answer.statusCode, `${method} ${path}`).toBe(404);
      expect(JSON.parse(answer.body).error.code).toBe('NOT_FOUND');
    }
    const unauth = await invoke(c, httpApiV2Event({ method: 'POST', path: `/v1/mcp/${c.name}`, headers: { 'Content-Type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' }));
    expect(unauth.statusCode).toBe(401);
    expect(unauth.headers['www-authenticate']).toContain(`/.well-known/oauth-protected-resource/v1/mcp/${c.name}`);
  });

  it('loads at a cold start at most MAX_BUNDLE_BYTES of JS', () => {
    // handler.js and its bundle: Lambda loads both at a cold start.
    expect(built[c.name]!.coldFiles.map((f) => basename(f)).sort()).toEqual([BUNDLE_FILE, 'handler.js']);
    expect(built[c.name]!.coldBytes).toBe(built[c.name]!.coldFiles.reduce((n, f) => n + statSync(f).size, 0));
    expect(built[c.name]!.coldBytes).toBeLessThanOrEqual(MAX_BUNDLE_BYTES);
  });

  it('hands an MCP task worker event to the task worker: a task the Store does not hold runs nothing', async () => {
    expect(await invoke(c, { tes_task: { id: 'no-such-task', owner: 'nobody' } })).toEqual({ task: 'no-such-task', ran: false });
  });

  it('runs a scheduled job: key read from SSM (the runtime-provided SDK) with decryption', async () => {
    const keyParameter = `/tool-execution-service/dev/${c.name}/api-key`;
    const event = { tool: c.probe.tool, params: c.probe.params, format: 'text', key_parameter: keyParameter };
    const result = await invoke(c, event, { ...AWS_ENV, AWS_ENDPOINT_URL_SSM: awsUrl });
    expect(result).toMatchObject({ success: true, data: expect.stringMatching(c.answer.text) });
    expect(awsRequests).toEqual([{ target: 'AmazonSSM.GetParameter', body: { Name: keyParameter, WithDecryption: true } }]);
  });
});
