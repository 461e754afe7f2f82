import { describe, expect, it } from 'vitest';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';

const auth = { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' };

describe('Tape twin: GET /v1/record/view/{view_id} (record.md "Retrieve records for a view")', () => {
  it('returns the records the view matches, in the view\'s order, paged by limit and cursor', async () => {
    const t = createTapeTwin();
    const app = [...t.state.apps.values()].find((a) => a.name === 'Deals')!;
    const stage = app.fields.find((f) => f.external_id === 'stage')!;
    const amount = app.fields.find((f) => f.external_id === 'amount')!;
    const created = await t.fetch(`https://api.tapeapp.com/v1/view/app/${app.app_id}`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        name: 'Won deals by amount',
        layout: 'table',
        sort_by: amount.field_id,
        sort_desc: true,
        filters: [{ field_id: stage.field_id, field_type: 'status', type: 'status', match_type: 'equal', values: [{ value: 4 }] }],
      }),
    });
    expect(created.status).toBe(201);
    const viewId = ((await created.json()) as { view: { view_id: number } }).view.view_id;

    const all: { record_id: number; fields: { external_id: string; values: { value: unknown }[] }[] }[] = [];
    let cursor: string | null = null;
    let total = 0;
    for (let guard = 0; guard < 50; guard++) {
      const res = await t.fetch(`https://api.tapeapp.com/v1/record/view/${viewId}?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: auth });
      const page = (await res.json()) as { total: number; cursor: string | null; records: typeof all };
      total = page.total;
      all.push(...page.records);
      if (page.records.length < 7) break;
      cursor = page.cursor;
    }
    const won = [...t.state.records.values()].filter((r) => r.app_id === app.app_id && !r.deleted_on && (r.values.get(stage.field_id)?.[0]?.value as { id: number } | undefined)?.id === 4);
    expect(won.length).toBeGreaterThan(7);
    expect(total).toBe(won.length);
    expect(all.map((r) => r.record_id).sort()).toEqual(won.map((r) => r.record_id).sort());
    const amounts = all.map((r) => Number(r.fields.find((f) => f.external_id === 'amount')?.values[0]?.value ?? -Infinity));
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
  });

  it('answers 404 for an unknown view', async () => {
    const t = createTapeTwin();
    const res = await t.fetch('https://api.tapeapp.com/v1/record/view/424242', { headers: auth });
    expect(res.status).toBe(404);
  });
});
