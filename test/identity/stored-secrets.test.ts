import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import type { MemoryStore } from '../../shared/store/memory';
import { Browser, hostSignIn, localServer } from './helpers';

/**
 * A copy of the table reveals no secret: after a full flow (a key, an API-key and an OAuth
 * connection, an event subscription, an MCP host's sign-in), the raw store holds none of the
 * secrets the flow used — only their hashes, or sealed.
 */
describe('no secret is stored in clear', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  beforeAll(async () => {
    s = await localServer();
  });
  afterAll(() => s.close());

  it('after a full flow the store holds none of its secrets', async () => {
    const secrets: Record<string, string> = {};
    const { key } = await s.createKey('acme', { platforms: ['dbapp', 'crm'] });
    secrets.service_key = key;
    secrets.vendor_key = SANDBOX_KEYS.owner;

    const raw = () => JSON.stringify([...((s.rt.store as MemoryStore) as any).entries.entries()]);
    const keyed = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'u1', auth: 'api_key' } });
    secrets.api_key_link = new URL(keyed.body.data.connect_url).pathname.split('/').pop()!;
    // A link not used yet is in the store too, under its hash only.
    expect(raw().includes(secrets.api_key_link), 'an unused connect link is in the store').toBe(false);
    await new Browser().connectKey(keyed.body.data.connect_url, SANDBOX_KEYS.owner);
    const dbapp = keyed.body.data.connection.id as string;

    const oauth = await s.api('POST', '/v1/connections', { key, body: { platform: 'crm', end_user: 'u2', auth: 'oauth' } });
    secrets.oauth_link = new URL(oauth.body.data.connect_url).pathname.split('/').pop()!;
    const browser = new Browser();
    expect((await browser.connectOAuth(oauth.body.data.connect_url)).html).toContain('id="connected"');
    secrets.oauth_state = new URL(browser.urls.find((u) => u.includes('/oauth/authorize?'))!).searchParams.get('state')!;

    // An event subscription of the Tape twin: its receiver URL carries the subscription's secret.
    const tape = (path: string, init: RequestInit = {}) => s.twins.dbapp!.fetch(`https://api.tapeapp.com${path}`, { ...init, headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' } });
    const app = (await (await tape('/v1/app', { method: 'POST', body: JSON.stringify({ workspace_id: 1, name: 'Secrets', fields: [{ field_type: 'single_text', config: { label: 'Title' } }] }) })).json()) as { app_id: number };
    const sub = await s.call(key, dbapp, 'dbapp/subscribeEvents', { app_id: app.app_id, event_types: ['record.create'] });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const hooks = (await (await tape(`/v1/hook/app/${app.app_id}`)).json()) as { webhooks: { url: string }[] };
    secrets.subscription_secret = new URL(hooks.webhooks[0]!.url).searchParams.get('secret')!;
    // A real change is delivered, checked with Tape through the subscriber's connection, and stored.
    const created = await s.call(key, dbapp, 'dbapp/createRecord', { app_id: app.app_id, fields: { title: 'Checked' } });
    await (s.twins.dbapp as unknown as { deliveries: { idle(): Promise<void> } }).deliveries.idle();
    const listed = await s.call(key, dbapp, 'dbapp/listEvents', { subscription_id: sub.body.data.subscription_id });
    expect(listed.body.data.events.map((e: { data: { record_id: number } }) => e.data.record_id)).toEqual([created.body.data.record_id]);

    // An MCP host signs in with the service key.
    const signed = await hostSignIn(s.base, `${s.base}/v1/mcp/dbapp`, (b, form) => b.submit(form, 'sign-in', { service_key: key }));
    secrets.access_token = signed.tokens.access_token;
    secrets.refresh_token = signed.tokens.refresh_token;
    secrets.registration_token = signed.client.registration_access_token;

    for (const [name, value] of Object.entries(secrets)) expect(value, name).toMatch(/^[\w-]{20,}$/);
    const dump = raw();
    for (const [name, value] of Object.entries(secrets)) expect(dump.includes(value), `${name} is in the store`).toBe(false);
  });
});
