import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { platformCases } from '../helpers/platforms';
import { localMcp, resultText as text } from '../helpers/mcp-client';
import { modelInputSchema } from '../../shared/catalog/model-schema';

/** The official SDK client against the local server over a real socket. */
const mcp = localMcp(platformCases[0]!.keys.owner);
const { connect } = mcp;

describe.each(platformCases)('MCP at /v1/mcp/$name', (c) => {
  it('lists every tool of the platform with the catalog\'s JSON Schema (the model\'s view) and MCP annotations', async () => {
    const client = await connect(`/v1/mcp/${c.name}`, c.keys.owner);
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await client.listTools();
    const catalog = await fetch(`${mcp.local.base}/v1/tools/${c.name}`, { headers: { authorization: `Bearer ${c.keys.owner}` } });
    const expected = ((await catalog.json()) as { data: { tools: { name: string; input_schema: Record<string, unknown>; annotations: Record<string, boolean> }[] } }).data.tools;
    expect(tools.map((t) => t.name)).toEqual(expected.map((t) => t.name));
    for (const [i, t] of tools.entries()) {
      const { $schema: _, ...schema } = expected[i]!.input_schema;
      // The same parameters, as a model reads them (shared/catalog/model-schema.ts).
      expect(t.inputSchema).toEqual(modelInputSchema(schema));
      expect(t.annotations).toMatchObject({
        readOnlyHint: expected[i]!.annotations.readOnly,
        destructiveHint: expected[i]!.annotations.destructive,
        idempotentHint: expected[i]!.annotations.idempotent,
        openWorldHint: true,
        title: expect.any(String),
      });
    }
  });

  it('calls its read-only probe through execute: the same text as the HTTP protocol', async () => {
    const client = await connect(`/v1/mcp/${c.name}`, c.keys.owner);
    const result = await client.callTool({ name: c.probe.tool, arguments: c.probe.params });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toMatch(c.answer.text);
  });
});

