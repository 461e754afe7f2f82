import { describe, expect, it } from 'vitest';
import { HUBSPOT_DEMO, SANDBOX_KEYS, type HubSpotTwin } from '../../infra/twins/hubspot';
import { MemoryStore } from '../../shared/store/memory';
import { harness } from '../helpers/harness';

const json = { query: 'format=json' };
const twinOf = (h: Awaited<ReturnType<typeof harness>>) => h.twin<HubSpotTwin>('crm');
const sent = (h: Awaited<ReturnType<typeof harness>>) => h.recordRequests('crm');

describe('createDeal', () => {
  it('creates a deal with checked values: labels mapped to ids, numbers and dates as HubSpot strings, crm_ names to HubSpot names', async () => {
    const h = await harness();
    const log = sent(h);
    const r = await h.call('crm/createDeal', {
      values: { dealname: 'Acme renewal', amount: 12000, pipeline: 'Renewals', dealstage: 'Proposal', closedate: '2026-12-15', crm_owner_id: 'Sam Member', crm_priority: 'High' },
    }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ id: expect.stringMatching(/^\d+$/) });
    const create = log.find((x) => x.method === 'POST' && x.path === '/crm/v3/objects/deals')!;
    expect(create.body.properties).toEqual({
      dealname: 'Acme renewal', amount: '12000', pipeline: '6482715', dealstage: '6482717', closedate: String(Date.UTC(2026, 11, 15)),
      hubspot_owner_id: HUBSPOT_DEMO.owners.member, hs_priority: 'high',
    });
    const stored = twinOf(h).state.records.deals.get(r.body.data.id)!;
    expect(stored.properties).toMatchObject({ dealstage: '6482717', pipeline: '6482715', closedate: '2026-12-15T00:00:00.000Z', hs_deal_stage_probability: '0.7' });
  });

  it('defaults the pipeline to the first one and the stage to its first stage; id_only false answers the record in one line', async () => {
    const h = await harness();
    const r = await h.call('crm/createDeal', { values: { dealname: 'Tiny deal', amount: '99.5', deal_currency_code: 'USD' }, id_only: false });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatch(/^#\d+ Tiny deal — 99\.50 USD, stage Appointment Scheduled \(Sales Pipeline\)$/);
  });

  it('refuses bad values before any call to HubSpot, naming the parameter', async () => {
    const h = await harness();
    // Definitions and pipelines come from the cache once loaded: load them first.
    await h.call('crm/getPipelines', {});
    await h.call('crm/getProperties', { object_type: 'deals' });
    const log = sent(h);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ amount: 5 }, 'values.dealname', /dealname is required/],
      [{ dealname: 'x', amount: 'lots' }, 'values.amount', /not a number/],
      [{ dealname: 'x', closedate: '15/12/2026' }, 'values.closedate', /YYYY-MM-DD/],
      [{ dealname: 'x', dealstage: 'Parked' }, 'values.dealstage', /"Parked" is not a stage of pipeline default \(Sales Pipeline\); use one of: appointmentscheduled \(Appointment Scheduled\)/],
      [{ dealname: 'x', dealstage: 'Proposal' }, 'values.dealstage', /"Proposal" is a stage of pipeline 6482715 \(Renewals\), not of pipeline default \(Sales Pipeline\) the deal would go to; to move it there pass pipeline: "6482715" too/],
      [{ dealname: 'x', pipeline: 'Nope' }, 'values.pipeline', /no pipeline "Nope"; use one of: default \(Sales Pipeline\), 6482715 \(Renewals\)/],
      [{ dealname: 'x', crm_priority: 'urgent' }, 'values.crm_priority', /not an option of crm_priority; use one of: low \(Low\), medium \(Medium\), high \(High\)/],
      [{ dealname: 'x', dealnam: 'typo' }, 'values.dealnam', /no property "dealnam"; close matches: dealname/],
      [{ dealname: 'x', hubspot_owner_id: '101' }, 'values.hubspot_owner_id', /close matches: crm_owner_id/],
      [{ dealname: 'x', crm_deal_stage_probability: '0.5' }, 'values.crm_deal_stage_probability', /computed by HubSpot/],
      [{ dealname: 'x', crm_is_closed: true }, 'values.crm_is_closed', /computed by HubSpot/],
    ];
    for (const [values, parameter, message] of cases) {
      const r = await h.call('crm/createDeal', { values });
      expect(r.status, parameter).toBe(400);
      expect(r.body.error.code).toBe('INVALID_PARAMETER');
      expect(r.body.error.details.parameter).toBe(parameter);
      expect(r.body.error.message).toMatch(message);
    }
    expect(log).toEqual([]);
  });

  it('caches property definitions and pipelines in the Store for an hour per key', async () => {
    const h = await harness();
    const log = sent(h);
    await h.call('crm/createDeal', { values: { dealname: 'One' } });
    await h.call('crm/createDeal', { values: { dealname: 'Two' } });
    expect(log.filter((x) => x.path === '/crm/v3/properties/deals')).toHaveLength(1);
    expect(log.filter((x) => x.path === '/crm/v3/pipelines/deals')).toHaveLength(1);
    // Another key has its own cache.
    await h.call('crm/createDeal', { values: { dealname: 'Three' } }, { key: SANDBOX_KEYS.member });
    expect(log.filter((x) => x.path === '/crm/v3/properties/deals')).toHaveLength(2);
  });

  it('reloads the definitions once the hour is over', async () => {
    let now = Date.UTC(2026, 0, 1);
    const h = await harness({ store: new MemoryStore(() => now) });
    const log = sent(h);
    await h.call('crm/createDeal', { values: { dealname: 'One' } });
    now += 3_599_000;
    await h.call('crm/createDeal', { values: { dealname: 'Two' } });
    expect(log.filter((x) => x.path === '/crm/v3/properties/deals')).toHaveLength(1);
    now += 2_000;
    await h.call('crm/createDeal', { values: { dealname: 'Three' } });
    expect(log.filter((x) => x.path === '/crm/v3/properties/deals')).toHaveLength(2);
  });
});

