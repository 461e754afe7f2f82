import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { dbapp } from '../../functions/dbapp';
import { recordTools } from '../../functions/dbapp/tools/records';
import { viewTools } from '../../functions/dbapp/tools/views';
import { workspaceTools } from '../../functions/dbapp/tools/workspaces';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';
import { loadConfig } from '../../shared/core/config';
import { createApp } from '../../shared/http/app';
import { createRuntime } from '../../shared/lambda/runtime';
import { MemoryStore } from '../../shared/store/memory';
import { definePlatform, groupOf, toolGroup } from '../../shared/core/tool';
import { harness } from '../helpers/harness';

/**
 * Toolsets are the folders functions/<platform>/tools/<group>/: a platform's group index tags
 * its loaders with toolGroup. This platform is dbapp's manifest with three groups tagged so.
 */
const grouped = definePlatform({
  ...dbapp,
  tools: { ...toolGroup('workspaces', workspaceTools), ...toolGroup('records', recordTools), ...toolGroup('views', viewTools) },
  toolsets: { workspaces: dbapp.toolsets.workspaces!, records: dbapp.toolsets.records!, views: dbapp.toolsets.views! },
});

let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  const twin = createTapeTwin();
  const rt = await createRuntime({ platforms: [grouped], config: loadConfig({}), store: new MemoryStore(), fetchFor: { dbapp: twin.fetch } });
  app = createApp(rt);
});

const auth = { authorization: `Bearer ${SANDBOX_KEYS.owner}` };
async function catalogOf(query: string) {
  const res = await app.request(`/v1/tools/dbapp?${query}`, { headers: auth });
  return { status: res.status, body: (await res.json()) as any };
}

describe('toolsets and read-only mode', () => {
  it('toolGroup tags each loader with its group, read back by groupOf', () => {
    expect(groupOf(grouped, 'getRecord')).toBe('records');
    expect(groupOf(grouped, 'createView')).toBe('views');
    expect(groupOf(grouped, 'nope')).toBeUndefined();
  });

  it('?toolsets=records,views narrows the catalog to those groups, each tool naming its group', async () => {
    const { status, body } = await catalogOf('toolsets=records,views');
    expect(status).toBe(200);
    const names = body.data.tools.map((t: { name: string }) => t.name);
    expect(names).toEqual([...Object.keys(recordTools), ...Object.keys(viewTools)]);
    expect(new Set(body.data.tools.map((t: { group: string }) => t.group))).toEqual(new Set(['records', 'views']));
  });

  it('?read_only=true serves only read tools; both filters combine', async () => {
    const { body } = await catalogOf('read_only=true&toolsets=workspaces');
    expect(body.data.tools.map((t: { name: string }) => t.name)).toEqual(['listWorkspaces', 'getWorkspace', 'listWorkspaceMembers']);
    expect(body.data.tools.every((t: { annotations: { readOnly: boolean } }) => t.annotations.readOnly)).toBe(true);
  });

  it('works with ?schema= too', async () => {
    const { body } = await catalogOf('schema=anthropic&toolsets=views&read_only=true');
    expect(body.data.tools.map((t: { name: string }) => t.name)).toEqual(['getAppViews', 'getView']);
  });

  it('refuses an unknown toolset with the groups there are, and a bad read_only', async () => {
    const unknown = await catalogOf('toolsets=records,nope');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'toolsets', expected: 'one of workspaces, records, views' } });
    expect((await catalogOf('read_only=1')).body.error.details.parameter).toBe('read_only');
    expect((await catalogOf('toolsets=')).body.error.details.parameter).toBe('toolsets');
  });

  it('every tool of every platform belongs to the group of its folder, and ?toolsets= serves exactly that group', async () => {
    const h = await harness();
    for (const [name, platform] of h.rt.registry.platforms) {
      const groups = new Map<string, string[]>();
      for (const tool of Object.keys(platform.tools)) {
        const group = groupOf(platform, tool);
        expect(group, `${name}/${tool} has no group: tag its group index with toolGroup()`).toBeDefined();
        groups.set(group!, [...(groups.get(group!) ?? []), tool]);
      }
      const [group, tools] = [...groups][0]!;
      const res = await h.app.request(`/v1/tools/${name}?toolsets=${group}`, { headers: auth });
      const body = (await res.json()) as { data: { tools: { name: string }[] } };
      expect(res.status).toBe(200);
      expect(body.data.tools.map((t) => t.name).sort()).toEqual([...tools].sort());
    }
  });

  it('MCP ?toolsets= serves the same narrowed list to an SDK client', async () => {
    const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/v1/mcp/dbapp?toolsets=views'), {
      requestInit: { headers: auth },
      fetch: ((input: Parameters<typeof fetch>[0], init?: RequestInit) => app.fetch(new Request(input, init))) as typeof fetch,
    });
    const client = new Client({ name: 't', version: '1' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(Object.keys(viewTools));
    await client.close();
  });
});
