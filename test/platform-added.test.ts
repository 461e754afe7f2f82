import { beforeAll, describe, expect, it } from 'vitest';
import { platforms } from '../functions/platforms';
import { localPlatforms } from '../infra/local/platforms';
import { loadConfig } from '../shared/core/config';
import { createApp } from '../shared/http/app';
import { createRuntime } from '../shared/lambda/runtime';
import { MemoryStore } from '../shared/store/memory';
import { notebook } from './fixtures/sixth-platform';
import { createJotterTwin, JOTTER_KEY } from './fixtures/sixth-platform/twin';

/**
 * Adding a platform is its folder and one line in the registry (README "Adding a platform"): a
 * throwaway sixth platform (test/fixtures/sixth-platform/, laid out as functions/<platform>/, one
 * tool over a tiny twin) is registered beside the five, as its line in functions/platforms.ts
 * would, and every surface serves it with no other change: REST, MCP (its own endpoint and the
 * combined one), the catalog, OpenAPI, search and MCP sign-in's scopes.
 */
describe('a sixth platform: its folder plus one registry line', () => {
  const twin = createJotterTwin();
  let app: ReturnType<typeof createApp>;
  const auth = { authorization: `Bearer ${JOTTER_KEY}`, 'content-type': 'application/json' };
  const rpc = async (path: string, method: string, params: Record<string, unknown> = {}) => {
    const res = await app.request(path, { method: 'POST', headers: { ...auth, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: any }).result;
  };

  beforeAll(async () => {
    // The one line: functions/platforms.ts with the new platform's descriptor added.
    const registered = [...platforms, notebook];
    const fetchFor = { ...Object.fromEntries(localPlatforms.map((p) => [p.platform.name, p.twin().fetch])), notebook: twin.fetch };
    app = createApp(await createRuntime({ platforms: registered, config: loadConfig({}), store: new MemoryStore(), fetchFor }));
    // Six platforms' tools are not the five the global setup trained the search model for: the
    // first search trains it (seconds of CPU), here within the hook's time rather than a test's.
    await app.request('/v1/tools/search?query=note', { headers: auth });
  });

  it('REST: POST /v1/tools/notebook/getNote reaches its twin; bad input is refused by name before it', async () => {
    const res = await app.request('/v1/tools/notebook/getNote', { method: 'POST', headers: auth, body: JSON.stringify({ note_id: 42 }) });
    expect(await res.json()).toEqual({ success: true, data: '#42 Groceries: milk, bread' });
    expect(twin.requests).toContain('GET /v1/notes/42');
    const before = twin.requests.length;
    const bad = await app.request('/v1/tools/notebook/getNote', { method: 'POST', headers: auth, body: JSON.stringify({ note_id: 'x' }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'note_id' } });
    expect(twin.requests.length).toBe(before);
  });

  it('MCP: tools/list and tools/call on /v1/mcp/notebook and, prefixed, on the combined /v1/mcp', async () => {
    const own = await rpc('/v1/mcp/notebook', 'tools/list');
    expect(own.tools.map((t: { name: string }) => t.name)).toEqual(['getNote']);
    const called = await rpc('/v1/mcp/notebook', 'tools/call', { name: 'getNote', arguments: { note_id: 42 } });
    expect(called.isError).toBeFalsy();
    expect(called.content[0].text).toBe('#42 Groceries: milk, bread');
    const structured = await rpc('/v1/mcp/notebook?format=json', 'tools/call', { name: 'getNote', arguments: { note_id: 42 } });
    expect(structured.structuredContent).toEqual({ id: 42, title: 'Groceries', body: 'milk, bread' });
    const all = await rpc('/v1/mcp', 'tools/list');
    expect(all.tools.map((t: { name: string }) => t.name)).toContain('notebook_getNote');
    const viaCombined = await rpc('/v1/mcp', 'tools/call', { name: 'notebook_getNote', arguments: { note_id: 42 } });
    expect(viaCombined.content[0].text).toBe('#42 Groceries: milk, bread');
  });

  it('the catalog, OpenAPI and search list it', async () => {
    const listed = (await (await app.request('/v1/tools/notebook', { headers: auth })).json()) as any;
    expect(listed.data.tools.map((t: { name: string; group: string }) => [t.name, t.group])).toEqual([['getNote', 'notes']]);
    const doc = (await (await app.request('/v1/openapi.json')).json()) as any;
    expect(doc.paths['/v1/tools/notebook/getNote'].post.operationId).toBe('notebook_getNote');
    const own = (await (await app.request('/v1/openapi/notebook.json')).json()) as any;
    expect(Object.keys(own.paths)).toContain('/v1/tools/notebook/getNote');
    // Search finds it by its name and description (the fused ranking's learned parts know a platform by its
    // search-examples.json, which a real platform ships: README "Adding a platform").
    const found = (await (await app.request(`/v1/tools/search?query=${encodeURIComponent('get a note from the notebook')}&limit=3`, { headers: auth })).json()) as any;
    expect(found.data.tools.map((t: { platform: string; tool: string }) => `${t.platform}/${t.tool}`)).toContain('notebook/getNote');
  });

  it("MCP sign-in offers its toolsets as its endpoint's scopes", async () => {
    const meta = (await (await app.request('/.well-known/oauth-protected-resource/v1/mcp/notebook')).json()) as { scopes_supported: string[] };
    expect(meta.scopes_supported).toEqual(['notes']);
    const server = (await (await app.request('/.well-known/oauth-authorization-server')).json()) as { scopes_supported: string[] };
    expect(server.scopes_supported).toContain('notebook:notes');
  });
});
