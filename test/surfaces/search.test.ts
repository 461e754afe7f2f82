import { beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, platformCues, registryIndex, searchIndex, stem, tokenize } from '../../shared/catalog/search';
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

  it('says of each hit when to use it and what a call must give', async () => {
    const { body } = await search('pause an automation', '&limit=3');
    const hit = body.data.tools.find((t: { tool: string }) => t.tool === 'pauseAutomation');
    expect(hit).toMatchObject({ platform: 'dbapp', description: expect.stringMatching(/^Pause/), required: [{ name: 'automation_id', type: expect.stringContaining('integer') }] });
  });

  it('answers an empty list when nothing matches', async () => {
    const { body } = await search('zzqx wibble');
    expect(body.data.tools).toEqual([]);
  });
});

describe('platform and object cues', () => {
  // A value that only one platform has: its link, its id's shape, a parcel number, a street address.
  it.each([
    ['https://podio.com/acme/sales/apps/leads/items/88 - what does this say?', 'collab'],
    ['open https://tapeapp.com/acme/record/88123456', 'dbapp'],
    ['what is inside fo8a7b6c5d', 'filebox'],
    ['look at https://app.hubspot.com/contacts/4412/record/0-3/19283746', 'crm'],
    ['who owns APN 123-456-78', 'realty'],
    ['what is 12 Oak St, Austin TX 78701 worth', 'realty'],
  ])('"%s" → a %s tool first', async (query, platform) => {
    expect((await top(query, 1))[0]).toMatch(new RegExp(`^${platform}/`));
  });

  it('moves the platform a value points to up, and finds none in a request that names none', async () => {
    const index = await registryIndex(h.rt.registry);
    expect([...platformCues(index, 'show me https://app.hubspot.com/contacts/4412/record/0-1/991')]).toEqual(['crm']);
    expect([...platformCues(index, 'share fo3c8d1e2f with Bob')]).toEqual(['filebox']);
    for (const neutral of ['delete a comment', 'who changed this last week?', 'make a copy of it', 'notify me when something changes']) {
      expect([...platformCues(index, neutral)], neutral).toEqual([]);
    }
    // With the platform's link the same words rank its tool higher than without.
    const rankOf = (found: string[]) => found.findIndex((t) => t.startsWith('crm/'));
    const plain = rankOf(await top('what changed on 19283746', 10));
    const cued = rankOf(await top('what changed on https://app.hubspot.com/contacts/4412/record/0-3/19283746', 10));
    expect(cued).toBe(0);
    expect(plain === -1 || plain > 0).toBe(true);
  });

  it('ranks the platforms alike for a request that names none: several platforms among the first five', async () => {
    for (const neutral of ['upload a file', 'list the members', 'create a webhook']) {
      expect(new Set((await top(neutral, 5)).map((t) => t.split('/')[0])).size, neutral).toBeGreaterThan(1);
    }
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
