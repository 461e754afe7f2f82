import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../shared/http/app';
import { loadConfig } from '../../shared/core/config';
import { createRuntime } from '../../shared/lambda/runtime';
import { MemoryStore } from '../../shared/store/memory';
import { platformCases } from '../helpers/platforms';

/**
 * A bundle's build-time documents (shared/catalog/prebuilt.ts: data files made by infra/build.ts)
 * stand in here with documents of their own, so the answers show which path served them:
 * test/lambda/bundle.test.ts checks that the real ones equal the built ones byte for byte. The
 * catalog's file is missing: the catalog is built from the registry, as a package without its
 * files would.
 */
vi.mock('../../shared/catalog/prebuilt', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'tes-prebuilt-'));
  const list = (name: string) => JSON.stringify({ tools: [{ name, icons: [{ src: '\u0000origin\u0000/v1/icons/realty.svg' }] }] });
  writeFileSync(join(dir, 'mcp.realty.json'), list('embedded'));
  writeFileSync(join(dir, 'mcp.all-realty.json'), list('embedded-combined'));
  writeFileSync(join(dir, 'openapi.realty.json'), JSON.stringify({ openapi: 'file', servers: [{ url: '\u0000origin\u0000' }] }));
  writeFileSync(join(dir, 'tools.realty.openai.json'), JSON.stringify({ platform: 'realty', schema: 'openai', tools: [{ from: 'file' }] }));
  return {
    PREBUILT: {
      dir,
      files: { catalog: 'catalog-missing.json', 'mcp:realty': 'mcp.realty.json', 'mcp:*realty': 'mcp.all-realty.json', 'openapi:realty': 'openapi.realty.json', 'tools:realty.openai': 'tools.realty.openai.json' },
    },
  };
});

const realty = platformCases.find((c) => c.name === 'realty')!;

async function request(method: string, path: string, body?: unknown, host = 'tes.example.com', headers: Record<string, string> = {}) {
  const rt = await createRuntime({ platforms: [realty.platform], store: new MemoryStore(), config: loadConfig({}) });
  const res = await createApp(rt).request(`https://${host}${path}`, {
    method,
    headers: { Authorization: `Bearer ${realty.keys.owner}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Host: host, ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, text: await res.text() };
}
async function post(path: string, body: unknown, host?: string, headers?: Record<string, string>) {
  const res = await request('POST', path, body, host, headers);
  expect(res.status).toBe(200);
  return res.text;
}

const list = (id: unknown = 1, params?: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/list', ...(params !== undefined ? { params } : {}) });
const toolNames = (text: string) => {
  const answer = JSON.parse(text);
  return ((Array.isArray(answer) ? answer[0] : answer).result.tools as { name: string }[]).map((t) => t.name);
};

describe('build-time documents read from their data files', () => {
  it('answers a lone default tools/list with the file\'s JSON, the request id and origin put in as JSON text', async () => {
    const text = await post('/v1/mcp/realty', list('a"b'), 'x-$&-$1.example.com');
    expect(text).toBe('{"jsonrpc":"2.0","id":"a\\"b","result":{"tools":[{"name":"embedded","icons":[{"src":"https://x-$&-$1.example.com/v1/icons/realty.svg"}]}]}}');
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 'a"b', result: { tools: [{ name: 'embedded', icons: [{ src: 'https://x-$&-$1.example.com/v1/icons/realty.svg' }] }] } });
  });

  it('answers a 2026-07-28 lone tools/list from the file too, with what the core adds to a list (resultType, caching hints, serverInfo)', async () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const headers = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' };
    const answer = JSON.parse(await post('/v1/mcp/realty', list(3, { _meta: meta }), undefined, headers));
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: {
        tools: [{ name: 'embedded', icons: [{ src: 'https://tes.example.com/v1/icons/realty.svg' }] }],
        resultType: 'complete',
        ttlMs: 300_000,
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'tool-execution-service-realty', version: expect.any(String) } },
      },
    });
    // The core answers a cursor's page with the same fields (its list built from the catalog).
    const paged = JSON.parse(await post('/v1/mcp/realty?page_size=1', list(4, { _meta: meta }), undefined, headers)).result;
    expect(Object.keys(paged).sort()).toEqual(['_meta', 'cacheScope', 'nextCursor', 'resultType', 'tools', 'ttlMs']);
    expect(paged._meta).toEqual(answer.result._meta);
    // A 2026-07-28 request the edge refuses never reaches the file.
    const refused = await request('POST', '/v1/mcp/realty', list(5, { _meta: meta }), undefined, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call' });
    expect(refused.status).toBe(400);
    expect(refused.text).not.toContain('embedded');
  });

  it('answers the combined endpoint from its own file', async () => {
    const answer = JSON.parse(await post('/v1/mcp', list(7)));
    expect(answer).toEqual({ jsonrpc: '2.0', id: 7, result: { tools: [{ name: 'embedded-combined', icons: [{ src: 'https://tes.example.com/v1/icons/realty.svg' }] }] } });
  });

  it.each([
    ['a filter', '/v1/mcp/realty?read_only=true', list(), {}],
    ['a page size', '/v1/mcp/realty?page_size=2', list(), {}],
    ['a profile', '/v1/mcp/realty?profile=deferred', list(), {}],
    ['typed output', '/v1/mcp/realty?format=json', list(), {}],
    ['a cursor', '/v1/mcp/realty', list(1, { cursor: 'x' }), {}],
    ['a batch', '/v1/mcp/realty', [list()], {}],
    ['params that are no object', '/v1/mcp/realty', { ...list(), params: [] }, {}],
  ])('builds the list from the catalog (built from the registry: its file is missing) for %s', async (_, path, body, headers) => {
    const res = await request('POST', path, body, undefined, headers);
    if (res.status === 200 && !('error' in JSON.parse(res.text))) {
      const names = toolNames(res.text);
      expect(names).not.toContain('embedded');
      expect(names.length).toBeGreaterThan(0);
    } else {
      expect(res.text).not.toContain('embedded');
    }
  });

  it('refuses an unsupported protocol version as the MCP server does, not with the file', async () => {
    const res = await request('POST', '/v1/mcp/realty', list(), undefined, { 'MCP-Protocol-Version': '1999-01-01' });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.message).toMatch(/Unsupported protocol version: 1999-01-01/);
  });

  it('serves the OpenAPI document from its file with the request\'s origin in its servers', async () => {
    const served = await request('GET', '/v1/openapi/realty.json', undefined, 'x-$&.example.com');
    expect(served.status).toBe(200);
    expect(JSON.parse(served.text)).toEqual({ openapi: 'file', servers: [{ url: 'https://x-$&.example.com' }] });
  });

  it('serves GET /v1/tools/{platform}?schema=openai from its file unfiltered, and builds a filtered or file-less shape', async () => {
    const fromFile = await request('GET', '/v1/tools/realty?schema=openai');
    expect(JSON.parse(fromFile.text)).toMatchObject({ success: true, data: { platform: 'realty', schema: 'openai', tools: [{ from: 'file' }] } });
    for (const path of ['/v1/tools/realty?schema=openai&read_only=true', '/v1/tools/realty?schema=anthropic', '/v1/tools/realty']) {
      const built = JSON.parse((await request('GET', path)).text);
      expect(built.success).toBe(true);
      expect(built.data.tools.length).toBeGreaterThan(0);
      expect(built.data.tools[0].from).toBeUndefined();
    }
  });
});
