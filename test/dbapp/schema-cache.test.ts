/**
 * App schemas are read through the Store (a minute per key): a second validated write, a batch
 * after a write and a list make no app read; a write the cached schema refuses is checked once
 * more against Tape's app as it is now. Number fields show their unit from the same schema.
 */
import { describe, expect, it } from 'vitest';
import { harness, SANDBOX_KEYS } from '../helpers/harness';
import { DEMO_DEALS_APP_ID as DEALS, DEMO_LEADS_APP_ID as LEADS } from '../../infra/twins/tape/demo';
import { formatNumber } from '../../functions/dbapp/apps/schema';

const json = { query: 'format=json' };
const appReads = (sent: { method: string; path: string }[]) => sent.filter((r) => r.method === 'GET' && /^\/v1\/app\/\d+$/.test(r.path));

describe('app schemas cached through the Store', () => {
  it('a second write, a batch and a list make no app read', async () => {
    const h = await harness();
    const sent = h.recordRequests('dbapp');
    expect((await h.call('dbapp/createRecord', { app_id: DEALS, fields: { deal_name: 'First', stage: ['Won'] } })).status).toBe(200);
    expect(appReads(sent)).toHaveLength(1);
    sent.length = 0;
    const second = await h.call('dbapp/updateRecord', { record_id: 5300, fields: { stage: ['Lost'], amount: 1200 } });
    expect(second.status).toBe(200);
    const batch = await h.call('dbapp/batchCreateRecords', { app_id: DEALS, inputs: [{ fields: { deal_name: 'A', stage: ['Won'] } }, { fields: { deal_name: 'B', stage: ['Lost'] } }] });
    expect(batch.body.data).toContain('2 of 2');
    const update = await h.call('dbapp/batchUpdateRecords', { app_id: DEALS, updates: [{ record_id: 5299, fields: { priority: ['High'] } }] });
    expect(update.status).toBe(200);
    await h.call('dbapp/listRecords', { app_id: DEALS, limit: 5 });
    await h.call('dbapp/filterRecords', { app_id: DEALS, filters: [{ field_id: 'stage', match_type: 'any', values: [{ value: 'Won' }] }] });
    expect(appReads(sent)).toEqual([]);
    // The writes themselves went out.
    expect(sent.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([
      'PUT /v1/record/5300',
      `POST /v1/record/app/batch/${DEALS}`,
      `PUT /v1/record/app/batch/${DEALS}`,
      `POST /v1/record/filter/app/${DEALS}`,
    ]);
  });

  it('a batch alone reads the app once; the next batch not at all', async () => {
    const h = await harness();
    const sent = h.recordRequests('dbapp');
    const inputs = [{ fields: { deal_name: 'X', stage: ['Won'] } }];
    await h.call('dbapp/batchCreateRecords', { app_id: DEALS, inputs });
    await h.call('dbapp/batchCreateRecords', { app_id: DEALS, inputs });
    expect(appReads(sent)).toHaveLength(1);
  });

  it('a field or option added in Tape within the minute is found: the refusal is checked against a fresh read', async () => {
    const h = await harness();
    await h.call('dbapp/createRecord', { app_id: DEALS, fields: { deal_name: 'Warm the cache', stage: ['Won'] } });
    // Someone adds a field in Tape (not through the tools).
    const res = await h.tape.fetch(`https://api.tapeapp.com/v1/app/${DEALS}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fields: [{ field_type: 'single_text', config: { label: 'Region' } }] }),
    });
    expect(res.status).toBe(200);
    const sent = h.recordRequests('dbapp');
    const r = await h.call('dbapp/createRecord', { app_id: DEALS, fields: { deal_name: 'With region', stage: ['Won'], region: 'EMEA' } });
    expect(r.status).toBe(200);
    expect(appReads(sent)).toHaveLength(1);
    // A key that is really unknown is still refused, naming it.
    const bad = await h.call('dbapp/createRecord', { app_id: DEALS, fields: { deal_name: 'x', regoin: 'EMEA' } });
    expect(bad.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'fields.regoin' } });
  });

  it('getApp reads Tape every time', async () => {
    const h = await harness();
    const sent = h.recordRequests('dbapp');
    await h.call('dbapp/getApp', { app_id: LEADS });
    await h.call('dbapp/getApp', { app_id: LEADS });
    expect(appReads(sent)).toHaveLength(2);
  });
});

describe('number fields show their unit', () => {
  it('in record text and JSON, from the cached schema (no app read per list)', async () => {
    const h = await harness();
    const lead = (await h.call('dbapp/createRecord', { app_id: LEADS, fields: { name: 'Unit Test', status: ['New'], estimated_value: 12000 } }, json)).body.data;
    const sent = h.recordRequests('dbapp');
    const rec = (await h.call('dbapp/getRecord', { record_id: lead.record_id }, json)).body.data;
    expect(rec.fields.find((f: { external_id: string }) => f.external_id === 'estimated_value')).toMatchObject({ value: 12000, unit: '€', display: '12,000.00 €' });
    const line = ((await h.call('dbapp/listRecords', { app_id: LEADS, limit: 1 })).body.data as string).split('\n')[0];
    expect(line).toContain('Estimated value: 12,000.00 €');
    const deal = ((await h.call('dbapp/getRecord', { record_id: 5300 })).body.data as string);
    expect(deal).toContain('Amount: $93,500.00');
    // The Leads schema was read by createRecord; the Deals one once, by the first Deals read.
    expect(appReads(sent).map((r) => r.path)).toEqual([`/v1/app/${DEALS}`]);
  });

  it('formats as the field says: decimals, prefix or suffix', () => {
    expect(formatNumber(1234.5, { unit: '€', location: 'suffix', decimals: 2 })).toBe('1,234.50 €');
    expect(formatNumber(1234.5, { unit: '$', location: 'prefix', decimals: 0 })).toBe('$1,235');
    expect(formatNumber(0.125, { unit: 'kg', location: 'suffix' })).toBe('0.125 kg');
  });
});
