import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { platformCases } from '../helpers/platforms';
import { EVAL_SET, FIFTH_SET, FIRST_SET, FOURTH_SET, FRESH_SET, LOCKED_ROUNDS, SIXTH_SET, THIRD_SET } from './eval-set';
import { evaluate, figures, type Evaluation, type Figures } from './evaluate';
import { catalog } from '../../shared/catalog/catalog';
import { buildIndex, searchIndex, type SearchIndex } from '../../shared/catalog/search';

/**
 * The evaluation set through GET /v1/tools/search, as an agent asks it. How the figures were made
 * (test/search/eval-set.ts says it per round): each round of requests was committed before the
 * ranking (shared/catalog/search.ts) changed after it, and measured once before the change; held-out
 * requests are never looked at while tuning. The blind rounds were written by someone who saw only
 * the tool list. Rounds 1-8 are what the fused ranking was developed on (test/search/tune.ts; the
 * locked rounds 7 and 8 since they were measured, retired from the blind figures): the floors sit a
 * little under what it reaches (test/bench/search.ts prints the figures), so a change that loses a
 * few requests fails here. A locked round not retired is not run here: it is measured once, in
 * test/bench/search.ts.
 */
const FLOORS: Record<string, { top1: number; top3: number; of: (ev: Evaluation) => Figures }> = {
  'rounds 1-6': { top1: 0.91, top3: 0.98, of: (ev) => figures(ev.results.filter((r) => r.task.round <= 6)) },
  tuned: { top1: 0.9, top3: 0.98, of: (ev) => ev.tuned },
  'round 1, held out': { top1: 0.91, top3: 0.97, of: (ev) => ev.heldOutFirst },
  'round 2': { top1: 0.93, top3: 0.97, of: (ev) => ev.rounds[2]! },
  'round 3': { top1: 0.87, top3: 0.95, of: (ev) => ev.rounds[3]! },
  'round 4': { top1: 0.86, top3: 0.96, of: (ev) => ev.rounds[4]! },
  'round 5': { top1: 0.87, top3: 0.96, of: (ev) => ev.rounds[5]! },
  'round 6': { top1: 0.9, top3: 0.96, of: (ev) => ev.rounds[6]! },
  'round 7 (retired)': { top1: 0.92, top3: 0.96, of: (ev) => ev.rounds[7]! },
  'round 8 (retired)': { top1: 0.9, top3: 0.95, of: (ev) => ev.rounds[8]! },
};
/** The locked rounds tuned on since they were measured: guarded here like rounds 1-6. */
const RETIRED = LOCKED_ROUNDS.filter((r) => r.retired).flatMap((r) => r.tasks);

let h: Awaited<ReturnType<typeof harness>>;
const key = platformCases[0]!.keys.owner;
beforeAll(async () => {
  h = await harness();
});

async function top(query: string, limit = 3): Promise<string[]> {
  const res = await h.app.request(`/v1/tools/search?query=${encodeURIComponent(query)}&limit=${limit}`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status, query).toBe(200);
  const body = (await res.json()) as { data: { tools: { platform: string; tool: string }[] } };
  return body.data.tools.map((t) => `${t.platform}/${t.tool}`);
}

let ev: Evaluation | undefined;
const misses = (evaluation: Evaluation, n: number) =>
  evaluation.results.filter((r) => r.rank === null || r.rank > n).map((r) => `${r.task.query} → ${r.task.expect.join('|')}, got ${r.top.join(', ')}`);

describe('tool search evaluation set', () => {
  it('keeps each locked round as it was when its hash was committed, before it was first measured', () => {
    const dir = join(dirname(fileURLToPath(import.meta.url)), 'rounds');
    const hashed = readdirSync(dir).filter((f) => f.endsWith('.sha256'));
    expect(hashed).toContain('round-9.sha256');
    for (const f of hashed) {
      const json = readFileSync(join(dir, f.replace(/\.sha256$/, '.json')));
      expect(createHash('sha256').update(json).digest('hex'), f).toBe(readFileSync(join(dir, f), 'utf8').trim());
    }
  });

  it('holds six rounds over every platform, a third of round 1 held out, each expecting a tool that exists, no request twice', async () => {
    expect(FIRST_SET.length).toBeGreaterThanOrEqual(150);
    const held = FIRST_SET.filter((t) => t.heldOut).length;
    expect(held / FIRST_SET.length).toBeGreaterThan(0.3);
    expect(held / FIRST_SET.length).toBeLessThan(0.37);
    for (const [set, round] of [[FIRST_SET, 1], [FRESH_SET, 2], [THIRD_SET, 3], [FOURTH_SET, 4], [FIFTH_SET, 5], [SIXTH_SET, 6]] as const) {
      expect(set.length).toBeGreaterThanOrEqual(50);
      expect(set.every((t) => t.round === round)).toBe(true);
    }
    expect(SIXTH_SET.every((t) => t.heldOut)).toBe(true);
    const tools = new Set<string>();
    for (const p of h.rt.registry.platforms.values()) for (const t of await h.rt.registry.list(p)) tools.add(`${p.name}/${t.name}`);
    for (const task of EVAL_SET) for (const e of task.expect) expect(tools, task.query).toContain(e);
    for (const p of h.rt.registry.platforms.keys()) expect(EVAL_SET.some((t) => t.expect.some((e) => e.startsWith(`${p}/`))), p).toBe(true);
    expect(new Set(EVAL_SET.map((t) => t.query)).size).toBe(EVAL_SET.length);
  });

  it.each(Object.entries(FLOORS))('finds the expected tool first and in the top 3 often enough: %s', async (_part, floor) => {
    ev ??= await evaluate((q) => top(q), [...EVAL_SET, ...RETIRED]);
    const got = floor.of(ev);
    const report = { figures: got, missedTop3: misses(ev, 3) };
    expect(got.top1, JSON.stringify(report, null, 1)).toBeGreaterThanOrEqual(floor.top1);
    expect(got.top3, JSON.stringify(report, null, 1)).toBeGreaterThanOrEqual(floor.top3);
  });
});

