import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION as SDK_LATEST, SUPPORTED_PROTOCOL_VERSIONS as SDK_SUPPORTED } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { LATEST_PROTOCOL_VERSION, MAX_BATCH, SUPPORTED_PROTOCOL_VERSIONS } from '../../shared/mcp/server';
import { harness, SANDBOX_KEYS } from '../helpers/harness';

/**
 * The JSON-RPC and Streamable HTTP rules of our own MCP server, sent raw (what a host that is not
 * the SDK may send), with the official SDK client as the judge of the versions it negotiates.
 */
const h = await harness();
const auth = { authorization: `Bearer ${SANDBOX_KEYS.owner}` };

async function post(raw: string, headers: Record<string, string> = {}) {
  const res = await h.app.request('/v1/mcp/dbapp', { method: 'POST', headers: { 'content-type': 'application/json', ...auth, ...headers }, body: raw });
  const text = await res.text();
  return { status: res.status, text, body: text ? (JSON.parse(text) as any) : undefined };
}
const rpc = (id: unknown, method: string, params?: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });
const init = (protocolVersion: unknown, capabilities: unknown = {}) => rpc(1, 'initialize', { protocolVersion, capabilities, clientInfo: { name: 'raw', version: '1' } });

describe('version negotiation', () => {
  it('speaks exactly the revisions the SDK speaks, the latest first', () => {
    expect(LATEST_PROTOCOL_VERSION).toBe(SDK_LATEST);
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(SDK_SUPPORTED);
  });

  it.each(SUPPORTED_PROTOCOL_VERSIONS)('answers a client speaking %s in its own revision', async (v) => {
    const r = await post(init(v));
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({ protocolVersion: v, capabilities: { tools: { listChanged: false } }, serverInfo: { name: 'tool-execution-service-dbapp', version: expect.any(String) } });
    expect(r.body.result.instructions).toMatch(/Tools of Tape/);
  });

  it('answers a revision it does not speak with its latest (the client decides whether to go on)', async () => {
    const r = await post(init('2023-01-01'));
    expect(r.body.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('the SDK client connects and agrees on the latest revision', async () => {
    const seen: string[] = [];
    const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/v1/mcp/dbapp'), {
      requestInit: { headers: auth },
      fetch: (async (url: string | URL, req?: RequestInit) => {
        const res = await h.app.request(String(url), req);
        const body = await res.clone().text();
        if (body.includes('"protocolVersion"')) seen.push(JSON.parse(body).result.protocolVersion as string);
        return res;
      }) as typeof fetch,
    });
    const client = new Client({ name: 'judge', version: '1' });
    await client.connect(transport);
    expect(seen).toEqual([SDK_LATEST]);
    expect(client.getServerVersion()?.name).toBe('tool-execution-service-dbapp');
    await client.ping();
    await client.close();
  });

  it('refuses an MCP-Protocol-Version header it does not speak (400, UnsupportedProtocolVersion with the request\'s id), except on initialize', async () => {
    const r = await post(rpc(2, 'tools/list'), { 'mcp-protocol-version': '1999-01-01' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32022, message: `Unsupported protocol version: 1999-01-01. Supported versions: 2026-07-28, ${SDK_SUPPORTED.join(', ')}.`, data: { supported: ['2026-07-28', ...SDK_SUPPORTED], requested: '1999-01-01' } } });
    expect((await post(init('2025-06-18'), { 'mcp-protocol-version': '1999-01-01' })).status).toBe(200);
    expect((await post(rpc(2, 'tools/list'), { 'mcp-protocol-version': '2024-11-05' })).status).toBe(200);
  });
});

