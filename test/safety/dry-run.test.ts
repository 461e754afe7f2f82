import { describe, expect, it } from 'vitest';
import { localPlatforms } from '../../infra/local/platforms';
import { capturingFetch, isRead, markRead, planOf, planText, type PlannedWrite } from '../../shared/core/dry-run';
import { harness } from '../helpers/harness';
import { isWrite, writeTools } from './write-tools';

/**
 * `?dry_run=true` on every write tool of every registered platform, with its registry example on
 * a fresh twin: nothing but reads reaches the vendor, and the answer is the plan.
 */

/**
 * Examples that cannot reach their first write on a fresh twin, and why: the dry run answers the
 * error the real call would (validation and the reads it needs run first). Kept exact both ways:
 * a tool failing that is not listed fails the test, and so does a listed one that now plans.
 */
// Examples that download from example.com plan without reaching it: a dry run checks caller URLs but
// downloads nothing (tests are offline, so a download would fail and the tool would answer an error).
const NO_WRITE_REACHED: Record<string, RegExp> = {
  // The example's ids are not in the twin's seed.
  'dbapp/updateRecord': /INVALID_PARAMETER .*not on the checklist/,
  'dbapp/createAutomation': /NOT_FOUND .*App does not exist/,
  'dbapp/createView': /NOT_FOUND .*App does not exist/,
  'dbapp/updateView': /NOT_FOUND .*View does not exist/,
  // Its existing file (60016) is one the seed attached to a project (a kickoff deck): a file is attached to one object only.
  'collab/uploadFiles': /INVALID_PARAMETER File #60016 is already attached on item #\d+/,
  'collab/replaceFile': /NOT_FOUND /,
};

/**
 * The event inbox's writes refuse a dry run by name (shared/events/tools.ts): subscribing and
 * deleting are live handshakes with the vendor, acknowledging changes only the service's own inbox.
 */
const NOT_DRY_RUN = new Set(['subscribeEvents', 'ackEvents', 'deleteSubscription']);

const tools = await writeTools();

describe('dry run: every write tool of every platform', () => {
  it('covers every registered platform that has write tools', () => {
    const withWrites = new Set(tools.map((t) => t.platform));
    for (const p of localPlatforms) {
      const name = p.platform.name;
      // realty (BatchData) is read-only: nothing to preview there.
      if (!withWrites.has(name)) expect(Object.keys(p.platform.tools).length, name).toBeGreaterThan(0);
    }
    expect(tools.length).toBeGreaterThan(50);
  });

  it.each(tools.map((t) => [t.id, t] as const))('%s: no write reaches the twin; the answer is the plan', async (id, w) => {
    const h = await harness();
    const sent = h.recordRequests(w.platform);
    const r = await h.call(id, w.tool.example.input, { query: 'dry_run=true&format=json' });
    expect(sent.filter(isWrite), 'writes sent to the twin').toStrictEqual([]);
    if (NOT_DRY_RUN.has(w.tool.name)) {
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'dry_run' } });
      return;
    }
    const unreachable = NO_WRITE_REACHED[id];
    if (unreachable) {
      expect(r.body.success, `${id} is listed as not reaching a write, but it planned one: take it off the list`).toBe(false);
      expect(`${r.body.error.code} ${r.body.error.message}`).toMatch(unreachable);
      expect(r.status).toBeLessThan(500);
      return;
    }
    expect(r.body, `${id}'s example does not reach a write on a fresh twin: list it in NO_WRITE_REACHED with the reason`).toMatchObject({ success: true });
    expect(r.headers.get('dry-run')).toBe('true');
    const plan = r.body.data;
    expect(plan).toMatchObject({ dry_run: true, tool: id });
    expect(plan.writes.length).toBeGreaterThan(0);
    for (const write of plan.writes as PlannedWrite[]) {
      expect(['POST', 'PUT', 'PATCH', 'DELETE']).toContain(write.method);
      expect(write.path).toMatch(/^\//);
    }
    expect(plan.groups.reduce((n: number, g: { count: number }) => n + g.count, 0)).toBe(plan.writes.length);
    // The text plan names the first write.
    const text = await h.call(id, w.tool.example.input, { query: 'dry_run=true' });
    expect(text.body.data).toContain(`${plan.writes[0].method} ${plan.writes[0].path}`);
    expect(text.body.data).toMatch(/^dry run of /);
    expect(sent.filter(isWrite)).toStrictEqual([]);
  });
});

