import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocal } from '../../infra/local/server';
import { mcpRoutes } from '../../shared/http/mcp';
import { conformanceFixture } from './fixture';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, its CLI as a user runs
 * it: `conformance server --url … --requirements <revision>`) against the local server through
 * the real HTTP stack, for both revisions served. Two endpoints: the combined `/v1/mcp` (the
 * catalog's tools) and a test-only fixture endpoint on the same HTTP edge and protocol core
 * (test/mcp/fixture.ts) serving the diagnostic, `test_input_required_result_*` and Tasks
 * extension tools the suite calls by name. The suite's client sends no Authorization header: a proxy in front of each
 * adds the sandbox key and is transparent to Host and Origin (its own become the server's, any
 * other passes unchanged), so the server's DNS-rebinding protection is what the suite tests.
 * docs/mcp.md lists each scenario, its result, and why the others do not apply.
 */
const CLI = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));

/** The scenarios that apply, per revision and endpoint; every check of each must pass. */
const APPLICABLE = {
  '2026-07-28': {
    catalog: ['tools-list', 'caching', 'dns-rebinding-protection', 'http-header-validation', 'sep-2164-resource-not-found', 'resources-list', 'prompts-list', 'server-sse-multiple-streams', 'input-required-result-unsupported-methods'],
    fixture: [
      'server-stateless',
      'json-schema-2020-12',
      'input-required-result-basic-elicitation',
      'input-required-result-basic-sampling',
      'input-required-result-basic-list-roots',
      'input-required-result-request-state',
      'input-required-result-multiple-input-requests',
      'input-required-result-multi-round',
      'input-required-result-missing-input-response',
      'input-required-result-non-tool-request',
      'input-required-result-result-type',
      'input-required-result-tampered-state',
      'input-required-result-capability-check',
      'input-required-result-ignore-extra-params',
      'input-required-result-validate-input',
      'tasks-lifecycle',
      'tasks-capability-negotiation',
      'tasks-wire-fields',
      'tasks-request-state-removal',
      'tasks-mrtr-input',
      'tasks-request-headers',
      'tasks-dispatch-and-envelope',
      'tasks-required-task-error',
      'tasks-mrtr-composition',
    ],
  },
  '2025-11-25': {
    catalog: ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'],
    fixture: ['json-schema-2020-12'],
  },
} as const;

type Revision = keyof typeof APPLICABLE;
type Endpoint = 'catalog' | 'fixture';
interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

let local: Awaited<ReturnType<typeof startLocal>>;
let fixture: ReturnType<typeof serve>;
const proxies: Server[] = [];
let out: string;
/** Each run's checks, by scenario. */
const results = new Map<string, Map<string, Check[]>>();

/** A proxy adding the sandbox key in front of `base`, transparent to Host and Origin. */
async function keyProxy(base: string): Promise<number> {
  const target = new URL(base);
  const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
    const port = (proxy.address() as AddressInfo).port;
    const own = [`127.0.0.1:${port}`, `localhost:${port}`];
    const headers = { ...req.headers, authorization: `Bearer ${local.key}` };
    if (own.includes(req.headers.host ?? '')) headers.host = target.host;
    if (own.some((o) => req.headers.origin === `http://${o}`)) headers.origin = target.origin;
    const upstream = request({ host: target.hostname, port: Number(target.port), path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  proxies.push(proxy);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return (proxy.address() as AddressInfo).port;
}

/** One run of the CLI; its checks read from the result files it writes, by scenario. */
async function run(revision: Revision, endpoint: Endpoint, url: string): Promise<void> {
  const dir = join(out, `${endpoint}-${revision}`);
  await new Promise<void>((resolve) => {
    // Exit code 1 when a scenario fails: the assertions below say which, for the applicable ones.
    execFile(process.execPath, [CLI, 'server', '--url', url, '--requirements', revision, '-o', dir], { timeout: 120_000 }, () => resolve());
  });
  const byScenario = new Map<string, Check[]>();
  for (const d of await readdir(dir)) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(d)?.[1];
    if (scenario) byScenario.set(scenario, JSON.parse(await readFile(join(dir, d, 'checks.json'), 'utf8')) as Check[]);
  }
  results.set(`${endpoint} ${revision}`, byScenario);
}

beforeAll(async () => {
  local = await startLocal({ PORT: '0' });
  const app = new Hono();
  mcpRoutes(app, local.rt, 1_000_000, { path: '/fixture/mcp', source: conformanceFixture });
  fixture = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => fixture.once('listening', resolve));
  const catalogPort = await keyProxy(local.base);
  const fixturePort = await keyProxy(`http://127.0.0.1:${(fixture.address() as AddressInfo).port}`);
  out = await mkdtemp(join(tmpdir(), 'tes-conformance-'));
  const urls = { catalog: `http://localhost:${catalogPort}/v1/mcp`, fixture: `http://localhost:${fixturePort}/fixture/mcp` };
  await Promise.all(
    (Object.keys(APPLICABLE) as Revision[]).flatMap((revision) => (['catalog', 'fixture'] as const).map((endpoint) => run(revision, endpoint, urls[endpoint]))),
  );
}, 240_000);

afterAll(async () => {
  for (const p of proxies) p.close();
  fixture?.close();
  await new Promise<void>((resolve) => local.server.close(() => resolve()));
  await rm(out, { recursive: true, force: true });
});

describe.each(Object.keys(APPLICABLE) as Revision[])('conformance --requirements %s', (revision) => {
  it.each((['catalog', 'fixture'] as const).flatMap((endpoint) => APPLICABLE[revision][endpoint].map((scenario) => [endpoint, scenario] as const)))(
    '%s endpoint: %s passes every check',
    (endpoint, scenario) => {
      const checks = results.get(`${endpoint} ${revision}`)?.get(scenario);
      expect(checks, `the suite ran no scenario "${scenario}"`).toBeDefined();
      const failed = checks!.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').map((c) => `${c.id}: ${c.errorMessage ?? c.status}`);
      expect(failed).toEqual([]);
      expect(checks!.some((c) => c.status === 'SUCCESS')).toBe(true);
    },
  );
});