describe('revision 2026-07-28 beside the legacy ones (docs/mcp.md#negotiation)', () => {
  const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const modern = (id: number, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method }) =>
    post(rpc(id, method, { ...params, _meta: META }), headers);

  it('server/discover names every revision served, the capabilities and the Tasks extension, with serverInfo in _meta', async () => {
    const r = await modern(1, 'server/discover');
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: ['2026-07-28', ...SDK_SUPPORTED],
      capabilities: { tools: { listChanged: false }, extensions: { 'io.modelcontextprotocol/tasks': {} } },
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'tool-execution-service-dbapp', version: expect.any(String) } },
    });
  });

  it('refuses what the revision refuses, each with the request\'s id and HTTP 400 (404 for a removed method)', async () => {
    expect(await post(rpc(2, 'tools/list'), { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' })).toMatchObject({ status: 400, body: { id: 2, error: { code: -32602 } } });
    expect(await modern(3, 'tools/list', {}, { 'mcp-method': 'tools/list' })).toMatchObject({ status: 400, body: { id: 3, error: { code: -32020, message: expect.stringMatching(/MCP-Protocol-Version header is missing/) } } });
    expect(await modern(4, 'tools/list', {}, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' })).toMatchObject({ status: 400, body: { id: 4, error: { code: -32020 } } });
    expect(await modern(5, 'tools/call', { name: 'listWorkspaces', arguments: {} }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'getWorkspace' })).toMatchObject({ status: 400, body: { id: 5, error: { code: -32020 } } });
    for (const [id, method] of [[6, 'ping'], [7, 'initialize'], [8, 'logging/setLevel'], [9, 'tasks/list']] as const) {
      expect(await modern(id, method)).toMatchObject({ status: 404, body: { id, error: { code: -32601 } } });
    }
  });

  it('a legacy client beside it is served as before: no _meta, initialize first, no header checks', async () => {
    expect((await post(init('2025-11-25'))).body.result.protocolVersion).toBe('2025-11-25');
    const listed = await post(rpc(10, 'tools/list'), { 'mcp-protocol-version': '2025-11-25' });
    expect(listed.status).toBe(200);
    expect(listed.body.result.resultType).toBeUndefined();
    expect(listed.body.result.tools.length).toBeGreaterThan(10);
  });
});

describe('JSON-RPC errors', () => {
  it('ping answers an empty result', async () => {
    expect((await post(rpc('p-1', 'ping'))).body).toEqual({ jsonrpc: '2.0', id: 'p-1', result: {} });
  });

  it('an unknown method is -32601 with the request\'s id and the methods there are', async () => {
    const r = await post(rpc(8, 'resources/list'));
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(8);
    expect(r.body.error.code).toBe(-32601);
    expect(r.body.error.message).toMatch(/^Method not found: "resources\/list"\. This server answers initialize, ping, tools\/list, tools\/call/);
  });

  it('bad params are -32602 with a sentence naming the member', async () => {
    const cases: [string, RegExp][] = [
      [rpc(1, 'initialize', { capabilities: {} }), /"params\.protocolVersion" must be/],
      [init('2025-06-18', 'all'), /"params\.capabilities" must be an object; got a string/],
      [rpc(2, 'tools/list', { cursor: 5 }), /"cursor" must be the nextCursor string .* got a number/],
      [rpc(3, 'tools/list', 'all'), /"params" must be an object \(or left out\); got a string/],
      [rpc(4, 'tasks/get', { taskId: 7 }), /"params\.taskId" must be the taskId/],
    ];
    for (const [raw, said] of cases) {
      const r = await post(raw);
      expect(r.body.error.code, raw).toBe(-32602);
      expect(r.body.error.message, raw).toMatch(said);
      expect(r.body.id).toBe(JSON.parse(raw).id);
    }
  });

  it('not JSON is -32700 (HTTP 400, id null)', async () => {
    const r = await post('{"jsonrpc": "2.0", "id": 1,');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('an invalid request is -32600: with its id when it has a usable one, else null and HTTP 400', async () => {
    const noVersion = await post(JSON.stringify({ id: 5, method: 'ping' }));
    expect(noVersion.status).toBe(200);
    expect(noVersion.body).toMatchObject({ id: 5, error: { code: -32600, message: expect.stringMatching(/"jsonrpc" must be "2\.0"/) } });
    const noMethod = await post(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 42 }));
    expect(noMethod.body).toMatchObject({ id: 6, error: { code: -32600, message: expect.stringMatching(/"method" must be .* got a number/) } });
    for (const raw of [JSON.stringify({ jsonrpc: '2.0', id: 1.5, method: 'ping' }), JSON.stringify({ jsonrpc: '2.0', id: null, method: 'ping' }), '"ping"', '42']) {
      const r = await post(raw);
      expect(r.status, raw).toBe(400);
      expect(r.body, raw).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
  });

  it('a key given twice outside the arguments is -32600 with the request\'s id (null when "id" is the key)', async () => {
    const twice = await post('{"jsonrpc": "2.0", "id": 31, "method": "tools/list", "params": {"cursor": "a", "cursor": "b"}}');
    expect(twice.body).toMatchObject({ id: 31, error: { code: -32600, message: expect.stringMatching(/"params\.cursor" is given more than once/) } });
    const idTwice = await post('{"jsonrpc": "2.0", "id": 32, "id": 33, "method": "ping"}');
    expect(idTwice.status).toBe(400);
    expect(idTwice.body).toMatchObject({ id: null, error: { code: -32600 } });
  });
});

describe('an over-deep body is refused before it is parsed, with the request\'s id', () => {
  const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
  it.each([
    ['a number id before the params', `{"jsonrpc": "2.0", "id": 41, "method": "tools/call", "params": {"name": "getWorkspace", "arguments": {"x": ${deep}}}}`, 41],
    ['a string id after the params', `{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "getWorkspace", "id": "inner", "arguments": {"id": "no", "x": ${deep}}}, "id": "call-42"}`, 'call-42'],
    ['"id" inside a string is no member', `{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "\\"id\\": 7", "arguments": {"x": ${deep}}}}`, null],
    ['a batch has no one id', `[{"jsonrpc": "2.0", "id": 43, "method": "tools/call", "params": {"name": "getWorkspace", "arguments": {"x": ${deep}}}}]`, null],
  ])('%s', async (_what, raw, id) => {
    const r = await post(raw);
    expect(r.body.id).toBe(id);
    expect(r.status).toBe(id === null ? 400 : 200);
    expect(r.body.error).toMatchObject({ code: -32602, data: { code: 'INVALID_PARAMETER', details: { expected: 'at most 64 levels of nested arrays and objects' } } });
  });
});

describe('batches, notifications and headers', () => {
  it('answers a batch in one array, in the order of its requests; notifications get no answer', async () => {
    const raw = `[${rpc(1, 'ping')}, {"jsonrpc": "2.0", "method": "notifications/initialized"}, ${rpc('b', 'tools/list')}, ${rpc(3, 'nope')}]`;
    const r = await post(raw);
    expect(r.status).toBe(200);
    expect(r.body.map((a: { id: unknown }) => a.id)).toEqual([1, 'b', 3]);
    expect(r.body[1].result.tools.length).toBeGreaterThan(0);
    expect(r.body[2].error.code).toBe(-32601);
  });

  it('a malformed member of a batch is answered in place, the others as usual', async () => {
    const r = await post(`[${rpc(1, 'tools/call')}, ${rpc(2, 'ping')}]`);
    expect(r.body).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: expect.stringMatching(/"params" is missing/) } },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
  });

  it('refuses an empty batch, one over the limit, and initialize inside a batch (HTTP 400)', async () => {
    expect((await post('[]')).body.error.code).toBe(-32600);
    const many = await post(`[${Array.from({ length: MAX_BATCH + 1 }, (_, i) => rpc(i, 'ping')).join(',')}]`);
    expect(many.status).toBe(400);
    expect(many.body.error).toEqual({ code: -32600, message: `Invalid Request: Batch must not exceed ${MAX_BATCH} messages` });
    const inits = await post(`[${init('2025-06-18')}, ${rpc(2, 'ping')}]`);
    expect(inits.status).toBe(400);
    expect(inits.body.error.message).toBe('Invalid Request: Only one initialization request is allowed');
  });

  it('notifications and responses alone are accepted with 202 and no body', async () => {
    for (const raw of ['{"jsonrpc": "2.0", "method": "notifications/initialized"}', '{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}', '{"jsonrpc": "2.0", "id": 9, "result": {}}']) {
      const r = await post(raw);
      expect(r.status, raw).toBe(202);
      expect(r.text).toBe('');
    }
  });

  it('a body that is not JSON by its Content-Type is 415, as the SDK transport answers it; a charset is fine', async () => {
    const r = await post(rpc(1, 'ping'), { 'content-type': 'text/plain' });
    expect(r.status).toBe(415);
    expect(r.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' } });
    expect((await post(rpc(1, 'ping'), { 'content-type': 'application/json; charset=utf-8' })).status).toBe(200);
  });
});
