/** Filter operands: bare values as shorthand for [{"value": …}], and a wrong shape answered with the form built from the caller's value. */
import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { DEMO_DEALS_APP_ID as DEALS } from '../../infra/twins/tape/demo';

const json = { query: 'format=json' };

describe('filter values: the bare-value shorthand', () => {
  it('filterRecords takes ["Won"] as [{"value": "Won"}] and sends Tape its own form', async () => {
    const h = await harness();
    const long = await h.call('dbapp/filterRecords', { app_id: DEALS, filters: [{ field_id: 'stage', match_type: 'any', values: [{ value: 'Won' }] }], count_only: true }, json);
    const sent = h.recordRequests('dbapp');
    const short = await h.call('dbapp/filterRecords', { app_id: DEALS, filters: [{ field_id: 'stage', match_type: 'any', values: ['Won'] }], count_only: true }, json);
    expect(short.body.data).toEqual(long.body.data);
    expect(long.body.data.total).toBeGreaterThan(0);
    const body = sent.find((r) => r.path === `/v1/record/filter/app/${DEALS}`)!.body as { filters: { values: unknown[] }[] };
    expect(body.filters[0]!.values).toEqual([{ value: 4 }]);
    const amount = await h.call('dbapp/filterRecords', { app_id: DEALS, filters: [{ field_id: 'amount', match_type: 'larger', values: [100000] }], count_only: true }, json);
    expect(amount.status).toBe(200);
    // One value alone is the list of that value.
    const alone = await h.call('dbapp/filterRecords', { app_id: DEALS, filters: [{ field_id: 'stage', match_type: 'any', values: 'Won' }], count_only: true }, json);
    expect(alone.body.data).toEqual(long.body.data);
  });

  it('a view filter takes the shorthand too', async () => {
    const h = await harness();
    const r = await h.call('dbapp/createView', { app_id: DEALS, name: 'Won deals', layout: 'table', filters: [{ field_label: 'Stage', match_type: 'any', values: ['Won', 'Lost'] }] }, json);
    expect(r.status).toBe(200);
    expect(r.body.data.view.filters[0].values).toEqual([{ value: 4 }, { value: 5 }]);
  });

  it.each([
    [[{ val: 'Won' }], 'filters.0.values', '[{"value": "Won"}] or just ["Won"]'],
    [{ val: 'Proposal' }, 'filters.0.values', '[{"value": "Proposal"}] or just ["Proposal"]'],
    [[['Lost']], 'filters.0.values', '[{"value": "Lost"}] or just ["Lost"]'],
    // A key beside "value" is named itself.
    [[{ value: 'Won', extra: 1 }], 'filters.0.values.0.extra', 'is not a parameter'],
  ])('a wrong shape %j is refused with the form built from the caller\'s value', async (values, parameter, form) => {
    const h = await harness();
    const sent = h.recordRequests('dbapp');
    const r = await h.call('dbapp/filterRecords', { app_id: DEALS, filters: [{ field_id: 'stage', match_type: 'any', values }] });
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe(parameter);
    expect(r.body.error.message).toContain(form);
    expect(sent).toEqual([]);
  });
});
