/**
 * Vendor 400s the tools answer as INVALID_PARAMETER name the tool input that caused them, and a
 * missing automation is NOT_FOUND on every automation tool, whatever status Tape sends.
 */
import { describe, expect, it } from 'vitest';
import { harness, SANDBOX_KEYS } from '../helpers/harness';
import { DEMO_LEADS_APP_ID } from '../../infra/twins/tape/demo';

describe('vendor 400s name the parameter the tool sent', () => {
  it.each([
    ['listRecords', { app_id: DEMO_LEADS_APP_ID, cursor: 'garbage' }, 'cursor'],
    ['filterRecords', { app_id: DEMO_LEADS_APP_ID, filters: [], cursor: 'garbage' }, 'cursor'],
    ['listRecordComments', { record_id: 5001, cursor: 'garbage' }, 'cursor'],
    ['getAutomationCatalog', { field_type: 'no_such_type' }, 'field_type'],
  ])('%s %j → parameter %s', async (tool, params, parameter) => {
    const h = await harness();
    const sent = h.recordRequests('dbapp');
    const r = await h.call(`dbapp/${tool}`, params);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter, upstream_status: 400 } });
    expect(sent.length).toBeGreaterThan(0);
  });

  it('listAutomationRuns refuses a time that does not exist before Tape sees it; the twin refuses it too', async () => {
    const h = await harness();
    const sent = h.recordRequests('dbapp');
    const r = await h.call('dbapp/listAutomationRuns', { created_at_from: '2025-02-31 10:00:00' });
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'created_at_from' } });
    expect(sent).toEqual([]);
    const raw = await h.tape.fetch('https://api.tapeapp.com/v1/automation-run', {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ created_at_to: '2025-02-31 10:00:00' }),
    });
    expect(raw.status).toBe(400);
  });
});

describe('a missing automation is NOT_FOUND everywhere', () => {
  it.each([
    ['getAutomation', { automation_id: 999999 }],
    ['callAutomation', { automation_id: 999999, record_id: 5001 }],
    ['generateAutomationWeblink', { automation_id: 999999, record_id: 5001 }],
  ])('%s', async (tool, params) => {
    const h = await harness();
    const r = await h.call(`dbapp/${tool}`, params);
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('NOT_FOUND');
    if (tool !== 'getAutomation') expect(r.body.error.details.parameter).toBe('automation_id');
  });

  it('an automation that exists but cannot take the call stays a 400 naming what is wrong', async () => {
    const h = await harness();
    const created = await h.call('dbapp/createAutomation', { app_id: DEMO_LEADS_APP_ID, name: 'On create', trigger: { type: 'record_created', config: {} } }, { query: 'format=json' });
    const id = created.body.data.automation.id;
    const wrongType = await h.call('dbapp/generateAutomationWeblink', { automation_id: id, record_id: 5001 });
    expect(wrongType.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'automation_id', upstream_status: 400 } });
    const clicked = await h.call('dbapp/createAutomation', { app_id: DEMO_LEADS_APP_ID, name: 'On click', trigger: { type: 'weblink_clicked', config: {} } }, { query: 'format=json' });
    const deal = await h.call('dbapp/generateAutomationWeblink', { automation_id: clicked.body.data.automation.id, record_id: 5200 });
    expect(deal.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'record_id' } });
  });
});
