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

describe('every Tape 400 a tool passes on names one of its parameters and what it expects', () => {
  const json = { query: 'format=json' };
  const VAGUE = 'a request Tape accepts (its message says what it refused)';

  /** Inputs that pass the tool's own checks and that Tape (its twin) then refuses with a 400, each with the parameter it is about. */
  const causes: [string, string, Record<string, unknown>, string][] = [
    ['a relation to a record that does not exist', 'createRecord', { app_id: 902, fields: { deal_name: 'x', stage: [4], lead: [999999] } }, 'fields.lead'],
    ['a relation to a record of another app', 'createRecord', { app_id: 902, fields: { deal_name: 'x', stage: [4], lead: [5300] } }, 'fields.lead'],
    ['a user outside the organization in a user field', 'createRecord', { app_id: 902, fields: { deal_name: 'x', stage: [4], account_manager: [424242] } }, 'fields.account_manager'],
    ['an update relating a record that does not exist', 'updateRecord', { record_id: 5300, fields: { lead: [999999] } }, 'fields.lead'],
    ['an update naming a user outside the organization', 'updateRecord', { record_id: 5300, fields: { account_manager: [424242] } }, 'fields.account_manager'],
    ['a comment file that was never uploaded', 'createRecordComment', { record_id: 5300, value: 'x', files: ['temporary-file-999'] }, 'files'],
    ['relatable records of a field that is no relation', 'findRelatableRecords', { field_id: 9018, text: 'a' }, 'field_id'],
    ['related records through a field that is no relation', 'getRelatedRecords', { app_id: 902, record_ids: [5300], related_app_id: 901, relation_field_ids: [9018] }, 'relation_field_ids'],
    ['related records of a record of another app', 'getRelatedRecords', { app_id: 902, record_ids: [5001], related_app_id: 901 }, 'record_ids'],
    ['a workspace member outside the organization', 'addWorkspaceMember', { workspace_id: 2, user_id: 424242, role: 'member' }, 'user_id'],
    ['a cursor Tape did not hand out', 'listRecords', { app_id: DEMO_LEADS_APP_ID, cursor: 'garbage' }, 'cursor'],
    ['a field type Tape does not know', 'getAutomationCatalog', { field_type: 'no_such_type' }, 'field_type'],
  ];

  it.each(causes)('%s (%s %j) → %s', async (_what, tool, params, parameter) => {
    const h = await harness();
    const r = await h.call(`dbapp/${tool}`, params, json);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter, upstream_status: 400 } });
    expect(r.body.error.details.expected).toEqual(expect.any(String));
    expect(r.body.error.details.expected).not.toBe(VAGUE);
    expect(r.body.error.details.vendor_message).toEqual(expect.any(String));
  });

  it('in a batch, the refused item carries its own parameter, relative to the item; the others succeed', async () => {
    const h = await harness();
    const r = await h.call('dbapp/batchCreateRecords', { app_id: 902, inputs: [{ fields: { deal_name: 'ok', stage: [4] } }, { fields: { deal_name: 'bad', stage: [4], lead: [999999] } }] }, json);
    expect(r.status).toBe(200);
    expect(r.body.data.items[0]).toMatchObject({ index: 0, success: true });
    expect(r.body.data.items[1]).toMatchObject({ index: 1, success: false, error: { code: 'INVALID_PARAMETER', details: { parameter: 'fields.lead', expected: expect.stringContaining('fields.lead') } } });
  });

  it('a 400 whose message names no input names the input the request was about, and says so in expected', async () => {
    const h = await harness();
    h.tape.faults.inject({ path: /^\/v1\/record\/5300$/, method: 'PUT', times: 1, fault: { status: 400, body: { status_code: 400, error_code: 'validation_error', error_message: 'Something is not right.' } } });
    const r = await h.call('dbapp/updateRecord', { record_id: 5300, fields: { amount: 5 } }, json);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'fields', upstream_status: 400, vendor_message: 'Something is not right.' } });
    expect(r.body.error.details.expected).toMatch(/its message names no input, so fields, the input the request was about, is named/);
    h.tape.faults.inject({ path: /^\/v1\/automation\/\d+\/activate$/, times: 1, fault: { status: 400, body: { status_code: 400, error_code: 'validation_error', error_message: 'Not now.' } } });
    const created = await h.call('dbapp/createAutomation', { app_id: DEMO_LEADS_APP_ID, name: 'On create', trigger: { type: 'record_created', config: {} } }, json);
    const activate = await h.call('dbapp/activateAutomation', { automation_id: created.body.data.automation.id }, json);
    expect(activate.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'automation_id', expected: expect.stringContaining('names no input') } });
  });
});
