import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultText as text } from '../helpers/mcp-client';
import { signInForm, signInServer } from '../identity/helpers';

/**
 * mcp-remote, the stdio proxy that stdio-only hosts (Claude Desktop, Cursor, Windsurf) put in front
 * of a remote MCP server, as such a host runs it: the official SDK 1.x client speaks 2025-11-25 to
 * mcp-remote over stdio, mcp-remote speaks Streamable HTTP to the local server — with a key in
 * `--header`, or signed in through the service's OAuth as a user would be.
 */
const PROXY = fileURLToPath(new URL('../../node_modules/mcp-remote/dist/proxy.js', import.meta.url));
// Each proxy is a Node process loading a large bundle: generous on a loaded machine.
const CONNECT_MS = 40_000;
const TEST_MS = 60_000;
const WORKSPACES = /^#1 Task management[^]*\n2 workspaces$/;

describe('mcp-remote 0.15.1 in front of the MCP endpoints', () => {
  let f: Awaited<ReturnType<typeof signInServer>>;
  let dir: string;
  beforeAll(async () => {
    f = await signInServer('tenant-remote', { platforms: ['dbapp'] });
    dir = await mkdtemp(join(tmpdir(), 'mcp-remote-'));
  });
  // Closing each client ends its proxy process (stdin closed, then SIGTERM).
  afterAll(async () => {
    await f.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The official SDK 1.x client, not yet connected, and the mcp-remote proxy of `path` it will spawn; the proxy's stderr as it comes. */
  function proxy(path: string, args: string[]) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [PROXY, `${f.s.base}${path}`, '--transport', 'http-only', ...args],
      // Its OAuth client, tokens and lock files in the test's folder, never the user's ~/.mcp-auth.
      // The "browser" it opens is `true`: the test plays the user's browser from the printed URL.
      env: { MCP_REMOTE_CONFIG_DIR: join(dir, 'auth'), BROWSER: 'true', DISPLAY: '', WAYLAND_DISPLAY: '' },
      stderr: 'pipe',
    });
    const log = { text: '' };
    transport.stderr!.on('data', (chunk: Buffer) => (log.text += chunk.toString()));
    const client = new Client({ name: 'stdio-host', version: '1.0.0' });
    f.clients.push(client);
    return { client, transport, log };
  }

  it('with the key in --header: lists and calls a platform endpoint\'s tools and the combined endpoint\'s', { timeout: TEST_MS }, async () => {
    // A service key acts through a connected account: named in a header, or on the endpoint's URL.
    const header = ['--header', `Authorization: Bearer ${f.key}`];
    const own = proxy('/v1/mcp/dbapp', [...header, '--header', `X-Connection-Id: ${f.connection}`]);
    await own.client.connect(own.transport, { timeout: CONNECT_MS });
    expect(own.client.getServerVersion()?.name).toBe('tool-execution-service-dbapp');
    const list = await own.client.listTools();
    // The legacy era end to end: no 2026-07-28 list fields.
    expect(list).not.toHaveProperty('ttlMs');
    expect(list.tools.map((t) => t.name)).toContain('listWorkspaces');
    expect(list.tools.find((t) => t.name === 'listWorkspaces')?.annotations?.readOnlyHint).toBe(true);
    const listed = await own.client.callTool({ name: 'listWorkspaces', arguments: {} });
    expect(listed.isError, text(listed)).toBeFalsy();
    // The tenant's dbapp account on the Tape twin: its sandbox workspaces, as compact text.
    expect(text(listed)).toMatch(WORKSPACES);

    const all = proxy(`/v1/mcp?connection=${f.connection}`, header);
    await all.client.connect(all.transport, { timeout: CONNECT_MS });
    const combined = (await all.client.listTools()).tools.map((t) => t.name);
    expect(combined[0]).toBe('search_tools');
    expect(combined).toContain('dbapp_listWorkspaces');
    expect(text(await all.client.callTool({ name: 'dbapp_listWorkspaces', arguments: {} }))).toBe(text(listed));
    // A tool error crosses the proxy as the service's envelope.
    const bad = await all.client.callTool({ name: 'dbapp_createWorkspace', arguments: { name: 'x', type: 'nope' } });
    expect(bad.isError).toBe(true);
    expect(JSON.parse(text(bad))).toMatchObject({ error: { code: 'INVALID_PARAMETER', details: { parameter: 'type' } } });
  });

  it('with --protocol auto: bridges the 2025-11-25 client to 2026-07-28 after server/discover', { timeout: TEST_MS }, async () => {
    const p = proxy(`/v1/mcp/dbapp?connection=${f.connection}`, ['--header', `Authorization: Bearer ${f.key}`, '--protocol', 'auto']);
    await p.client.connect(p.transport, { timeout: CONNECT_MS });
    const list = await p.client.listTools();
    // Answered in the 2026-07-28 era: its list fields (private: the key's policy filters the list) and serverInfo in _meta.
    expect(list).toMatchObject({ ttlMs: expect.any(Number), cacheScope: 'private', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'tool-execution-service-dbapp' } } });
    expect(list.tools.map((t) => t.name)).toContain('listWorkspaces');
    const result = await p.client.callTool({ name: 'listWorkspaces', arguments: {} });
    expect(result.isError, text(result)).toBeFalsy();
    expect(text(result)).toMatch(WORKSPACES);
  });

  it('without a header: discovers the OAuth metadata, registers, and is signed in through the sign-in page', { timeout: TEST_MS }, async () => {
    // What mcp-remote probes before it binds its callback port: a GET without a key asks for a sign-in.
    const probe = await fetch(`${f.s.base}/v1/mcp/dbapp`, { headers: { accept: 'application/json, text/event-stream' } });
    expect(probe.status).toBe(401);
    expect(probe.headers.get('www-authenticate')).toContain(`resource_metadata="${f.s.base}/.well-known/oauth-protected-resource/v1/mcp/dbapp"`);

    const p = proxy('/v1/mcp/dbapp', ['--auth-timeout', '50']);
    const connected = p.client.connect(p.transport, { timeout: CONNECT_MS + 50_000 });
    // mcp-remote prints the authorization URL (and hands it to BROWSER); the user's browser takes it from there.
    const authorizationUrl = await new Promise<URL>((resolve, reject) => {
      const seen = () => {
        const m = /Please authorize this client by visiting:\s+(\S+)/.exec(p.log.text);
        if (m) resolve(new URL(m[1]!));
      };
      p.transport.stderr!.on('data', seen);
      connected.catch(reject);
      seen();
    });
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${f.s.base}/oauth/authorize`);
    const clientId = authorizationUrl.searchParams.get('client_id');
    expect(clientId).toMatch(/^mcp_/);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${f.s.base}/v1/mcp/dbapp`);
    const redirect = new URL(authorizationUrl.searchParams.get('redirect_uri')!);
    expect(redirect.hostname).toBe('localhost');

    // The user signs in with the tenant's service key and allows; our redirect carries the code to mcp-remote's callback.
    const { browser, consent } = await signInForm(authorizationUrl, f.key);
    expect(consent.html).toContain(f.connection);
    const back = await browser.submit(consent, 'consent', { decision: 'allow' });
    expect(`${new URL(back.url).origin}${new URL(back.url).pathname}`).toBe(redirect.toString());
    expect(back.status).toBe(200);
    expect(back.html).toContain('Authorization successful');

    await connected;
    const { tools } = await p.client.listTools();
    expect(tools.map((t) => t.name)).toContain('listWorkspaces');
    const result = await p.client.callTool({ name: 'listWorkspaces', arguments: {} });
    expect(result.isError, text(result)).toBeFalsy();
    expect(text(result)).toMatch(WORKSPACES);
    // The sign-in is the service's own: a grant of the tenant's key to mcp-remote's registered client.
    const grants = await f.s.api('GET', '/v1/admin/oauth/grants?tenant=tenant-remote', { key: 'adm_test_credential' });
    expect(grants.body.data.grants).toContainEqual(expect.objectContaining({ client_id: clientId, client_name: 'MCP CLI Proxy', status: 'active' }));
  });
});
