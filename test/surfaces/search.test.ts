import { beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, searchIndex, stem, tokenize } from '../../shared/catalog/search';
import type { CatalogEntry } from '../../shared/catalog/catalog';
import { harness } from '../helpers/harness';
import { platformCases } from '../helpers/platforms';

let h: Awaited<ReturnType<typeof harness>>;
const key = platformCases[0]!.keys.owner;
beforeAll(async () => {
  h = await harness();
});

async function search(query: string, extra = '') {
  const res = await h.app.request(`/v1/tools/search?query=${encodeURIComponent(query)}${extra}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as any };
}
const top = async (query: string, n = 3, extra = '') => ((await search(query, `&limit=${n}${extra}`)).body.data.tools as { platform: string; tool: string }[]).map((t) => `${t.platform}/${t.tool}`);

describe('GET /v1/tools/search', () => {
  // Realistic requests of an agent, each with the tool it needs (among ~190 tools of five platforms).
  it.each([
    ['add a comment to a deal', ['collab/addCommentToObject', 'dbapp/createRecordComment']],
    ['share a folder with a client', ['filebox/createShare']],
    ['find properties with high equity in Phoenix', ['realty/searchProperties']],
    ['move a file to another folder', ['filebox/moveItem']],
    ['pause an automation', ['dbapp/pauseAutomation']],
    ['delete a contact', ['crm/deleteContact']],
    ['search deals by stage', ['crm/searchDeals']],
    ['add a member to a workspace', ['dbapp/addWorkspaceMember']],
    ['create a task', ['collab/createTasks']],
    ['list the runs of an automation', ['dbapp/listAutomationRuns']],
  ])('"%s" → the expected tool in the top 3', async (query, expected) => {
    const found = await top(query);
    for (const e of expected) {
      // Platforms are being added: a platform that is not registered here cannot be expected.
      if (!h.rt.registry.platforms.has(e.split('/')[0]!)) continue;
      expect(found, query).toContain(e);
    }
  });

  it('narrows to one platform with ?platform=, and returns at most ?limit= tools with their description', async () => {
    const { status, body } = await search('create', '&platform=crm&limit=4');
    expect(status).toBe(200);
    expect(body.data.tools).toHaveLength(4);
    for (const t of body.data.tools) {
      expect(t.platform).toBe('crm');
      expect(t.tool).toMatch(/^create/);
      expect(t.description).toEqual(expect.any(String));
      expect(t.annotations).toMatchObject({ readOnly: expect.any(Boolean) });
    }
  });

  it('refuses what it cannot answer, naming the query parameter; needs the key first', async () => {
    expect((await search('')).body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'query' } });
    expect((await search('x', '&limit=0')).body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'limit' } });
    expect((await search('x', '&limit=51')).body.error.details.parameter).toBe('limit');
    expect((await search('x', '&platform=nowhere')).body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'platform' } });
    const res = await h.app.request('/v1/tools/search?query=x');
    expect(res.status).toBe(401);
  });

  it('answers an empty list when nothing matches', async () => {
    const { body } = await search('zzqx wibble');
    expect(body.data.tools).toEqual([]);
  });
});

describe('the scorer', () => {
  const entry = (name: string, description: string, props: string[] = []): CatalogEntry => ({
    platform: 'p',
    name,
    description,
    annotations: { readOnly: true, destructive: false, idempotent: true },
    inputSchema: { type: 'object', properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])) },
  });

  it('splits identifiers and stems words so "properties" meets "searchProperties"', () => {
    expect(tokenize('searchProperties by_zip_code')).toEqual(['search', 'property', 'zip', 'code']);
    expect(['share', 'shares', 'shared', 'sharing'].map(stem)).toEqual(['shar', 'shar', 'shar', 'shar']);
  });

  it('ranks a match in the name above the same word in a long description', () => {
    const index = buildIndex([
      entry('listThings', 'Lists things. A comment on a thing is returned with each of them, comments, comments and more comments here.'),
      entry('createComment', 'Adds one.'),
    ]);
    expect(searchIndex(index, 'comment', 2).map((x) => x.entry.name)).toEqual(['createComment', 'listThings']);
  });

  it('finds a tool by a parameter name and by a synonym of its verb', () => {
    const index = buildIndex([entry('getA', 'Reads A.', ['zip_code']), entry('deleteB', 'Deletes B.'), entry('getC', 'Reads C.')]);
    expect(searchIndex(index, 'zip', 3).map((x) => x.entry.name)).toEqual(['getA']);
    expect(searchIndex(index, 'remove', 3).map((x) => x.entry.name)).toEqual(['deleteB']);
  });
});