describe('dry run: behaviour', () => {
  it('a real call after a dry run writes: the dry run changed nothing (dbapp/createRecord)', async () => {
    const h = await harness();
    const sent = h.recordRequests('dbapp');
    const input = tools.find((t) => t.id === 'dbapp/createRecord')!.tool.example.input;
    const dry = await h.call('dbapp/createRecord', input, { query: 'dry_run=true&format=json' });
    expect(dry.body.data.writes).toHaveLength(1);
    expect(dry.body.data.writes[0]).toMatchObject({ method: 'POST', path: expect.stringMatching(/^\/v1\/record\/app\/902(\?|$)/) });
    expect(dry.body.data.writes[0].body).toBeTypeOf('object');
    expect(dry.body.data.stopped).toBe(true);
    expect(dry.body.data.note).toMatch(/first write/);
    const real = await h.call('dbapp/createRecord', input, { query: 'format=json' });
    expect(real.body.success).toBe(true);
    // The real call sends exactly the write the plan showed.
    const posted = sent.filter(isWrite);
    expect(posted).toHaveLength(1);
    const query = posted[0]!.query.toString();
    expect({ method: posted[0]!.method, path: posted[0]!.path + (query ? `?${query}` : ''), body: posted[0]!.body }).toStrictEqual(dry.body.data.writes[0]);
  });

  it('a batch plans every independent write (the chunk plan) and is not cut short', async () => {
    const h = await harness();
    const w = tools.find((t) => t.id === 'collab/batchCreateItems')!;
    const sent = h.recordRequests('collab');
    const r = await h.call(w.id, w.tool.example.input, { query: 'dry_run=true&format=json' });
    const items = (w.tool.example.input as { items: unknown[] }).items.length;
    expect(r.body.data.writes).toHaveLength(items);
    expect(r.body.data.stopped).toBe(false);
    expect(r.body.data.groups).toStrictEqual([{ method: 'POST', path: '/item/app/8102/', count: items }]);
    expect(sent.filter(isWrite)).toStrictEqual([]);
  });

  it('read tools ignore dry_run: the answer is the real one', async () => {
    const h = await harness();
    for (const p of localPlatforms) {
      const plain = await h.call(`${p.platform.name}/${p.probe.tool}`, p.probe.params, { query: 'format=json' });
      const dry = await h.call(`${p.platform.name}/${p.probe.tool}`, p.probe.params, { query: 'format=json&dry_run=true' });
      expect(dry.status, p.platform.name).toBe(200);
      expect(dry.body).toStrictEqual(plain.body);
      expect(dry.headers.get('dry-run')).toBeNull();
    }
  });

  it('an error before the first write is answered as the real call would (nothing planned)', async () => {
    const h = await harness();
    const sent = h.recordRequests('dbapp');
    const r = await h.call('dbapp/createRecord', { app_id: 999_999, fields: { title: 'x' } }, { query: 'dry_run=true' });
    expect(r.body.success).toBe(false);
    expect(sent.filter(isWrite)).toStrictEqual([]);
  });

  it('dry_run other than true/false → INVALID_PARAMETER naming dry_run, nothing sent', async () => {
    const h = await harness();
    const sent = h.recordRequests('dbapp');
    const r = await h.call('dbapp/deleteRecord', { record_id: 5300 }, { query: 'dry_run=yes' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'dry_run' } });
    expect(sent).toStrictEqual([]);
  });
});

describe('dry run: the capturing fetch', () => {
  const inner = (async () => new Response('{"ok":true}', { status: 200 })) as unknown as typeof fetch;

  it('lets GET/HEAD and marked reads (a search sent as POST) through, captures the rest', async () => {
    const writes: PlannedWrite[] = [];
    const f = capturingFetch(inner, writes);
    expect((await f('https://api.example.test/v1/a', { method: 'GET' })).status).toBe(200);
    expect((await f('https://api.example.test/v1/a', { method: 'HEAD' })).status).toBe(200);
    expect((await f('https://api.example.test/v1/search', markRead({ method: 'POST', body: '{"q":1}' }))).status).toBe(200);
    expect(writes).toStrictEqual([]);
    const captured = await f('https://api.example.test/v1/item?x=1', { method: 'POST', body: '{"title":"A"}' });
    expect(captured.status).toBe(599);
    expect(writes).toStrictEqual([{ method: 'POST', path: '/v1/item?x=1', body: { title: 'A' } }]);
    // A mark is a symbol on the init object: spread (as shared/upstream does) keeps it.
    expect(isRead({ ...markRead({ method: 'POST' }), signal: AbortSignal.timeout(1000) } as RequestInit)).toBe(true);
    expect(isRead({ method: 'PUT' })).toBe(false);
  });

  it('summarises uploads by name and size and shortens long strings', async () => {
    const writes: PlannedWrite[] = [];
    const f = capturingFetch(inner, writes);
    const form = new FormData();
    form.set('source', new File([new Uint8Array(12_345)], 'report.pdf', { type: 'application/pdf' }));
    form.set('filename', 'report.pdf');
    await f('https://api.example.test/upload', { method: 'POST', body: form });
    await f('https://api.example.test/raw', { method: 'PUT', body: new Uint8Array(10) });
    await f('https://api.example.test/b64', { method: 'POST', body: JSON.stringify({ content: 'A'.repeat(5000) }) });
    expect(writes[0]).toStrictEqual({ method: 'POST', path: '/upload', body: { multipart: { source: { file: 'report.pdf', size: 12_345, type: 'application/pdf' }, filename: 'report.pdf' } } });
    expect(writes[1]!.body).toStrictEqual({ file: '(bytes)', size: 10 });
    expect((writes[2]!.body as { content: string }).content).toMatch(/… \(5,000 characters\)$/);
  });

  it('the plan text counts a batch per endpoint and notes the rest', () => {
    const writes = Array.from({ length: 120 }, (_, i) => ({ method: 'POST', path: '/v1/record/batch', body: { i } }));
    const text = planText(planOf('dbapp/batchCreateRecords', writes, false));
    expect(text.split('\n')).toStrictEqual([
      'dry run of dbapp/batchCreateRecords: 120 writes planned, nothing sent',
      '120 × POST /v1/record/batch',
      'POST /v1/record/batch {"i":0}',
      'POST /v1/record/batch {"i":1}',
      'POST /v1/record/batch {"i":2}',
      '… and 117 more writes (format=json lists each)',
      'Nothing was sent. These are all the writes the call would make, in order.',
    ]);
  });
});
