import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultText } from '../helpers/mcp-client';
import { connectedDbapp, externalIdpServer, hostSignIn, jwksServer, jwt, localServer, providerKey } from '../identity/helpers';

/**
 * Whose tasks a host sees when it signed in through the built-in authorization server: the
 * sign-in's, not one access token's. The host refreshes its token through the real token endpoint
 * (the refresh token rotates, the access token is new) and still reads its task; another client
 * signed in with the same service key does not.
 */
describe('MCP tasks of a signed-in host', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let key: string;
  const clients: Client[] = [];
  const resource = () => `${s.base}/v1/mcp/dbapp`;

  beforeAll(async () => {
    s = await localServer();
    ({ key } = await connectedDbapp(s, 'tenant-tasks'));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await s.close();
  });

  const signIn = () => hostSignIn(s.base, resource(), (browser, form) => browser.submit(form, 'sign-in', { service_key: key }));

  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'task-host', version: '1.0.0' }, { capabilities: { tasks: { list: {}, cancel: {} } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(resource()), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  }

  async function refresh(clientId: string, refreshToken: string): Promise<{ access_token: string; refresh_token: string }> {
    const res = await fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId }) });
    expect(res.status).toBe(200);
    return (await res.json()) as { access_token: string; refresh_token: string };
  }

  const inputs = (tag: string) => Array.from({ length: 3 }, (_, i) => ({ fields: { deal_name: `${tag} ${i}`, stage: ['Discovery'], amount: i } }));

  it('a task created before a token refresh is read, listed and its result fetched with the new token; another client sees nothing', async () => {
    const host = await signIn();
    const before = await connect(host.tokens.access_token);
    const { task } = await before.request({ method: 'tools/call', params: { name: 'batchCreateRecords', arguments: { app_id: 902, inputs: inputs('Refreshed') }, task: { ttl: 60_000 } } }, CreateTaskResultSchema);

    const rotated = await refresh(host.client.client_id, host.tokens.refresh_token);
    expect(rotated.access_token).not.toBe(host.tokens.access_token);
    const after = await connect(rotated.access_token);
    const result = await after.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBeFalsy();
    expect(resultText(result)).toMatch(/^created 3 of 3 records/);
    expect((await after.experimental.tasks.getTask(task.taskId)).status).toBe('completed');
    expect((await after.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toContain(task.taskId);

    // Another host signed in with the same service key: its own sign-in, none of these tasks.
    const other = await connect((await signIn()).tokens.access_token);
    const err = await other.experimental.tasks.getTask(task.taskId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).message).toMatch(/not found/);
    expect((await other.experimental.tasks.listTasks()).tasks).toEqual([]);
    // Nor does the service key itself, presented as a bearer.
    const byKey = await connect(key);
    expect((await byKey.experimental.tasks.listTasks()).tasks).toEqual([]);
  });
});

/** With an external identity provider: a task is its subject's, whichever of the provider's tokens they present. */
describe('MCP tasks of a host signed in through an external identity provider', () => {
  const ISSUER = 'https://idp.test/pool-tasks';
  const rsa = providerKey('RS256', 'rsa-tasks');
  let s: Awaited<ReturnType<typeof localServer>>;
  let jwks: Awaited<ReturnType<typeof jwksServer>>;
  let connection: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    ({ s, jwks } = await externalIdpServer(ISSUER, [rsa], { platforms: ['dbapp'] }));
    ({ connection } = await connectedDbapp(s, 'acme'));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await s?.close();
    await jwks?.close();
  });

  const now = () => Math.floor(Date.now() / 1000);
  const token = (sub: string, iat: number) => jwt(rsa, { iss: ISSUER, aud: `${s.base}/v1/mcp/dbapp`, sub, 'custom:tenant': 'acme', 'custom:connection': connection, iat, exp: iat + 3600 });
  async function connect(bearer: string): Promise<Client> {
    const client = new Client({ name: 'task-host', version: '1.0.0' }, { capabilities: { tasks: { list: {}, cancel: {} } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/v1/mcp/dbapp`), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }));
    clients.push(client);
    return client;
  }

  it('a new token of the same subject sees the task; another subject of the same tenant does not', async () => {
    const first = await connect(token('user-a', now()));
    const rows = Array.from({ length: 2 }, (_, i) => ({ fields: { deal_name: `External ${i}`, stage: ['Discovery'], amount: i } }));
    const { task } = await first.request({ method: 'tools/call', params: { name: 'batchCreateRecords', arguments: { app_id: 902, inputs: rows }, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
    const renewed = token('user-a', now() + 1);
    const later = await connect(renewed);
    expect((await later.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).isError).toBeFalsy();
    expect((await later.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toContain(task.taskId);
    const other = await connect(token('user-b', now()));
    const err = await other.experimental.tasks.getTask(task.taskId).catch((e: unknown) => e);
    expect((err as McpError).message).toMatch(/not found/);
  });
});
