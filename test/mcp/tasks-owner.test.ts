import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { Browser, hostSignIn, localServer } from '../identity/helpers';

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
    key = (await s.createKey('tenant-tasks', { platforms: ['dbapp'] })).key;
    const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'user-1', auth: 'api_key' } });
    await new Browser().connectKey(created.body.data.connect_url, SANDBOX_KEYS.owner);
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

  it('a task created before a token refresh is read, listed and its result fetched with the new token; another client sees nothing', async () => {
    const host = await signIn();
    const before = await connect(host.tokens.access_token);
    const inputs = Array.from({ length: 3 }, (_, i) => ({ fields: { deal_name: `Refreshed ${i}`, stage: ['Discovery'], amount: i } }));
    const { task } = await before.request({ method: 'tools/call', params: { name: 'batchCreateRecords', arguments: { app_id: 902, inputs }, task: { ttl: 60_000 } } }, CreateTaskResultSchema);

    const rotated = await refresh(host.client.client_id, host.tokens.refresh_token);
    expect(rotated.access_token).not.toBe(host.tokens.access_token);
    const after = await connect(rotated.access_token);
    const result = await after.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { successful: number }).successful).toBe(3);
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