/**
 * The word-based scorer alone (an index without the model learned from examples), as the fused
 * ranking takes it: the rules of shared/catalog/search.ts that read a request's words.
 */
async function wordsTop(query: string, limit = 3): Promise<string[]> {
  const platforms = [...h.rt.registry.platforms.values()];
  words ??= buildIndex(await catalog(h.rt.registry), Object.fromEntries(platforms.map((p) => [p.name, p.vendor])));
  return searchIndex(words, query, limit).map((x) => `${x.entry.platform}/${x.entry.name}`);
}
let words: SearchIndex | undefined;

describe('what steers the word-based scorer', () => {
  const top = wordsTop;
  it.each([
    ['upload a file to Tape', 'dbapp/uploadFiles'],
    ['upload a file to ShareFile', 'filebox/uploadFile'],
    ['delete a view in Podio', 'collab/deleteView'],
    ['delete a view in Tape', 'dbapp/deleteView'],
    ['show the hooks of an app in Tape', 'dbapp/listWebhooks'],
    ['find a contact in HubSpot', 'crm/searchContacts'],
    ['find a contact in the CRM', 'crm/searchContacts'],
    ['find a contact in Podio', 'collab/getContacts'],
  ])('a platform\'s name steers to its tool: "%s" → %s first', async (query, expected) => {
    expect((await top(query))[0]).toBe(expected);
  });

  it('reads a vendor\'s word for another vendor\'s thing: opportunity is a deal, record an item, webhook a hook', async () => {
    expect(await top('update an opportunity')).toContain('crm/updateDeal');
    expect((await top('create a webhook in Podio'))[0]).toBe('collab/createHook');
    expect((await top('duplicate a Podio record'))[0]).toBe('collab/cloneItem');
  });

  it('answers the phrasings it used to miss with the tool first', async () => {
    expect((await top('find deals closing this month'))[0]).toBe('crm/searchDeals');
    expect((await top('move a deal to another stage'))[0]).toBe('crm/updateDeal');
    // What follows "when" is the event: the request is for a hook, not for changing an item.
    expect((await top('webhook when an item changes'))[0]).toBe('collab/createHook');
  });

  it('prefers the tool that reads when the request asks, the one that writes when it acts', async () => {
    expect((await top('access controls of a folder'))[0]).toBe('filebox/getItemAccessControls');
    expect((await top('add an access control to a folder'))[0]).toBe('filebox/createAccessControl');
    expect((await top('associations of a deal'))[0]).toBe('crm/getAssociations');
    expect((await top('associate a contact with a deal'))[0]).toBe('crm/createAssociation');
  });

  it('weighs the verb and its object over what qualifies them', async () => {
    // A participle describes the object; a prepositional phrase qualifies it.
    expect((await top('attach an uploaded file to an item'))[0]).toBe('collab/attachFile');
    expect((await top('create a folder for a client'))[0]).toBe('filebox/createFolder');
  });

  it('reads a street address as a property to look up, not as words to search for', async () => {
    expect((await top('who owns 123 Main St, Phoenix AZ 85004'))[0]).toBe('realty/lookupProperty');
    expect((await top('skip trace the owner of 9 Birch Ln, Austin, TX 78701'))[0]).toBe('realty/lookupProperty');
  });

  it('meets one vendor\'s word with another\'s: a Podio workspace is a space, glued property names are words', async () => {
    expect((await top('list the apps of a Podio workspace'))[0]).toBe('collab/getAppsBySpace');
    // HubSpot's closedate: "closing" meets it.
    expect((await top('find deals closing this month'))[0]).toBe('crm/searchDeals');
  });

});

describe('search_tools', () => {
  it('MCP search_tools answers as the HTTP route does', async () => {
    // The typed result (?format=json): the hits as data.
    const res = await h.app.request('/v1/mcp?format=json', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'move a deal to another stage', limit: 3 } } }),
    });
    const msg = (await res.json()) as { result: { structuredContent: { tools: { name: string }[] } } };
    expect(msg.result.structuredContent.tools.map((t) => t.name)).toEqual((await top('move a deal to another stage')).map((t) => t.replace('/', '_')));
  });
});
