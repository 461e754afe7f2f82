import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { mcpRoutes } from '../../shared/http/mcp';
import { openState, REQUEST_STATE_TTL_MS, sealState } from '../../shared/mcp/input';
import { Browser, localServer } from '../identity/helpers';
import { conformanceFixture } from './fixture';

/**
 * The official client's new generation (@modelcontextprotocol/client 2.x) against the local
 * server over a real socket, speaking 2026-07-28: it discovers, lists, calls a tool of a twin, and
 * completes multi round-trip input — the connect link of a connection that is not signed in yet
 * (a URL elicitation), and a form elicitation raised with askForm (test/mcp/fixture.ts). The SDK
 * 1.x tests (test/mcp/local.test.ts, protocol.test.ts, tasks.test.ts) keep judging 2025-11-25.
 */
let s: Awaited<ReturnType<typeof localServer>>;
let fixture: ReturnType<typeof serve>;
const clients: Client[] = [];

beforeAll(async () => {
  s = await localServer();
  const app = new Hono();
  mcpRoutes(app, s.rt, 1_000_000, { path: '/fixture/mcp', source: conformanceFixture });
  fixture = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => fixture.once('listening', resolve));
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  fixture.close();
  await s.close();
});

type Elicit = (params: Record<string, any>) => Promise<Record<string, unknown>>;

/** A 2.x client pinned to 2026-07-28, declaring form and URL elicitation when given a handler. */
async function connect(url: string, headers: Record<string, string>, elicit?: Elicit): Promise<Client> {
  const client = new Client({ name: 'test-host-v2', version: '2.0.0' }, { capabilities: elicit ? { elicitation: { form: {}, url: {} } } : {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  if (elicit) client.setRequestHandler('elicitation/create', async (request) => elicit(request.params as Record<string, any>) as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const textOf = (r: unknown) => (r as { content: { text: string }[] }).content[0]!.text;

describe('@modelcontextprotocol/client 2.x, revision 2026-07-28', () => {
  it('connects without initialize, lists the platform\'s tools and calls one against the twin', async () => {
    const client = await connect(`${s.base}/v1/mcp/dbapp`, { authorization: `Bearer ${SANDBOX_KEYS.owner}` });
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getServerVersion()).toMatchObject({ name: 'tool-execution-service-dbapp' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('createWorkspace');
    const created = await client.callTool({ name: 'createWorkspace', arguments: { name: 'From MCP 2026', type: 'open' } });
    expect(created.isError).toBeFalsy();
    expect(textOf(await client.callTool({ name: 'listWorkspaces', arguments: {} }))).toContain('From MCP 2026');
  });

  it('a connection not signed in yet: the call answers its connect link as a URL elicitation; after the sign-in the retry runs the call', async () => {
    const { key } = await s.createKey('acme-mrtr', { platforms: ['dbapp'] });
    const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'user-mrtr', auth: 'api_key' } });
    const connection = created.body.data.connection.id as string;
    const asked: Record<string, any>[] = [];
    const client = await connect(`${s.base}/v1/mcp/dbapp`, { authorization: `Bearer ${key}`, 'x-connection-id': connection }, async (params) => {
      asked.push(params);
      // The person opens the link and connects the account; then the client retries.
      await new Browser().connectKey(params.url, SANDBOX_KEYS.owner);
      return { action: 'accept' };
    });
    const result = await client.callTool({ name: 'listWorkspaces', arguments: {} });
    expect(asked).toEqual([{ mode: 'url', message: expect.stringMatching(/^Connect your dbapp account/), url: expect.stringContaining('/v1/connect/') }]);
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/workspace/i);
  });

  it('a client that declared no elicitation keeps the UNAUTHORIZED error with the link in details', async () => {
    const { key } = await s.createKey('acme-no-elicit', { platforms: ['dbapp'] });
    const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'user-plain', auth: 'api_key' } });
    const client = await connect(`${s.base}/v1/mcp/dbapp`, { authorization: `Bearer ${key}`, 'x-connection-id': created.body.data.connection.id });
    const result = await client.callTool({ name: 'listWorkspaces', arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({ error: { code: 'UNAUTHORIZED', details: { status: 'pending', reconnect_url: expect.stringContaining('/v1/connect/') } } });
  });

  it('askForm: a form elicitation round through the client\'s own handler (fixture tool)', async () => {
    const port = (fixture.address() as AddressInfo).port;
    const client = await connect(`http://127.0.0.1:${port}/fixture/mcp`, { authorization: `Bearer ${SANDBOX_KEYS.owner}` }, async (params) => {
      expect(params).toMatchObject({ mode: 'form', message: 'What is your name?', requestedSchema: { properties: { name: { type: 'string' } } } });
      return { action: 'accept', content: { name: 'Ada' } };
    });
    expect(textOf(await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} }))).toBe('Hello, Ada!');
  });
});

