import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocal, startupMessage } from '../../infra/local/server';
import type { TapeTwin } from '../../infra/twins/tape';
import { DEMO_LEADS_APP_ID } from '../../infra/twins/tape/demo';
import type { HubSpotTwin } from '../../infra/twins/hubspot';

/** `npm start`: the local server, its twins delivering to its own receiver over HTTP. */
describe('the local loop (npm start)', () => {
  let local: Awaited<ReturnType<typeof startLocal>>;
  beforeAll(async () => {
    local = await startLocal({ PORT: '0' });
  });
  afterAll(() => new Promise<void>((resolve) => local.server.close(() => resolve())));

  const call = async (path: string, params: unknown) => {
    const res = await fetch(`${local.base}/v1/tools/${path}?format=json`, { method: 'POST', headers: { authorization: `Bearer ${local.key}`, 'content-type': 'application/json' }, body: JSON.stringify(params) });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('prints the receiver base', () => {
    expect(startupMessage(local.base, local.config, local.knobs)).toContain(`event receiver: ${local.base}/v1/events/{platform}/{subscription_id}`);
  });

  it('subscribe → a change through a tool → listEvents shows it (Tape)', async () => {
    const sub = await call('dbapp/subscribeEvents', { app_id: DEMO_LEADS_APP_ID, event_types: ['record.create'] });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    expect(sub.body.data.receiver).toBe(`${local.base}/v1/events/dbapp/${sub.body.data.subscription_id}`);
    const created = await call('dbapp/createRecord', { app_id: DEMO_LEADS_APP_ID, fields: { name: 'Inbox demo', status: 'New' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await (local.twins.dbapp as TapeTwin).deliveries.idle();
    const listed = await call('dbapp/listEvents', { subscription_id: sub.body.data.subscription_id });
    expect(listed.body.data.events.map((e: any) => e.data.record_id)).toEqual([created.body.data.record_id]);
  });

  it('subscribe → a change through a tool → listEvents shows it (HubSpot, signed)', async () => {
    const sub = await call('crm/subscribeEvents', { object_types: ['contacts'], events: ['creation'] });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const created = await call('crm/createContact', { values: { email: 'inbox.demo@example.com' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await (local.twins.crm as HubSpotTwin).webhooks.idle();
    const listed = await call('crm/listEvents', { subscription_id: sub.body.data.subscription_id });
    expect(listed.body.data.events.map((e: any) => [e.type, String(e.data.objectId)])).toEqual([['contact.creation', String(created.body.data.id)]]);
  });
});