describe('MCP calls and errors (dbapp)', () => {
  it('calls a write tool: the workspace it creates is there afterwards', async () => {
    const client = await connect('/v1/mcp/dbapp');
    const created = await client.callTool({ name: 'createWorkspace', arguments: { name: 'From MCP', type: 'open' } });
    expect(created.isError).toBeFalsy();
    expect(text(created)).toContain('From MCP');
    const listed = await client.callTool({ name: 'listWorkspaces', arguments: {} });
    expect(text(listed)).toContain('From MCP');
  });

  it('a write repeated with the same idempotency key in _meta runs once; the replay says so in the result\'s _meta', async () => {
    const client = await connect('/v1/mcp/dbapp');
    const call = { name: 'createWorkspace', arguments: { name: 'Replayed over MCP', type: 'open' }, _meta: { idempotency_key: 'mcp-replay-7f3a' } };
    const first = await client.callTool(call);
    expect(first.isError).toBeFalsy();
    expect(first._meta?.idempotent_replayed).toBeUndefined();
    const second = await client.callTool(call);
    expect(second.isError).toBeFalsy();
    expect(second._meta).toEqual({ idempotent_replayed: true });
    expect(text(second)).toBe(text(first));
    const listed = text(await client.callTool({ name: 'listWorkspaces', arguments: {} }));
    expect(listed.split('Replayed over MCP').length - 1).toBe(1);
  });

  it('answers a tool error as an isError result carrying the error envelope (code, message, parameter)', async () => {
    const client = await connect('/v1/mcp/dbapp');
    const result = await client.callTool({ name: 'createWorkspace', arguments: { name: 'x', type: 'nope' } });
    expect(result.isError).toBe(true);
    const body = JSON.parse(text(result));
    expect(body).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER', details: { parameter: 'type' } } });
  });

  it('answers an unknown tool as a JSON-RPC error (a protocol error), not a result', async () => {
    const client = await connect('/v1/mcp/dbapp');
    const err = await client.callTool({ name: 'noSuchTool', arguments: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32602);
    expect((err as McpError).message).toBe('MCP error -32602: Unknown tool "noSuchTool" on this endpoint. List the tools with tools/list.');
  });

  it('passes a wrong key through to the vendor: its refusal comes back as an UNAUTHORIZED tool error', async () => {
    const client = await connect('/v1/mcp/dbapp', 'wrong-key');
    const result = await client.callTool({ name: 'listWorkspaces', arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.parse(text(result))).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
  });

  it('with ?format=json carries the JSON result as structuredContent beside the compact text', async () => {
    const client = await connect('/v1/mcp/dbapp?format=json');
    const result = await client.callTool({ name: 'listWorkspaces', arguments: {} });
    const data = result.structuredContent as { total: number; workspaces: { workspace_id: number; name: string }[] };
    expect(data.total).toBe(data.workspaces.length);
    expect(data.workspaces[0]).toMatchObject({ workspace_id: 1, name: 'Task management' });
    expect(text(result)).toMatch(new RegExp(`^#1 Task management[^]*\\n${data.total} workspaces$`));
  });

  it('drops nulls for omitted optionals on the way in (what OpenAI strict mode sends)', async () => {
    const client = await connect('/v1/mcp/dbapp');
    const result = await client.callTool({ name: 'createWorkspace', arguments: { name: 'Nulls', type: 'open', description: null } });
    expect(result.isError).toBeFalsy();
  });

  it('?read_only=true serves only read tools, and refuses a write tool as not served', async () => {
    const client = await connect('/v1/mcp/dbapp?read_only=true');
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.map((t) => t.name)).toContain('listWorkspaces');
    const err = await client.callTool({ name: 'createWorkspace', arguments: { name: 'x', type: 'open' } }).catch((e: unknown) => e);
    expect((err as McpError).code).toBe(-32602);
  });

  it('pages tools/list with cursors when asked (?page_size=)', async () => {
    const client = await connect('/v1/mcp/dbapp?page_size=20');
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      expect(page.tools.length).toBeLessThanOrEqual(20);
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    const all = await (await connect('/v1/mcp/dbapp')).listTools();
    expect(names).toEqual(all.tools.map((t) => t.name));
    expect(pages).toBe(Math.ceil(all.tools.length / 20));
    const bad = await client.listTools({ cursor: 'garbage' }).catch((e: unknown) => e);
    expect((bad as McpError).code).toBe(-32602);
  });
});

describe('MCP at /v1/mcp: every platform', () => {
  it('lists every platform\'s tools as <platform>_<tool>, plus search_tools', async () => {
    const client = await connect('/v1/mcp');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names[0]).toBe('search_tools');
    for (const c of platformCases) expect(names).toContain(`${c.name}_${c.probe.tool}`);
    expect(new Set(names).size).toBe(names.length);
  });

  it('calls a tool of each platform by its prefixed name: the same answer as its own endpoint', async () => {
    for (const c of platformCases) {
      // The key of each platform's twin: the bearer key is passed through to whichever vendor the tool calls.
      const all = await connect('/v1/mcp', c.keys.owner);
      const own = await connect(`/v1/mcp/${c.name}`, c.keys.owner);
      const result = await all.callTool({ name: `${c.name}_${c.probe.tool}`, arguments: c.probe.params });
      expect(result.isError, c.name).toBeFalsy();
      expect(text(result), c.name).toBe(text(await own.callTool({ name: c.probe.tool, arguments: c.probe.params })));
    }
  });

  it('search_tools finds a tool by what it does, named as it is called here', async () => {
    const client = await connect('/v1/mcp?format=json');
    const result = await client.callTool({ name: 'search_tools', arguments: { query: 'find properties with high equity in Phoenix', limit: 3 } });
    const found = (result.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(found).toContain('realty_searchProperties');
    expect(text(result)).toContain('realty_searchProperties');
    const bad = await client.callTool({ name: 'search_tools', arguments: { query: 'x', platform: 'nowhere' } });
    expect(bad.isError).toBe(true);
    expect(JSON.parse(text(bad))).toMatchObject({ error: { code: 'INVALID_PARAMETER', details: { parameter: 'platform' } } });
  });
});

describe('MCP over HTTP: what comes before the protocol', () => {
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };
  const post = (path: string, headers: Record<string, string>, body: unknown = init) =>
    fetch(`${mcp.local.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('answers 401 without a bearer key, before anything else', async () => {
    const res = await post('/v1/mcp/dbapp', { accept: 'application/json, text/event-stream' });
    expect(res.status).toBe(401);
    // The challenge names the endpoint's protected-resource metadata (RFC 9728), where a host finds how to sign in.
    expect(res.headers.get('www-authenticate')).toMatch(new RegExp(`^Bearer realm="[^"]*", resource_metadata="${mcp.local.base}/\\.well-known/oauth-protected-resource/v1/mcp/dbapp"$`));
    expect(await res.json()).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
  });

  it.each(['GET', 'DELETE'])('answers %s with 405 (a stateless server keeps no stream or session)', async (method) => {
    const res = await fetch(`${mcp.local.base}/v1/mcp/dbapp`, { method, headers: { authorization: `Bearer ${mcp.local.key}`, accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('takes any Accept (the SDK alone would answer 406 unless both JSON and SSE are named)', async () => {
    for (const accept of [undefined, 'application/json', '*/*']) {
      const res = await post('/v1/mcp/dbapp', { authorization: `Bearer ${mcp.local.key}`, ...(accept ? { accept } : {}) });
      expect(res.status, String(accept)).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'tool-execution-service-dbapp' } } });
    }
  });

  it('keeps no session: no Mcp-Session-Id, and a tools/list without initialize is answered', async () => {
    const first = await post('/v1/mcp/dbapp', { authorization: `Bearer ${mcp.local.key}` });
    expect(first.headers.get('mcp-session-id')).toBeNull();
    const res = await post('/v1/mcp/dbapp', { authorization: `Bearer ${mcp.local.key}`, 'mcp-protocol-version': '2025-06-18' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
  });

  it('answers an unknown platform with 404 and a bad filter with INVALID_PARAMETER naming it', async () => {
    const auth = { authorization: `Bearer ${mcp.local.key}` };
    expect((await post('/v1/mcp/nowhere', auth)).status).toBe(404);
    const res = await post('/v1/mcp/dbapp?read_only=yes', auth);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'INVALID_PARAMETER', details: { parameter: 'read_only' } } });
  });

  it('refuses a foreign Host or Origin (DNS-rebinding protection), and takes its own', async () => {
    const port = new URL(mcp.local.base).port;
    const auth = { authorization: `Bearer ${mcp.local.key}` };
    // fetch sets Host from the URL; a raw request names another host as a rebinding page would.
    const { request } = await import('node:http');
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: Number(port), path: '/v1/mcp/dbapp', method: 'POST', headers: { 'content-type': 'application/json', ...auth, ...headers } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(JSON.stringify(init));
      });
    expect(await status({ host: 'evil.example' })).toBe(403);
    expect(await status({ host: `evil.example:${port}` })).toBe(403);
    expect(await status({ host: `127.0.0.1:${port}`, origin: 'http://evil.example' })).toBe(403);
    expect(await status({ host: `127.0.0.1:${port}`, origin: 'null' })).toBe(403);
    expect(await status({ host: `127.0.0.1:${port}` })).toBe(200);
    expect(await status({ host: `localhost:${port}`, origin: `http://localhost:${port}` })).toBe(200);
  });
});
