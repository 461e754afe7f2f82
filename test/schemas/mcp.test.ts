import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { platformCases } from '../helpers/platforms';
import { localMcp, resultText as text } from '../helpers/mcp-client';

/**
 * The official MCP SDK client against the local server: titles and icons in tools/list; by
 * default results are the compact text alone (docs/mcp-output.md), and with ?format=json tools/list
 * carries output schemas and every result structuredContent beside the text, valid against the
 * schema (the client itself refuses a result that is not); the deferred and max_tools profiles.
 */
const mcp = localMcp(platformCases[0]!.keys.owner);
const { connect } = mcp;
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
addFormats.default(ajv);

describe.each(platformCases)('tools/list and tools/call of /v1/mcp/$name', (c) => {
  it('lists every tool with a title and the platform icon in the same order each time; with ?format=json an object output schema', async () => {
    const client = await connect(`/v1/mcp/${c.name}`, c.keys.owner);
    const { tools } = await client.listTools();
    const again = await client.listTools();
    const typed = (await (await connect(`/v1/mcp/${c.name}?format=json`, c.keys.owner)).listTools()).tools;
    expect(again.tools.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    expect(typed.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    for (const [i, t] of tools.entries()) {
      expect(t.title, t.name).toMatch(/^[A-Z]/);
      expect(t.outputSchema, t.name).toBeUndefined();
      expect(typed[i]!.outputSchema?.type, t.name).toBe('object');
      expect(() => ajv.compile(typed[i]!.outputSchema!), t.name).not.toThrow();
      expect(t.icons, t.name).toEqual([{ src: `${mcp.local.base}/v1/icons/${c.name}.svg`, mimeType: 'image/svg+xml', sizes: ['48x48'] }]);
    }
    const icon = await fetch(tools[0]!.icons![0]!.src);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it('answers the probe with the compact text; with ?format=json also structuredContent that validates against its output schema', async () => {
    const plain = await (await connect(`/v1/mcp/${c.name}`, c.keys.owner)).callTool({ name: c.probe.tool, arguments: c.probe.params });
    expect(plain.isError).toBeFalsy();
    expect(text(plain).startsWith('{')).toBe(false);
    expect(plain.structuredContent).toBeUndefined();
    const client = await connect(`/v1/mcp/${c.name}?format=json`, c.keys.owner);
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === c.probe.tool)!;
    // The SDK client validates structuredContent against the listed schema and throws when it does not fit.
    const result = await client.callTool({ name: c.probe.tool, arguments: c.probe.params });
    expect(text(result)).toBe(text(plain));
    expect(ajv.validate(tool.outputSchema!, result.structuredContent), ajv.errorsText()).toBe(true);
  });
});

describe('typed structuredContent (?format=json) on every kind of answer', () => {
  it('a list result comes as {result: [...]}, a dry run as its plan, both valid against the listed schema', async () => {
    const client = await connect('/v1/mcp/dbapp?format=json');
    const { tools } = await client.listTools();
    const schemaOf = (name: string) => tools.find((t) => t.name === name)!.outputSchema!;
    const plan = await client.callTool({ name: 'createWorkspace', arguments: { name: 'Planned', type: 'open' }, _meta: { dry_run: true } });
    expect(plan.structuredContent).toMatchObject({ dry_run: true });
    expect(ajv.validate(schemaOf('createWorkspace'), plan.structuredContent), ajv.errorsText()).toBe(true);
    const made = await client.callTool({ name: 'createWorkspace', arguments: { name: 'Made', type: 'open' } });
    expect(made.structuredContent).toMatchObject({ name: 'Made' });
    expect(ajv.validate(schemaOf('createWorkspace'), made.structuredContent), ajv.errorsText()).toBe(true);
    // Under a token budget the text is cut; the structured result stays whole.
    const budget = await client.callTool({ name: 'listWorkspaces', arguments: {}, _meta: { max_tokens: 100 } });
    expect(budget.isError, text(budget)).toBeFalsy();
    expect(ajv.validate(schemaOf('listWorkspaces'), budget.structuredContent), ajv.errorsText()).toBe(true);

    const collab = await connect('/v1/mcp/collab?format=json', platformCases.find((p) => p.name === 'collab')!.keys.owner);
    const labelsSchema = (await collab.listTools()).tools.find((t) => t.name === 'getLabels')!.outputSchema!;
    expect(labelsSchema).toMatchObject({ type: 'object', required: ['result'], properties: { result: { type: 'array' } } });
    const labels = await collab.callTool({ name: 'getLabels', arguments: {} });
    expect(Array.isArray((labels.structuredContent as { result: unknown }).result)).toBe(true);
    expect(ajv.validate(labelsSchema, labels.structuredContent), ajv.errorsText()).toBe(true);
  });
});

describe('profiles on the MCP endpoint', () => {
  it('?profile=deferred lists search_tools and the core; a tool left out is found with its parameters and called', async () => {
    const client = await connect('/v1/mcp/dbapp?profile=deferred&format=json');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search_tools', 'filterRecords']);
    const found = await client.callTool({ name: 'search_tools', arguments: { query: 'list all workspaces', limit: 3 } });
    const hits = (found.structuredContent as { tools: { name: string; required: unknown[]; definition?: { name: string; inputSchema: { type: string } } }[] }).tools;
    expect(hits[0]!.name).toBe('listWorkspaces');
    // The definition a host with deferred loading loads: as tools/list would list it.
    expect(hits[0]!.definition).toMatchObject({ name: 'listWorkspaces', inputSchema: { type: 'object' } });
    expect(hits[0]!.required).toEqual([]);
    expect(text(found)).toContain('parameters:');
    expect(text(found)).toContain('required: none');
    const called = await client.callTool({ name: 'listWorkspaces', arguments: {} });
    expect(called.isError).toBeFalsy();
    expect(called.structuredContent).toMatchObject({ workspaces: expect.any(Array) });
  });

  it('?max_tools=40 on the combined endpoint: 40 definitions, search_tools first, the rest callable', async () => {
    const client = await connect('/v1/mcp?max_tools=40');
    const { tools } = await client.listTools();
    expect(tools.length).toBe(40);
    expect(tools[0]!.name).toBe('search_tools');
    const listed = new Set(tools.map((t) => t.name));
    for (const core of ['dbapp_filterRecords', 'collab_filterItems', 'filebox_searchItems', 'crm_searchDeals', 'realty_searchProperties']) expect(listed.has(core), core).toBe(true);
    expect(listed.has('dbapp_deleteWorkspace')).toBe(false);
    const c = platformCases.find((p) => p.name === 'dbapp')!;
    const called = await client.callTool({ name: 'dbapp_listWorkspaces', arguments: {} });
    expect(called.isError, text(called)).toBeFalsy();
    expect(c).toBeDefined();
  });

  it('refuses a bad max_tools or profile before any MCP exchange, naming the parameter', async () => {
    for (const q of ['max_tools=1', 'max_tools=forty', 'profile=lazy', 'profile=full&max_tools=40']) {
      const res = await fetch(`${mcp.local.base}/v1/mcp/dbapp?${q}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${platformCases[0]!.keys.owner}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(res.status, q).toBe(400);
      const body = (await res.json()) as { error: { code: string; details: { parameter: string } } };
      expect(body.error.code).toBe('INVALID_PARAMETER');
      expect(body.error.details.parameter).toBe(q.includes('max_tools') ? 'max_tools' : 'profile');
    }
  });
});

describe('provider schemas with a profile over HTTP', () => {
  it('GET /v1/tools/dbapp?schema=anthropic&profile=deferred: the tool search tool, the core loaded, the rest deferred', async () => {
    const res = await fetch(`${mcp.local.base}/v1/tools/dbapp?schema=anthropic&profile=deferred`, { headers: { authorization: `Bearer ${platformCases[0]!.keys.owner}` } });
    const tools = ((await res.json()) as { data: { tools: { name: string; type?: string; defer_loading?: boolean; input_examples?: unknown[] }[] } }).data.tools;
    expect(tools[0]).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    expect(tools.filter((t) => t.input_examples && !t.defer_loading).map((t) => t.name)).toEqual(['filterRecords']);
  });

  it('GET /v1/tools/crm?schema=openai&max_tools=10: tool_search and namespaces', async () => {
    const res = await fetch(`${mcp.local.base}/v1/tools/crm?schema=openai&max_tools=10`, { headers: { authorization: `Bearer ${platformCases.find((p) => p.name === 'crm')!.keys.owner}` } });
    const tools = ((await res.json()) as { data: { tools: { type: string; name?: string; tools?: { defer_loading?: boolean }[] }[] } }).data.tools;
    expect(tools[0]).toEqual({ type: 'tool_search' });
    expect(tools.slice(1).every((t) => t.type === 'namespace' && t.name!.startsWith('crm_'))).toBe(true);
    expect(tools.slice(1).flatMap((t) => t.tools!).filter((f) => !f.defer_loading).length).toBe(10);
  });

  it('GET /v1/tools/{platform} names each tool\'s output schema', async () => {
    const res = await fetch(`${mcp.local.base}/v1/tools/realty`, { headers: { authorization: `Bearer ${platformCases.find((p) => p.name === 'realty')!.keys.owner}` } });
    const tools = ((await res.json()) as { data: { tools: { output_schema?: { type: string } }[] } }).data.tools;
    expect(tools.every((t) => t.output_schema?.type === 'object')).toBe(true);
  });
});
