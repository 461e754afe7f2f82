import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/core/config';
import { lambdaHandler } from '../../shared/lambda/handler';
import { MemoryStore } from '../../shared/store/memory';
import { httpApiV2Event, lambdaContext, viaLambda } from '../../infra/lambda-events';
import { platformCases, type PlatformCase } from '../helpers/platforms';

/** The platform's Lambda entry, wired in-process to a fresh twin of its vendor. */
function makeHandler(c: PlatformCase) {
  const twin = c.twin();
  return lambdaHandler(c.platform, { fetchFor: { [c.name]: twin.fetch }, store: new MemoryStore(), config: loadConfig({}) });
}

const clients: Client[] = [];
afterAll(() => Promise.all(clients.map((c) => c.close())));

async function connect(c: PlatformCase, handler: ReturnType<typeof makeHandler>, key = c.keys.owner, query = ''): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`https://a1b2c3d4e5.execute-api.eu-central-1.amazonaws.com/v1/mcp/${c.name}${query}`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: viaLambda(handler),
  });
  const client = new Client({ name: 'lambda-host', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const text = (r: unknown) => (r as { content: { type: string; text: string }[] }).content[0]!.text;

describe.each(platformCases)('MCP through the $name Lambda handler', (c) => {
  const handler = makeHandler(c);

  it('lists the platform\'s tools and calls its read-only probe', async () => {
    const client = await connect(c, handler);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain(c.probe.tool);
    expect(tools.every((t) => t.inputSchema.type === 'object' && typeof t.annotations?.readOnlyHint === 'boolean')).toBe(true);
    const result = await client.callTool({ name: c.probe.tool, arguments: c.probe.params });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toMatch(c.answer.text);
  });

  it('a 2026-07-28 client (@modelcontextprotocol/client 2.x) discovers, lists and calls the probe: no initialize', async () => {
    const client = new ModernClient({ name: 'lambda-host-v2', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new ModernTransport(new URL(`https://a1b2c3d4e5.execute-api.eu-central-1.amazonaws.com/v1/mcp/${c.name}`), { requestInit: { headers: { authorization: `Bearer ${c.keys.owner}` } }, fetch: viaLambda(handler) }));
    expect(client.getProtocolEra()).toBe('modern');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain(c.probe.tool);
    const result = await client.callTool({ name: c.probe.tool, arguments: c.probe.params });
    expect(text(result)).toMatch(c.answer.text);
    await client.close();
  });

  it('answers 401 without a key and 405 on GET, as API Gateway events', async () => {
    const unauth = (await handler(httpApiV2Event({ method: 'POST', path: `/v1/mcp/${c.name}`, headers: { 'content-type': 'application/json' }, body: '{}' }), lambdaContext())) as APIGatewayProxyStructuredResultV2;
    expect(unauth.statusCode).toBe(401);
    const get = (await handler(httpApiV2Event({ method: 'GET', path: `/v1/mcp/${c.name}`, headers: { authorization: `Bearer ${c.keys.owner}` } }), lambdaContext())) as APIGatewayProxyStructuredResultV2;
    expect(get.statusCode).toBe(405);
  });

  it('serves its OpenAPI document at /v1/openapi/<platform>.json, with API Gateway\'s domain as server', async () => {
    const res = (await handler(httpApiV2Event({ method: 'GET', path: `/v1/openapi/${c.name}.json` }), lambdaContext())) as APIGatewayProxyStructuredResultV2;
    expect(res.statusCode).toBe(200);
    const doc = JSON.parse(res.body!) as { servers: { url: string }[]; paths: Record<string, unknown> };
    expect(doc.servers[0]!.url).toBe('https://a1b2c3d4e5.execute-api.eu-central-1.amazonaws.com');
    expect(Object.keys(doc.paths)).toContain(`/v1/tools/${c.name}/${c.probe.tool}`);
    expect(Object.keys(doc.paths).every((p) => p.startsWith(`/v1/tools/${c.name}/`))).toBe(true);
  });
});

describe('MCP through the dbapp Lambda handler: writes and errors', () => {
  const c = platformCases.find((p) => p.name === 'dbapp')!;
  const handler = makeHandler(c);

  it('calls a write tool, then sees its effect with a read tool', async () => {
    const client = await connect(c, handler);
    const created = await client.callTool({ name: 'createWorkspace', arguments: { name: 'Via Lambda', type: 'open' } });
    expect(created.isError).toBeFalsy();
    expect(text(await client.callTool({ name: 'listWorkspaces', arguments: {} }))).toContain('Via Lambda');
  });

  it('returns a tool error as an isError result with the envelope', async () => {
    const client = await connect(c, handler);
    const result = await client.callTool({ name: 'getWorkspace', arguments: { workspace_id: 'abc' } });
    expect(result.isError).toBe(true);
    expect(JSON.parse(text(result))).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER', details: { parameter: 'workspace_id' } } });
  });
});

describe('safe writes through MCP _meta', () => {
  const c = platformCases.find((p) => p.name === 'dbapp')!;

  it('dry_run answers the plan and writes nothing; idempotency_key replays without a second write', async () => {
    const twin = c.twin();
    const writes: string[] = [];
    const recorded = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      if ((init?.method ?? 'GET') !== 'GET') writes.push(`${init?.method} ${new URL(String(input)).pathname}`);
      return twin.fetch(input, init);
    }) as typeof fetch;
    const handler = lambdaHandler(c.platform, { fetchFor: { dbapp: recorded }, store: new MemoryStore(), config: loadConfig({}) });
    const client = await connect(c, handler);
    const args = { name: 'Launch plan', type: 'open' };

    const plan = await client.callTool({ name: 'createWorkspace', arguments: args, _meta: { dry_run: true } });
    expect(plan.isError).toBeFalsy();
    expect(text(plan)).toMatch(/POST \/v1\/workspace/);
    expect(writes).toEqual([]);

    const first = await client.callTool({ name: 'createWorkspace', arguments: args, _meta: { idempotency_key: 'mcp-create-1' } });
    const again = await client.callTool({ name: 'createWorkspace', arguments: args, _meta: { idempotency_key: 'mcp-create-1' } });
    expect(text(again)).toBe(text(first));
    expect(writes).toHaveLength(1);
  });
});