describe('getDeal', () => {
  it('reads a deal with crm_ names and the stage and pipeline labels', async () => {
    const h = await harness();
    const id = String(HUBSPOT_DEMO.firstId + HUBSPOT_DEMO.companies + HUBSPOT_DEMO.contacts);
    const rec = twinOf(h).state.records.deals.get(id)!;
    const r = await h.call('crm/getDeal', { deal_id: id, return_properties: ['crm_owner_id', 'crm_lastmodifieddate'] }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id, archived: false, properties: { dealname: rec.properties.dealname, crm_owner_id: rec.properties.hubspot_owner_id, crm_object_id: id } });
    expect(r.body.data.properties.crm_lastmodifieddate).toBe(rec.properties.hs_lastmodifieddate);
    expect(Object.keys(r.body.data.properties).some((k: string) => k.startsWith('hs_') || k.startsWith('hubspot_'))).toBe(false);
    expect(r.body.data.labels).toEqual({ pipeline: expect.any(String), stage: expect.any(String) });
  });

  it('answers the compact line of the issue: amount with currency, stage and pipeline labels, close date', async () => {
    const h = await harness();
    const made = await h.call('crm/createDeal', { values: { dealname: 'Acme renewal', amount: 12000, deal_currency_code: 'USD', pipeline: '6482715', dealstage: '6482717', closedate: '2026-12-15' } }, json);
    const r = await h.call('crm/getDeal', { deal_id: made.body.data.id });
    expect(r.body.data.split('\n')[0]).toBe(`#${made.body.data.id} Acme renewal — 12,000.00 USD, stage Proposal (Renewals), closes 2026-12-15`);
  });

  it('answers NOT_FOUND for an unknown id, and for a deleted deal says it is archived and restorable', async () => {
    const h = await harness();
    const missing = await h.call('crm/getDeal', { deal_id: '999999' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toMatch(/No deal #999999/);
    const made = await h.call('crm/createDeal', { values: { dealname: 'Doomed' } }, json);
    const del = await h.call('crm/deleteDeal', { deal_id: made.body.data.id });
    expect(del.body.data).toMatch(/^deleted deal #\d+ \(archived: restorable from HubSpot's recycling bin/);
    const gone = await h.call('crm/getDeal', { deal_id: made.body.data.id });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('NOT_FOUND');
    expect(gone.body.error.details).toMatchObject({ archived: true });
    expect(gone.body.error.message).toMatch(/was deleted \(archived .*\); it is restorable/);
  });

  it('refuses unknown return_properties with close matches', async () => {
    const h = await harness();
    const r = await h.call('crm/getDeal', { deal_id: '1361', return_properties: ['amout'] });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ parameter: 'return_properties[0]', close_matches: ['amount'] });
  });
});

describe('updateDeal', () => {
  it('sets only the given values and answers {id, updated: true}', async () => {
    const h = await harness();
    const made = await h.call('crm/createDeal', { values: { dealname: 'Upd', amount: 10 } }, json);
    const id = made.body.data.id;
    const r = await h.call('crm/updateDeal', { deal_id: id, values: { amount: 20, dealstage: 'Contract Sent' } }, json);
    expect(r.body.data).toEqual({ id, updated: true, changed: ['amount', 'dealstage'] });
    expect(twinOf(h).state.records.deals.get(id)!.properties).toMatchObject({ dealname: 'Upd', amount: '20', dealstage: 'contractsent', pipeline: 'default' });
    expect((await h.call('crm/updateDeal', { deal_id: id, values: { amount: 30 } })).body.data).toBe(`updated deal #${id}: amount`);
  });

  it('checks a new stage against the deal\'s current pipeline, and a pipeline change needs a stage of it', async () => {
    const h = await harness();
    const made = await h.call('crm/createDeal', { values: { dealname: 'Renewal', pipeline: '6482715' } }, json);
    const id = made.body.data.id;
    const bad = await h.call('crm/updateDeal', { deal_id: id, values: { dealstage: 'closedwon' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('values.dealstage');
    // closedwon is a stage of the Sales Pipeline: the answer names it and says to pass the pipeline too.
    expect(bad.body.error.message).toMatch(/"closedwon" is a stage of pipeline default \(Sales Pipeline\), not of pipeline 6482715 \(Renewals\) the deal is in; to move it there pass pipeline: "default" too/);
    expect(bad.body.error.details).toMatchObject({ expected: 'a stage of pipeline 6482715', stage_pipeline: 'default' });
    const nowhere = await h.call('crm/updateDeal', { deal_id: id, values: { dealstage: 'nosuchstage' } });
    expect(nowhere.body.error.message).toMatch(/"nosuchstage" is not a stage of pipeline 6482715 \(Renewals\); use one of:/);
    const move = await h.call('crm/updateDeal', { deal_id: id, values: { pipeline: 'default' } });
    expect(move.status).toBe(400);
    expect(move.body.error.message).toMatch(/moving to pipeline default \(Sales Pipeline\) needs a stage of it/);
    const ok = await h.call('crm/updateDeal', { deal_id: id, values: { pipeline: 'default', dealstage: 'closedwon' } }, json);
    expect(ok.status).toBe(200);
    expect(twinOf(h).state.records.deals.get(id)!.properties).toMatchObject({ pipeline: 'default', dealstage: 'closedwon', hs_is_closed: 'true' });
  });

  it('answers NOT_FOUND with the archive hint for a deleted deal', async () => {
    const h = await harness();
    const made = await h.call('crm/createDeal', { values: { dealname: 'Gone' } }, json);
    await h.call('crm/deleteDeal', { deal_id: made.body.data.id });
    const r = await h.call('crm/updateDeal', { deal_id: made.body.data.id, values: { amount: 1 } });
    expect(r.status).toBe(404);
    expect(r.body.error.details.archived).toBe(true);
  });
});

describe('deleteDeal', () => {
  it('archives (soft delete) and answers {deleted: true, dealId}; a second delete answers success again; a never-existing id is NOT_FOUND', async () => {
    const h = await harness();
    const made = await h.call('crm/createDeal', { values: { dealname: 'Bye' } }, json);
    const id = made.body.data.id;
    const r = await h.call('crm/deleteDeal', { deal_id: id }, json);
    expect(r.body.data).toEqual({ deleted: true, dealId: id });
    expect(twinOf(h).state.records.deals.get(id)!.archivedAt).toBeDefined();
    const log = sent(h);
    const again = await h.call('crm/deleteDeal', { deal_id: id }, json);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ deleted: true, dealId: id, already_deleted: true });
    // Nothing archived twice: only the reads that told the deal is already in the recycling bin.
    expect(log.map((x) => x.method)).toEqual(['GET', 'GET']);
    const text = await h.call('crm/deleteDeal', { deal_id: Number(id) });
    expect(text.body.data).toMatch(new RegExp(`^deleted deal #${id} \\(it was already deleted; archived: restorable`));
    const never = await h.call('crm/deleteDeal', { deal_id: '999999999' });
    expect(never.status).toBe(404);
    expect(never.body.error.details).toMatchObject({ deal_id: '999999999' });
  });
});

describe('getPipelines', () => {
  it('lists deal pipelines by default and ticket pipelines on request, stages in order', async () => {
    const h = await harness();
    const deals = await h.call('crm/getPipelines', {}, json);
    expect(deals.body.data.pipelines.map((p: { id: string }) => p.id)).toEqual(['default', '6482715']);
    expect(deals.body.data.pipelines[0].stages[0]).toEqual({ id: 'appointmentscheduled', label: 'Appointment Scheduled', displayOrder: 0 });
    const tickets = await h.call('crm/getPipelines', { object_type: 'tickets' });
    expect(tickets.body.data).toBe('pipeline 0 Support Pipeline: 1 New › 2 Waiting on contact › 3 Waiting on us › 4 Closed\n1 ticket pipeline');
    const bad = await h.call('crm/getPipelines', { object_type: 'contacts' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('object_type');
  });
});

describe('HubSpot errors', () => {
  it('maps a 429 with its rate-limit headers to RATE_LIMITED with the interval as retry_after, and is not retried', async () => {
    const h = await harness({ twins: { crm: { rateLimit: { limit: 2, windowMs: 10_000 } } } });
    await h.call('crm/getPipelines', {});
    await h.call('crm/getPipelines', {});
    const r = await h.call('crm/getPipelines', {});
    expect(r.status).toBe(429);
    expect(r.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { retry_after: 10, upstream_status: 429, upstream_code: 'RATE_LIMITS' } });
    expect(r.body.error.message).toMatch(/ten_secondly_rolling limit.*TEN_SECONDLY_ROLLING/);
    expect(twinOf(h).requests.find({ path: '/crm/v3/pipelines/deals' })).toHaveLength(3);
  });

  it('maps 5xx to INTERNAL_ERROR with the upstream status, retrying reads only', async () => {
    const h = await harness();
    twinOf(h).faults.inject({ path: '/crm/v3/pipelines/deals', fault: { status: 503, body: { status: 'error', message: 'down', correlationId: 'x', category: 'INTERNAL_ERROR' } } });
    const r = await h.call('crm/getPipelines', {});
    expect(r.status).toBe(500);
    expect(r.body.error).toMatchObject({ code: 'INTERNAL_ERROR', details: { upstream_status: 503 } });
    expect(twinOf(h).requests.find({ path: '/crm/v3/pipelines/deals' }).length).toBe(3);
    twinOf(h).faults.clear();
    await h.call('crm/getProperties', { object_type: 'deals' });
    twinOf(h).faults.inject({ method: 'POST', path: '/crm/v3/objects/deals', fault: { status: 502 } });
    const w = await h.call('crm/createDeal', { values: { dealname: 'Once' } });
    expect(w.status).toBe(500);
    expect(twinOf(h).requests.find({ method: 'POST', path: '/crm/v3/objects/deals' })).toHaveLength(1);
  });

  it('maps HubSpot\'s 400 VALIDATION_ERROR to INVALID_PARAMETER keeping its message, and 401 to UNAUTHORIZED', async () => {
    const h = await harness();
    await h.call('crm/createDeal', { values: { dealname: 'warm the caches' } });
    twinOf(h).faults.inject({
      method: 'POST', path: '/crm/v3/objects/deals', times: 1,
      fault: { status: 400, body: { status: 'error', message: 'Property values were not valid: [{"isValid":false,"message":"owner 999 is not active"}]', correlationId: 'c', category: 'VALIDATION_ERROR' } },
    });
    const r = await h.call('crm/createDeal', { values: { dealname: 'x' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { upstream_status: 400, upstream_code: 'VALIDATION_ERROR' } });
    expect(r.body.error.message).toMatch(/Property values were not valid/);
    const u = await h.call('crm/getPipelines', {}, { key: 'pat-na1-not-a-real-token' });
    expect(u.status).toBe(401);
    expect(u.body.error.code).toBe('UNAUTHORIZED');
  });
});
