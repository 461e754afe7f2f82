import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { dbapp } from '../../functions/dbapp';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';
import { DEMO_LEADS_APP_ID } from '../../infra/twins/tape/demo';
import { loadConfig } from '../../shared/core/config';
import { lambdaHandler } from '../../shared/lambda/handler';
import { MemoryStore } from '../../shared/store/memory';
import { httpApiV2Event, lambdaContext } from '../../infra/lambda-events';

/** The tools of every dbapp group through the Lambda entry (API Gateway v2 events), text and JSON. */
describe('dbapp tool groups through the Lambda handler', () => {
  const twin = createTapeTwin();
  const handler = lambdaHandler(dbapp, { fetchFor: { dbapp: twin.fetch }, store: new MemoryStore(), config: loadConfig({}) });
  async function call(tool: string, params: unknown, json = true, budgetMs?: number) {
    const res = (await handler(
      httpApiV2Event({
        method: 'POST',
        path: `/v1/tools/dbapp/${tool}`,
        ...(json ? { query: { format: 'json' } } : {}),
        headers: { Authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(params),
      }),
      lambdaContext(budgetMs),
    )) as APIGatewayProxyStructuredResultV2;
    return { status: res.statusCode, body: JSON.parse(String(res.body)) as { success: boolean; data: any; error?: any } };
  }

  it('apps and records: schema, create, read, list, batch, delete and restore', async () => {
    const app = await call('getApp', { app_id: DEMO_LEADS_APP_ID });
    expect(app.body.data.fields.map((f: { external_id: string }) => f.external_id)).toContain('company');

    const created = await call('createRecord', { app_id: DEMO_LEADS_APP_ID, fields: { name: 'Ada Lovelace', company: 'Analytical Engines', status: ['New'] } });
    expect(created.status).toBe(200);
    const id = created.body.data.record_id as number;
    expect(created.body.data.record_url).toMatch(new RegExp(`/record/${id}$`));

    const text = await call('getRecord', { record_id: id }, false);
    expect(text.body.data).toContain('Ada Lovelace');
    expect(text.body.data).toContain('Analytical Engines');

    const batch = await call('batchCreateRecords', { app_id: DEMO_LEADS_APP_ID, inputs: [{ fields: { name: 'B1', status: ['New'] } }, { fields: { name: 'B2', status: ['New'] } }] });
    expect(batch.body.data).toMatchObject({ total: 2, successful: 2, failed: 0 });

    const bad = await call('createRecord', { app_id: DEMO_LEADS_APP_ID, fields: { status: ['Maybe'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_PARAMETER');

    expect((await call('deleteRecord', { record_id: id })).status).toBe(200);
    expect((await call('restoreRecord', { record_id: id })).status).toBe(200);
    const list = await call('listRecords', { app_id: DEMO_LEADS_APP_ID, count_only: true });
    expect(list.body.data).toEqual({ total: 183, count_only: true });
  });

  it('views and webhooks', async () => {
    const view = await call('createView', { app_id: DEMO_LEADS_APP_ID, name: 'New leads', layout: 'table', filters: [{ field_label: 'Status', match_type: 'equal', values: [{ value: 1 }] }] });
    expect(view.status).toBe(200);
    const viewId = view.body.data.view.view_id as number;
    const records = await call('listRecords', { view_id: viewId, limit: 5 });
    expect(records.body.data.records.length).toBeGreaterThan(0);
    expect((await call('getAppViews', { app_id: DEMO_LEADS_APP_ID }, false)).body.data).toContain('New leads');

    // A public address literal: the target check resolves names, and tests have no DNS.
    const hook = await call('createWebhook', { app_id: DEMO_LEADS_APP_ID, url: 'https://93.184.215.14/tape', event_type: 'record.create' });
    expect(hook.body.data).toMatchObject({ status: 'inactive', type: 'record.create' });
    expect((await call('listWebhooks', { app_id: DEMO_LEADS_APP_ID }, false)).body.data).toContain('https://93.184.215.14/tape');
  });

  it('automations: catalog, create, validate and activate', async () => {
    const catalog = await call('getAutomationCatalog', { section: 'triggers' });
    expect(catalog.body.data.triggers.map((t: { type: string }) => t.type)).toContain('record_created');
    const created = await call('createAutomation', {
      app_id: DEMO_LEADS_APP_ID,
      name: 'Greet new leads',
      trigger: { type: 'record_created', config: {} },
      actions: [{ type: 'send_email', config: { to_address: ['sales@example.com'], subject: ['New lead'], message_body: ['A new lead arrived.'] } }],
    });
    expect(created.body.error).toBeUndefined();
    expect(created.body.data.automation).toMatchObject({ paused: true, trigger_type: 'record_created' });
    const id = created.body.data.automation.id as number;
    expect((await call('validateAutomation', { automation_id: id })).body.data.valid).toBe(true);
    expect((await call('activateAutomation', { automation_id: id }, false)).status).toBe(200);
    expect((await call('getAutomation', { automation_id: id })).body.data.paused).toBe(false);
  });

  it('a batch started with too little of the Lambda\'s time left sends nothing and reports every item NOT_ATTEMPTED', async () => {
    const before = twin.state.records.size;
    const inputs = Array.from({ length: 60 }, (_, i) => ({ fields: { name: `Late ${i}`, status: ['New'] } }));
    const r = await call('batchCreateRecords', { app_id: DEMO_LEADS_APP_ID, inputs }, true, 500);
    expect(r.body.data).toMatchObject({ total: 60, successful: 0, failed: 60 });
    expect(r.body.data.items.every((item: { success: boolean; error?: { code: string } }) => !item.success && item.error?.code === 'NOT_ATTEMPTED')).toBe(true);
    expect(twin.state.records.size).toBe(before);
  });
});
