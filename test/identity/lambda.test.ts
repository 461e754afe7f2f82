import { randomBytes } from 'node:crypto';
import { GetParameterCommand } from '@aws-sdk/client-ssm';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { dbapp } from '../../functions/dbapp';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';
import { loadConfig } from '../../shared/core/config';
import { crm } from '../../functions/crm';
import { platforms } from '../../functions/platforms';
import { createHubSpotTwin } from '../../infra/twins/hubspot';
import { IDENTITY_ROUTES } from '../../shared/identity/openapi';
import { Validator } from '@seriousme/openapi-schema-validator';
import { lambdaHandler } from '../../shared/lambda/handler';
import { approvalRoutes } from '../../shared/identity/approval-routes';
import { IDENTITY_MOUNTS } from '../../shared/http/app';
import { MemoryStore } from '../../shared/store/memory';
import { httpApiV2Event, lambdaContext, type HttpRequest } from '../../infra/lambda-events';
import { mockSsm } from '../helpers/ssm-mock';

const ssm = mockSsm();

/** The identity function as functions/identity/handler.ts builds it, over a test's store. */
// As functions/identity/handler.ts mounts them: the identity routes are that function's alone.
const identityHandler = (described: typeof platforms, options: Parameters<typeof lambdaHandler>[1]) => lambdaHandler({ name: 'identity', platforms: [], describes: described, routes: [...IDENTITY_MOUNTS, approvalRoutes] }, options);

