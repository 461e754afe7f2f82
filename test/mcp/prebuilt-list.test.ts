import { brotliCompressSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../shared/http/app';
import { loadConfig } from '../../shared/config';
import { createRuntime } from '../../shared/runtime';
import { MemoryStore } from '../../shared/store/memory';
import { platformCases } from '../helpers/platforms';

/**
 * A bundle's embedded tools/list (shared/schemas/prebuilt.ts, made by infra/build.ts) stands in
 * for the built one here with a list of its own, so the answers show which path served them:
 * test/lambda/bundle.test.ts checks that the real embedded list equals the built one byte for byte.
 */
vi.mock('../../shared/schemas/prebuilt', () => {
  const list = (name: string) => JSON.stringify({ tools: [{ name, icons: [{ src: '\u0000origin\u0000/v1/icons/realty.svg' }] }] });
  // No catalog entries (the catalog itself is built from the registry); the combined endpoint's
  // list packed, realty's as is (where the bundle has room).
  const text = ['{}', JSON.stringify('*realty'), list('embedded-packed')].join('\n');
  return { PREBUILT: brotliCompressSync(text).toString('base64'), PREBUILT_LISTS: { realty: list('embedded') } };
});

const realty = platformCases.find((c) => c.name === 'realty')!;

async function post(path: string, body: unknown, host = 'tes.example.com') {
  const rt = await createRuntime({ platforms: [realty.platform], store: new MemoryStore(), config: loadConfig({}) });
  const res = await createApp(rt).request(`https://${host}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${realty.keys.owner}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Host: host },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return res.text();
}

const list = (id: unknown = 1, params?: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/list', ...(params !== undefined ? { params } : {}) });

describe('MCP tools/list from the embedded list', () => {
  it('answers a lone default tools/list with the embedded JSON, the request id and origin put in as JSON text', async () => {
    const text = await post('/v1/mcp/realty', list('a"b'), 'x-$&-$1.example.com');
    expect(text).toBe('{"jsonrpc":"2.0","id":"a\\"b","result":{"tools":[{"name":"embedded","icons":[{"src":"https://x-$&-$1.example.com/v1/icons/realty.svg"}]}]}}');
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 'a"b', result: { tools: [{ name: 'embedded', icons: [{ src: 'https://x-$&-$1.example.com/v1/icons/realty.svg' }] }] } });
  });

  it.each([
    ['a filter', '/v1/mcp/realty?read_only=true', list()],
    ['a page size', '/v1/mcp/realty?page_size=2', list()],
    ['a profile', '/v1/mcp/realty?profile=deferred', list()],
    ['a cursor', '/v1/mcp/realty', list(1, { cursor: 'x' })],
    ['a batch', '/v1/mcp/realty', [list()]],
  ])('builds the list from the catalog for %s', async (_, path, body) => {
    const answer = JSON.parse(await post(path, body));
    const tools = (Array.isArray(answer) ? answer[0] : answer).result.tools as { name: string }[];
    expect(tools.map((t) => t.name)).not.toContain('embedded');
    expect(tools.length).toBeGreaterThan(0);
  });

  it('answers from the packed copy where the list is not embedded as is (the combined endpoint)', async () => {
    const answer = JSON.parse(await post('/v1/mcp', list(7)));
    expect(answer).toEqual({ jsonrpc: '2.0', id: 7, result: { tools: [{ name: 'embedded-packed', icons: [{ src: 'https://tes.example.com/v1/icons/realty.svg' }] }] } });
  });
});