describe('tools/list caching hints', () => {
  const list = (key: string) =>
    fetch(`${s.base}/v1/mcp/dbapp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'l', method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
    }).then(async (r) => (await r.json()) as any);

  it('public for a list every caller of the URL gets; private where a service key\'s policy filters it', async () => {
    const open = await list(SANDBOX_KEYS.owner);
    expect(open.result).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'public' });
    const { key } = await s.createKey('acme-cache', { platforms: ['dbapp'] });
    const filtered = await list(key);
    expect(filtered.result).toMatchObject({ ttlMs: 300_000, cacheScope: 'private' });
    expect(filtered.result.tools.map((t: { name: string }) => t.name)).toEqual(open.result.tools.map((t: { name: string }) => t.name));
  });
});

describe('requestState', () => {
  const post = (key: string, params: Record<string, unknown>, name = 'createWorkspace') =>
    fetch(`${s.base}/v1/mcp/dbapp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } } } } }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  const binding = (args: Record<string, unknown>) => ({ owner: 'owner-a', tool: 'createWorkspace', args });

  it('opens for its caller, tool and exact arguments only, until it expires', async () => {
    const args = { name: 'W', type: 'open' };
    const state = await sealState(s.rt, binding(args), { step: 1 });
    expect(await openState(s.rt, binding(args), state)).toEqual({ step: 1 });
    await expect(openState(s.rt, binding({ name: 'W2', type: 'open' }), state)).rejects.toMatchObject({ code: -32602 });
    await expect(openState(s.rt, { ...binding(args), owner: 'owner-b' }, state)).rejects.toMatchObject({ code: -32602 });
    await expect(openState(s.rt, { ...binding(args), tool: 'deleteWorkspace' }, state)).rejects.toMatchObject({ code: -32602 });
    await expect(openState(s.rt, binding(args), state, Date.now() + REQUEST_STATE_TTL_MS + 1_000)).rejects.toMatchObject({ message: expect.stringMatching(/expired/) });
    const flipped = Buffer.from(state, 'base64url');
    flipped.writeUInt8(flipped.readUInt8(flipped.length - 5) ^ 1, flipped.length - 5);
    await expect(openState(s.rt, binding(args), flipped.toString('base64url'))).rejects.toMatchObject({ code: -32602 });
  });

  it('a foreign or altered state on a write is refused (-32602) and nothing runs', async () => {
    const foreign = await sealState(s.rt, binding({ name: 'Never made', type: 'open' }), null);
    const refused = await post(SANDBOX_KEYS.owner, { arguments: { name: 'Never made', type: 'open' }, inputResponses: { connect: { action: 'accept' } }, requestState: foreign });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ id: 7, error: { code: -32602, message: expect.stringMatching(/^Invalid requestState: .*Nothing was run/) } });
    const garbage = await post(SANDBOX_KEYS.owner, { arguments: { name: 'Never made', type: 'open' }, requestState: 'not-a-state' });
    expect(garbage.body.error.code).toBe(-32602);
    const listed = await post(SANDBOX_KEYS.owner, { arguments: {} }, 'listWorkspaces');
    expect(listed.body.result.content[0].text).not.toContain('Never made');
  });
});
