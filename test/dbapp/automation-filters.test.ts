/** Automation filters name category/status options by text as the record tools do; a refusal names the id the text means. */
import { describe, expect, it } from 'vitest';
import { harness, SANDBOX_KEYS } from '../helpers/harness';
import { DEMO_DEALS_APP_ID as DEALS } from '../../infra/twins/tape/demo';

const json = { query: 'format=json' };
type H = Awaited<ReturnType<typeof harness>>;

function field(h: H, label: string) {
  return h.tape.state.apps.get(DEALS)!.fields.find((f) => f.config.label === label)!;
}
const condition = (f: { field_id: number; field_type: string }, operator: string, value: unknown) => ({
  subject: { kind: 'variable', source: 'field', field_id: f.field_id, field_type: f.field_type },
  operator,
  value,
});
const create = (h: H, filter: unknown) =>
  h.call('dbapp/createAutomation', { app_id: DEALS, name: 'Won deals', trigger: { type: 'record_created', config: {} }, filter }, json);

describe('automation filters with option texts', () => {
  it('resolves texts (any case) to option ids through the app schema, and Tape stores ids', async () => {
    const h = await harness();
    const stage = field(h, 'Stage');
    const priority = field(h, 'Priority');
    const r = await create(h, { operator: 'and', rows: [condition(stage, 'is_any_of', { type: 'ids', ids: ['Won', ' lost'] }), condition(priority, 'is', { type: 'ids', ids: [3] })] });
    expect(r.status).toBe(200);
    const stored = h.tape.automations.store.get(r.body.data.automation.id)!;
    const rows = (stored.filter as { rows: { value: { ids: unknown[] } }[] }).rows;
    expect(rows.map((row) => row.value.ids)).toEqual([[4, 5], [3]]);
  });

  it('refuses an unknown text listing the options, and a text on a non-option field', async () => {
    const h = await harness();
    const sent = h.recordRequests('dbapp');
    const unknown = await create(h, { operator: 'and', rows: [condition(field(h, 'Stage'), 'is', { type: 'ids', ids: ['Closed'] })] });
    expect(unknown.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'filter.rows.0.value.ids.0' } });
    expect(unknown.body.error.message).toContain('4 "Won"');
    const user = await create(h, { operator: 'and', rows: [condition(field(h, 'Account manager'), 'is', { type: 'ids', ids: ['John Doe'] })] });
    expect(user.body.error.details.parameter).toBe('filter.rows.0.value.ids.0');
    expect(sent.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/automation/app/'))).toEqual([]);
  });

  it('a text value on a status field is refused naming the id the text means', async () => {
    const h = await harness();
    const r = await create(h, { operator: 'and', rows: [condition(field(h, 'Stage'), 'is', { type: 'text', text: ['Won'] })] });
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'filter.rows.0.value.type' } });
    expect(r.body.error.message).toContain('{type:"ids", ids:[4]} ("Won" is option 4)');
  });

  it('the twin, like Tape, takes ids only, and names the id of a text sent to it', async () => {
    const h = await harness();
    const stage = field(h, 'Stage');
    const res = await h.tape.fetch(`https://api.tapeapp.com/v1/automation/app/${DEALS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', trigger: { type: 'record_created', config: {} }, filter: { operator: 'and', rows: [condition(stage, 'is', { type: 'ids', ids: ['Won'] })] } }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error_message: string }).error_message).toContain('"Won" is option 4');
  });
});

describe('conditions and view filters on a field added in Tape within the cache minute', () => {
  /** Warms the cached Deals schema, then adds a category field "Region" in Tape (not through the tools). */
  async function stale() {
    const h = await harness();
    expect((await h.call('dbapp/listRecords', { app_id: DEALS, limit: 1 })).status).toBe(200);
    const res = await h.tape.fetch(`https://api.tapeapp.com/v1/app/${DEALS}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fields: [{ field_type: 'single_category', config: { label: 'Region', settings: { options: [{ text: 'EMEA' }, { text: 'APAC' }] } } }] }),
    });
    expect(res.status).toBe(200);
    return h;
  }

  it('an automation condition on it is checked once more against a fresh schema', async () => {
    const h = await stale();
    const r = await create(h, { operator: 'and', rows: [condition(field(h, 'Region'), 'is_any_of', { type: 'ids', ids: ['APAC'] })] });
    expect(r.status).toBe(200);
    expect((h.tape.automations.store.get(r.body.data.automation.id)!.filter as { rows: { value: { ids: unknown[] } }[] }).rows[0]!.value.ids).toEqual([2]);
  });

  it('a view filter on it too', async () => {
    const h = await stale();
    const view = await h.call('dbapp/createView', { app_id: DEALS, name: 'APAC', layout: 'table', filters: [{ field_label: 'Region', match_type: 'any', values: ['APAC'] }] }, json);
    expect(view.status).toBe(200);
    expect(view.body.data.view.filters[0]).toMatchObject({ field_id: field(h, 'Region').field_id, values: [{ value: 2 }] });
  });
});