describe('as deployed: the identity Lambda and a platform Lambda over one store', () => {
  const store = new MemoryStore();
  let identity: ReturnType<typeof identityHandler>;
  const http = async (r: Omit<HttpRequest, 'method'> & { method: string }) => {
    const res = (await identity(httpApiV2Event(r as HttpRequest) as never, lambdaContext())) as APIGatewayProxyStructuredResultV2;
    return { status: res.statusCode, body: res.body!, headers: res.headers ?? {} };
  };
  beforeAll(() => {
    vi.stubEnv('VAULT_KEY', randomBytes(32).toString('base64'));
    vi.stubEnv('ADMIN_TOKEN', 'adm_lambda_test');
    vi.stubEnv('PUBLIC_BASE_URL', 'https://tes.example.com');
    identity = identityHandler(platforms, { store, config: loadConfig({}) });
  });

  it('creates a key and a connection there; a scheduled job calls a tool with the key from SSM and the connection id', async () => {
    const made = await http({ method: 'POST', path: '/v1/admin/keys', headers: { authorization: 'Bearer adm_lambda_test', 'content-type': 'application/json' }, body: JSON.stringify({ tenant: 'jobs', policy: { platforms: ['dbapp'], read_only: true } }) });
    expect(made.status).toBe(201);
    const key = JSON.parse(made.body).data.key as string;
    // A read-only key manages no connections (shared/identity/policy.ts): the tenant's admin key makes it.
    const admin = await http({ method: 'POST', path: '/v1/admin/keys', headers: { authorization: 'Bearer adm_lambda_test', 'content-type': 'application/json' }, body: JSON.stringify({ tenant: 'jobs', policy: { platforms: ['dbapp'] } }) });
    const conn = await http({ method: 'POST', path: '/v1/connections', headers: { authorization: `Bearer ${JSON.parse(admin.body).data.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ platform: 'dbapp', end_user: 'ops' }) });
    const { connection, connect_url } = JSON.parse(conn.body).data;
    expect(connect_url).toMatch(/^https:\/\/tes\.example\.com\/v1\/connect\//);
    const page = await http({ method: 'GET', path: new URL(connect_url).pathname });
    expect(page.body).toContain('Tape API key');
    const form = await http({ method: 'POST', path: new URL(connect_url).pathname, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ api_key: SANDBOX_KEYS.owner }).toString() });
    expect(form.body).toContain('id="connected"');

    ssm.on(GetParameterCommand, { Name: '/tes/jobs/key' }).resolves({ Parameter: { Name: '/tes/jobs/key', Type: 'SecureString', Value: key } });
    const platform = lambdaHandler(dbapp, { store, fetchFor: { dbapp: createTapeTwin().fetch }, config: loadConfig({}) });
    const result = await platform({ tool: 'listWorkspaces', params: {}, format: 'json', key_parameter: '/tes/jobs/key', connection_id: connection.id }, lambdaContext());
    expect(result).toMatchObject({ success: true, data: { total: 2 } });
    const refused = await platform({ tool: 'createWorkspace', params: { name: 'x' }, format: 'json', key_parameter: '/tes/jobs/key', connection_id: connection.id }, lambdaContext());
    expect(refused).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
    const missing = await platform({ tool: 'listWorkspaces', params: {}, key_parameter: '/tes/jobs/key' }, lambdaContext());
    expect(missing).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER', details: { parameter: 'X-Connection-Id' } } });
    const bad = await platform({ tool: 'listWorkspaces', params: {}, key_parameter: '/tes/jobs/key', connection_id: 42 as unknown as string }, lambdaContext());
    expect(bad).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER', details: { parameter: 'connection_id' } } });
  });
});

describe('as deployed: the combined MCP Lambda (function `mcp`)', () => {
  it("lists and calls every platform's tools at /v1/mcp, and serves the OpenAPI of every platform", async () => {
    const fn = lambdaHandler({ name: 'mcp', platforms: [dbapp, crm] }, { store: new MemoryStore(), fetchFor: { dbapp: createTapeTwin().fetch, crm: createHubSpotTwin().fetch }, config: loadConfig({}) });
    const http = async (r: HttpRequest) => (await fn(httpApiV2Event(r) as never, lambdaContext())) as APIGatewayProxyStructuredResultV2;
    const rpc = (body: unknown) => http({ method: 'POST', path: '/v1/mcp', headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify(body) });
    const listed = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect(listed.statusCode).toBe(200);
    const names = (JSON.parse(listed.body!).result.tools as { name: string }[]).map((t) => t.name);
    // Both platforms' tools, each under its platform's prefix or name as the combined endpoint lists them.
    expect(names.some((n) => /listWorkspaces/.test(n))).toBe(true);
    expect(names.some((n) => /getPipelines/.test(n))).toBe(true);
    const called = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: names.find((n) => /listWorkspaces/.test(n)), arguments: {} } });
    expect(JSON.parse(called.body!).result.isError).toBeFalsy();
    const unauth = await http({ method: 'POST', path: '/v1/mcp', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(unauth.statusCode).toBe(401);
    expect(unauth.headers?.['www-authenticate'] ?? unauth.headers?.['WWW-Authenticate']).toContain('/.well-known/oauth-protected-resource/v1/mcp');

    const all = JSON.parse((await http({ method: 'GET', path: '/v1/openapi.json' })).body!) as { paths: Record<string, unknown> };
    expect(Object.keys(all.paths).some((p) => p.startsWith('/v1/tools/crm/'))).toBe(true);
    expect(Object.keys(all.paths).some((p) => p.startsWith('/v1/tools/dbapp/'))).toBe(true);
  });

  it('the identity function serves the OpenAPI document of the identity routes, each with its own security', async () => {
    const fn = identityHandler(platforms, { store: new MemoryStore(), config: loadConfig({}) });
    const res = (await fn(httpApiV2Event({ method: 'GET', path: '/v1/openapi/identity.json' }) as never, lambdaContext())) as APIGatewayProxyStructuredResultV2;
    expect(res.statusCode).toBe(200);
    const doc = JSON.parse(res.body!) as { paths: Record<string, Record<string, { security?: unknown[] }>>; components: { securitySchemes: Record<string, unknown> } };
    for (const r of IDENTITY_ROUTES) expect(doc.paths[r.path]?.[r.method], `${r.method} ${r.path}`).toBeDefined();
    expect(Object.keys(doc.paths)).toHaveLength(new Set(IDENTITY_ROUTES.map((r) => r.path)).size);
    expect(doc.paths['/v1/admin/keys']!.post!.security).toEqual([{ admin: [] }]);
    expect(doc.paths['/v1/connections']!.post!.security).toEqual([{ serviceKey: [] }]);
    expect(doc.paths['/oauth/token']!.post!.security).toEqual([]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['admin', 'bearer', 'registrationToken', 'serviceKey']);
    const valid = await new Validator().validate(doc as never);
    expect(valid.errors ?? []).toEqual([]);
  });
});
