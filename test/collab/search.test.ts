import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { PODIO_DEMO, SANDBOX_KEYS, type PodioTwin } from '../../infra/twins/podio';

const json = { query: 'format=json' };
const D = PODIO_DEMO;

describe('searchPodio', () => {
  it('finds items, files and apps with the docs/spec.md#collab-search envelope: fuzzy counts, their caveat and the exact read per type', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/searchPodio', { query: 'northwind' }, json);
    expect(r.status).toBe(200);
    const e = r.body.data;
    expect(e).toMatchObject({ query: 'northwind', scope: { level: 'global' }, has_more: false, next_offset: null });
    const types = new Set(e.results.map((x: any) => x.type));
    expect([...types]).toEqual(expect.arrayContaining(['item', 'file']));
    expect(e.returned).toBe(e.results.length);
    expect(e.approximate_match_counts.item).toBe(e.results.filter((x: any) => x.type === 'item').length);
    expect(e.counts_caveat).toMatch(/no exact totals/);
    expect(e.next_step).toContain('item → getItem with item_id');
    expect(e.next_step).toContain('file → getFile with file_id');
    const company = e.results.find((x: any) => x.title === 'Northwind Traders');
    expect(company).toMatchObject({ type: 'item', id: D.items.firstCompany, item_id: D.items.firstCompany, app_id: D.apps.companies, app_name: 'Companies', link: expect.stringContaining('/apps/companies/items/') });
    const logo = e.results.find((x: any) => x.file_id === D.firstIds.file);
    expect(logo).toMatchObject({ file_id: D.firstIds.file, title: 'northwindtraders-logo.png', space: { space_id: D.spaces.sales, name: 'Sales' } });
    // Exact matches rank before prefix matches.
    expect(e.results[0].title).toMatch(/Northwind/);
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /search/']);
    expect(sent[0]!.body).toEqual({ query: 'northwind', limit: 100, offset: 0 });
  });

  it('tolerates a typo and needs every word; profiles and apps are found too', async () => {
    const h = await harness();
    const typo = await h.call('collab/searchPodio', { query: 'nortwind traders' }, json);
    expect(typo.body.data.results.map((x: any) => x.title)).toContain('Northwind Traders');
    expect((await h.call('collab/searchPodio', { query: 'northwind zebra' }, json)).body.data.returned).toBe(0);
    const person = await h.call('collab/searchPodio', { query: 'becker', ref_type: 'profile' }, json);
    expect(person.body.data.results, JSON.stringify(person.body.data.results)).toEqual([expect.objectContaining({ type: 'profile', id: D.users.owner.profile_id, profile_id: D.users.owner.profile_id, title: 'Ann Becker' })]);
    expect(person.body.data.next_step).toContain('profile → getContacts');
    const app = await h.call('collab/searchPodio', { query: 'deals', ref_type: 'app', search_fields: ['title'] }, json);
    expect(app.body.data.results).toEqual([expect.objectContaining({ type: 'app', app_id: D.apps.deals, title: 'Deals' })]);
  });

  it('narrows to an app, a space or an org (the narrowest wins); ref_type and search_fields are passed on', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const inApp = await h.call('collab/searchPodio', { query: 'northwind', app_id: D.apps.deals, space_id: D.spaces.sales }, json);
    expect(inApp.body.data.scope).toEqual({ level: 'app', id: D.apps.deals });
    expect(inApp.body.data.results.filter((x: any) => x.type === 'item').every((x: any) => x.app_id === D.apps.deals)).toBe(true);
    expect(inApp.body.data.results.some((x: any) => x.type === 'app' || x.type === 'profile')).toBe(false);
    expect(sent.at(-1)!.path).toBe(`/search/app/${D.apps.deals}/`);
    const inOps = await h.call('collab/searchPodio', { query: 'northwind', space_id: D.spaces.operations }, json);
    expect(inOps.body.data.results.every((x: any) => x.type !== 'file')).toBe(true);
    await h.call('collab/searchPodio', { query: 'northwind', org_id: D.org.org_id, ref_type: 'file', search_fields: ['title'] }, json);
    expect(sent.at(-1)).toMatchObject({ path: `/search/org/${D.org.org_id}/`, body: { query: 'northwind', ref_type: 'file', search_fields: 'title', limit: 100, offset: 0 } });
    // Company e-mails (info@<name>.example) are text values, not titles.
    const all = await h.call('collab/searchPodio', { query: 'example', app_id: D.apps.companies }, json);
    expect(all.body.data.returned).toBe(20);
    const titles = await h.call('collab/searchPodio', { query: 'example', app_id: D.apps.companies, search_fields: ['title'] }, json);
    expect(titles.body.data.returned).toBe(0);
  });

  it('pages with limit and offset: has_more and next_offset; text lists one line per result', async () => {
    const h = await harness();
    const first = await h.call('collab/searchPodio', { query: 'renewal', ref_type: 'item', limit: 2 }, json);
    expect(first.body.data).toMatchObject({ returned: 2, has_more: true, next_offset: 2 });
    expect(first.body.data.approximate_match_counts.item).toBeGreaterThan(2);
    const second = await h.call('collab/searchPodio', { query: 'renewal', ref_type: 'item', limit: 2, offset: 2 }, json);
    expect(second.body.data.results[0].id).not.toBe(first.body.data.results[0].id);
    const text = await h.call('collab/searchPodio', { query: 'renewal', ref_type: 'item', limit: 2 });
    expect(text.body.data).toMatch(/^item #\d+ Renewal — .+ \(Deals\)\nitem #\d+ .+\n2 results for "renewal" everywhere \(about: item ~\d+\) — pass offset 2 for more\nSearch is a fuzzy locator/);
    // Beyond the first 100 hits, only the page is read.
    const sent = h.recordRequests('collab');
    const deep = await h.call('collab/searchPodio', { query: 'example', limit: 5, offset: 100 }, json);
    expect(sent[0]!.body).toMatchObject({ limit: 6, offset: 100 });
    expect(deep.body.data.counts_caveat).toMatch(/this page only/);
  });

  it('finds tasks and conversations the key may see, with their exact reads', async () => {
    const h = await harness();
    const podio = (path: string, body: unknown, key = SANDBOX_KEYS.owner) =>
      h.twin<PodioTwin>('collab').fetch(`https://api.podio.com${path}`, { method: 'POST', headers: { authorization: `OAuth2 ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<any>);
    const task = await podio(`/task/item/${D.items.firstDeal}/`, { text: 'Prepare the zeppelin quote', description: 'for the airship fleet' });
    const conv = await podio('/conversation/v2/', { subject: 'Zeppelin pricing', text: 'Shall we discount the airship deal?', participants: [D.users.ben.user_id, D.users.chloe.user_id] });
    expect(conv.conversation_id, JSON.stringify(conv)).toEqual(expect.any(Number));
    const r = await h.call('collab/searchPodio', { query: 'zeppelin' }, json);
    expect(r.body.data.results).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'task', task_id: task.task_id, title: 'Prepare the zeppelin quote' }),
        expect.objectContaining({ type: 'conversation', conversation_id: conv.conversation_id, title: 'Zeppelin pricing' }),
      ]),
    );
    expect(r.body.data.next_step).toContain('task → getTask with task_id');
    expect(r.body.data.next_step).toContain('conversation → getConversation with conversation_id');
    // Message text is searched; the member is no participant of the conversation.
    expect((await h.call('collab/searchPodio', { query: 'airship', ref_type: 'conversation' }, json)).body.data.returned).toBe(1);
    expect((await h.call('collab/searchPodio', { query: 'zeppelin', ref_type: 'conversation' }, { ...json, key: SANDBOX_KEYS.member })).body.data.returned).toBe(0);
    // A conversation on no object lies in no space: narrowing to a space leaves it out.
    expect((await h.call('collab/searchPodio', { query: 'zeppelin', space_id: D.spaces.sales }, json)).body.data.results.map((x: any) => x.type)).toEqual(['task']);
  });

  it('sees only what the key sees; bad input never reaches Podio', async () => {
    const h = await harness();
    const member = await h.call('collab/searchPodio', { query: 'implementation' }, { ...json, key: SANDBOX_KEYS.member });
    expect(member.body.data.returned).toBe(0);
    expect((await h.call('collab/searchPodio', { query: 'implementation' }, json)).body.data.returned).toBeGreaterThan(0);
    const sent = h.recordRequests('collab');
    expect((await h.call('collab/searchPodio', { query: ' ' }, json)).body.error.details.parameter).toBe('query');
    expect((await h.call('collab/searchPodio', { query: 'x', limit: 21 }, json)).body.error.details.parameter).toBe('limit');
    expect((await h.call('collab/searchPodio', { query: 'x', ref_type: 'planet' }, json)).body.error.details.parameter).toBe('ref_type');
    expect(sent).toEqual([]);
  });

  it('refuses a query with no letter or digit (no word to search for) before Podio is asked; a compatibility form such as ㎏ is a word', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    for (const query of ['\\', '?!', '\u0301']) {
      const r = await h.call('collab/searchPodio', { query }, json);
      expect(r.status, query).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'query', expected: 'at least one letter or digit' } });
    }
    expect(sent).toEqual([]);
    expect((await h.call('collab/searchPodio', { query: '㎏' }, json)).status).toBe(200);
    expect((await h.call('collab/searchPodio', { query: 'Ünïcode' }, json)).status).toBe(200);
    expect((await h.call('collab/searchPodio', { query: 'x', space_id: 999 }, json)).status).toBe(404);
  });
});
