import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsHarness } from './helpers';
import { SANDBOX_KEYS } from '../helpers/harness';

let h: Awaited<ReturnType<typeof eventsHarness>>;
beforeAll(async () => {
  h = await eventsHarness();
});
afterAll(() => h.close());

/** Tape's own API on the twin (a user's change in Tape). */
async function api(method: string, path: string, body?: unknown) {
  const res = await h.tape.fetch(`https://api.tapeapp.com${path}`, {
    method,
    headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as any;
}

describe('dbapp events: subscribe → change → listEvents → ackEvents', () => {
  it('runs the whole loop through the tools on the memory store', async () => {
    const app = await api('POST', '/v1/app', { workspace_id: 1, name: 'Projects', fields: [{ field_type: 'single_text', config: { label: 'Title' } }] });
    const sub = await h.json('dbapp/subscribeEvents', { app_id: app.app_id, event_types: ['record.create', 'record.update'] });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    expect(sub.body.data.status).toBe('active');
    const id = sub.body.data.subscription_id as string;
    const hooks = await api('GET', `/v1/hook/app/${app.app_id}`);
    expect(hooks.webhooks.map((w: any) => [w.type, w.status])).toEqual([['record.create', 'active'], ['record.update', 'active']]);
    expect(JSON.stringify(sub.body.data)).not.toContain('secret=');

    const created = await h.json('dbapp/createRecord', { app_id: app.app_id, fields: { title: 'Launch' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await h.tape.deliveries.idle();

    const listed = await h.json('dbapp/listEvents', { subscription_id: id });
    expect(listed.body.data.events.map((e: any) => [e.type, e.data.record_id])).toEqual([['record.create', created.body.data.record_id]]);
    const text = await h.call('dbapp/listEvents', {});
    expect(text.body.data).toContain('record.create');

    const acked = await h.json('dbapp/ackEvents', { event_ids: [listed.body.data.events[0].id] });
    expect(acked.body.data).toEqual({ acknowledged: 1 });
    expect((await h.json('dbapp/listEvents', { subscription_id: id })).body.data.events).toEqual([]);
    expect((await h.json('dbapp/listEvents', { subscription_id: id, include_acked: true })).body.data.events).toHaveLength(1);

    const removed = await h.json('dbapp/deleteSubscription', { subscription_id: id });
    expect(removed.body.data.deleted).toBe(true);
    expect((await api('GET', `/v1/hook/app/${app.app_id}`)).webhooks).toEqual([]);
    expect((await h.json('dbapp/getSubscription', { subscription_id: id })).status).toBe(404);
  });
});
