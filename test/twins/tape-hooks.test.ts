import { describe, expect, it } from 'vitest';
import { createClock } from '../../infra/twins/kit';
import { createTapeTwin, SANDBOX_KEYS, type TapeTwinOptions } from '../../infra/twins/tape';
import type { TapeApp, TapeEvent } from '../../infra/twins/tape/model';
import type { TapeState } from '../../infra/twins/tape/state';

const URL = 'https://webhook.example.org/example-webhook-endpoint';

/** An app in a workspace, as the app routes would create it. */
function addApp(state: TapeState, app_id: number, workspace_id = 1): TapeApp {
  const app: TapeApp = {
    app_id,
    workspace_id,
    name: `App ${app_id}`,
    slug: `app-${app_id}`,
    external_id: `app_${app_id}`,
    item_name: 'Item',
    type: 'database',
    config: { item_name: 'Item', name: `App ${app_id}`, description: '' },
    fields: [],
  };
  state.apps.set(app_id, app);
  return app;
}

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** The twin with its webhook POSTs captured instead of sent; `answer` decides each reply. */
function twin(opts: TapeTwinOptions & { answer?: (sent: Sent) => Promise<Response> | Response } = {}) {
  const sent: Sent[] = [];
  const hookFetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const s: Sent = { url: String(input), headers: Object.fromEntries(new Headers(init?.headers).entries()), body: JSON.parse(String(init?.body)) };
    sent.push(s);
    if (!opts.answer) return new Response('ok');
    // A receiver that never answers still hears the twin giving up.
    const aborted = new Promise<never>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error)));
    aborted.catch(() => undefined);
    return await Promise.race([opts.answer(s), aborted]);
  }) as typeof fetch;
  // No demo data: ids start at 1, as in docs/vendors/tape.md#webhooks's examples.
  const t = createTapeTwin({ demo: false, hookFetch, ...opts });
  addApp(t.state, 1);
  const call = async (method: string, path: string, body?: unknown, key: string = SANDBOX_KEYS.owner) => {
    const res = await t.fetch(`https://api.tapeapp.com${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  /** Creates, verifies and validates a hook; returns its id. */
  const activeHook = async (type: string, url = URL, appId = 1) => {
    const { body } = await call('POST', `/v1/hook/app/${appId}`, { type, url });
    await call('POST', `/v1/hook/${body.hook_id}/verify/request`);
    await t.deliveries.idle();
    const code = sent.findLast((s) => s.body.hook_id === body.hook_id && s.body.type === 'hook.verify')!.body.code;
    expect((await call('POST', `/v1/hook/${body.hook_id}/verify/validate`, { code })).body.status).toBe('active');
    sent.length = 0;
    return body.hook_id as number;
  };
  return { ...t, call, sent, activeHook };
}

const recordEvent = (type: 'record.create' | 'record.update' | 'record.delete' | 'record.restore', revision_id: number, extra: Partial<TapeEvent> = {}): TapeEvent =>
  ({ type, app_id: 1, record_id: 100, revision_id, hook: true, workflow: true, user_id: 10000, ...extra }) as TapeEvent;

describe('Tape twin: the examples of webhook.md', () => {
  it('create → request verification → validate → list → delete, with the documented bodies', async () => {
    const t = twin();
    const created = await t.call('POST', '/v1/hook/app/1', { type: 'record.create', url: URL });
    expect(created).toEqual({ status: 200, body: { hook_id: 1, app_id: 1, status: 'inactive', num_failed_executions: 0, type: 'record.create', url: URL } });

    const requested = await t.call('POST', '/v1/hook/1/verify/request');
    expect(requested.body).toEqual({ hook_id: 1, status: 'inactive', num_failed_executions: 0, type: 'record.create', url: URL });
    await t.deliveries.idle();
    expect(t.sent).toHaveLength(1);
    const incoming = t.sent[0]!;
    expect(incoming.url).toBe(URL);
    expect(incoming.headers).toMatchObject({ 'user-agent': 'Tape Webhook', 'content-type': 'application/json;charset=utf-8', accept: 'application/json, text/plain, */*' });
    expect(incoming.body).toEqual({ hook_id: 1, type: 'hook.verify', code: expect.stringMatching(/^[0-9a-f]{8}$/) });

    const validated = await t.call('POST', '/v1/hook/1/verify/validate', { code: incoming.body.code });
    expect(validated.body).toEqual({ hook_id: 1, status: 'active', num_failed_executions: 0, type: 'record.create', url: URL });

    expect((await t.call('GET', '/v1/hook/app/1')).body).toEqual({
      webhooks: [{ hook_id: 1, app_id: 1, status: 'active', num_failed_executions: 0, type: 'record.create', url: URL }],
      total: 1,
    });
    expect((await t.call('DELETE', '/v1/hook/1')).body).toEqual({ hook_id: 1, status: 'inactive', num_failed_executions: 0, type: 'record.create', url: URL });
    expect((await t.call('GET', '/v1/hook/app/1')).body).toEqual({ webhooks: [], total: 0 });
    expect((await t.call('DELETE', '/v1/hook/1')).body).toMatchObject({ status_code: 404, error_code: 'not_found', error_message: 'Hook does not exist(1)!' });
  });

  it.each([
    ['record.create', recordEvent('record.create', 0), { hook_id: 1, record_id: 100, revision_id: 0, type: 'record.create' }],
    ['record.update', recordEvent('record.update', 1), { hook_id: 1, record_id: 100, revision_id: 1, type: 'record.update' }],
    ['record.delete', recordEvent('record.delete', 2), { hook_id: 1, record_id: 100, revision_id: 2, type: 'record.delete' }],
    ['record.restore', recordEvent('record.restore', 3), { hook_id: 1, record_id: 100, revision_id: 3, type: 'record.restore' }],
    ['comment.create', { type: 'comment.create', app_id: 1, record_id: 100, comment_id: 500, hook: true, user_id: 10000 }, { hook_id: 1, record_id: 100, comment_id: 500, type: 'comment.create' }],
    ['comment.delete', { type: 'comment.delete', app_id: 1, record_id: 100, comment_id: 500, hook: true, user_id: 10000 }, { hook_id: 1, record_id: 100, comment_id: 500, type: 'comment.delete' }],
    ['app.update', { type: 'app.update', app_id: 1, hook: true, user_id: 10000 }, { hook_id: 1, app_id: 1, type: 'app.update' }],
  ] as const)('delivers %s with the documented payload, and only to hooks of that type', async (type, event, payload) => {
    const t = twin();
    await t.activeHook(type);
    // A hook of another type on the same app hears nothing of this event.
    await t.activeHook(type === 'app.update' ? 'record.create' : 'app.update');
    t.state.events.emit(event as TapeEvent);
    await t.deliveries.idle();
    expect(t.sent.map((s) => s.body)).toEqual([payload]);
    expect(t.sent[0]!.headers['user-agent']).toBe('Tape Webhook');
  });

  it('does not deliver to inactive hooks, on hook=false, to other apps, or for a deleted app', async () => {
    const t = twin();
    addApp(t.state, 2);
    await t.call('POST', '/v1/hook/app/1', { type: 'record.create', url: URL });
    const active = await t.activeHook('record.create', 'https://other.example.org/hook');
    t.state.events.emit(recordEvent('record.create', 0, { hook: false }));
    t.state.events.emit(recordEvent('record.create', 0, { app_id: 2 }));
    await t.deliveries.idle();
    expect(t.sent).toEqual([]);
    t.state.events.emit(recordEvent('record.create', 0));
    await t.deliveries.idle();
    expect(t.sent.map((s) => [s.url, s.body.hook_id])).toEqual([['https://other.example.org/hook', active]]);
    t.state.apps.delete(1);
    t.state.events.emit(recordEvent('record.create', 0));
    await t.deliveries.idle();
    expect(t.sent).toHaveLength(1);
  });

  it('counts failed executions (non-2xx, timeout); a success resets; more than 50 in a row make the hook unverified', async () => {
    let status = 500;
    const t = twin({
      hookTimeoutMs: 50,
      answer: (s) => (s.body.type === 'hook.verify' ? new Response('') : status === 0 ? new Promise<Response>(() => undefined) : new Response(null, { status })),
    });
    const id = await t.activeHook('record.update');
    const hook = () => t.call('GET', '/v1/hook/app/1').then((r) => r.body.webhooks[0]);
    t.state.events.emit(recordEvent('record.update', 1));
    status = 0; // no answer within the timeout
    await t.deliveries.idle();
    t.state.events.emit(recordEvent('record.update', 2));
    await t.deliveries.idle();
    expect(await hook()).toMatchObject({ status: 'active', num_failed_executions: 2 });
    expect(t.deliveries.log.at(-1)).toMatchObject({ hook_id: id, status: null, ok: false, error: 'timeout' });
    status = 204;
    t.state.events.emit(recordEvent('record.update', 3));
    await t.deliveries.idle();
    expect(await hook()).toMatchObject({ num_failed_executions: 0 });

    status = 503;
    for (let i = 0; i < 50; i++) t.state.events.emit(recordEvent('record.update', 10 + i));
    await t.deliveries.idle();
    expect(await hook()).toMatchObject({ status: 'active', num_failed_executions: 50 });
    t.state.events.emit(recordEvent('record.update', 60));
    await t.deliveries.idle();
    expect(await hook()).toMatchObject({ status: 'inactive', num_failed_executions: 51 });
    // Unverified again: no more deliveries, and a new verification makes it active.
    const before = t.sent.length;
    t.state.events.emit(recordEvent('record.update', 61));
    await t.deliveries.idle();
    expect(t.sent.length).toBe(before);
    expect((await t.call('POST', `/v1/hook/${id}/verify/request`)).status).toBe(200);
  });

  it('executes at most 100 webhooks per minute per app', async () => {
    const clock = createClock(1_000_000);
    const t = twin({ clock });
    addApp(t.state, 2);
    await t.activeHook('record.create');
    await t.activeHook('record.create', URL, 2);
    for (let i = 0; i < 105; i++) t.state.events.emit(recordEvent('record.create', 0, { record_id: i }));
    t.state.events.emit(recordEvent('record.create', 0, { app_id: 2 }));
    await t.deliveries.idle();
    expect(t.sent.filter((s) => s.body.hook_id === 1)).toHaveLength(100);
    expect(t.sent.filter((s) => s.body.hook_id === 2)).toHaveLength(1);
    expect(t.deliveries.log.filter((l) => l.error === 'rate_limited').map((l) => l.payload.record_id)).toEqual([100, 101, 102, 103, 104]);
    clock.advance(60_000);
    t.state.events.emit(recordEvent('record.create', 0, { record_id: 200 }));
    await t.deliveries.idle();
    expect(t.sent.at(-1)!.body.record_id).toBe(200);
  });

  it('validates: one known type, an http(s) URL on port 80/443 of a public host', async () => {
    const t = twin();
    const bad = async (body: unknown) => {
      const r = await t.call('POST', '/v1/hook/app/1', body);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ status_code: 400, endpoint: '/v1/hook/app/1', error_code: 'validation_error' });
      return r.body.error_message as string;
    };
    expect(await bad({ type: 'record.created', url: URL })).toMatch(/"type"/);
    expect(await bad({ type: ['record.create', 'record.update'], url: URL })).toMatch(/exactly one/);
    expect(await bad({ type: 'record.create' })).toMatch(/"url" is required/);
    expect(await bad({ type: 'record.create', url: 'ftp://example.org/x' })).toMatch(/http or https/);
    expect(await bad({ type: 'record.create', url: 'http://www.example.org:8080/webhook' })).toMatch(/port 80 and 443/);
    expect(await bad({ type: 'record.create', url: 'https://127.0.0.1/hook' })).toMatch(/publicly reachable/);
    expect(await bad({ type: 'record.create', url: 'https://[::1]/hook' })).toMatch(/publicly reachable/);
    expect(await bad({ type: 'record.create', url: 'http://localhost/hook' })).toMatch(/publicly reachable/);
    expect((await t.call('POST', '/v1/hook/app/1', { type: 'record.create', url: 'http://www.example.org/webhook' })).status).toBe(200);
    expect(t.deliveries.hooks.size).toBe(1);

    const any = twin({ hookTargets: 'any' });
    expect((await any.call('POST', '/v1/hook/app/1', { type: 'record.create', url: 'http://127.0.0.1:9999/hook' })).status).toBe(200);
  });

  it('verification: wrong code, no request, already active; unknown app and hook are not_found', async () => {
    const t = twin();
    await t.call('POST', '/v1/hook/app/1', { type: 'comment.create', url: URL });
    expect((await t.call('POST', '/v1/hook/1/verify/validate', { code: 'f43d05e6' })).body.error_message).toMatch(/No verification was requested/);
    await t.call('POST', '/v1/hook/1/verify/request');
    await t.deliveries.idle();
    const wrong = await t.call('POST', '/v1/hook/1/verify/validate', { code: 'nope' });
    expect(wrong).toMatchObject({ status: 400, body: { error_code: 'validation_error' } });
    // A second request replaces the code: the first one no longer works.
    const first = t.sent[0]!.body.code;
    await t.call('POST', '/v1/hook/1/verify/request');
    await t.deliveries.idle();
    const second = t.sent[1]!.body.code;
    if (first !== second) expect((await t.call('POST', '/v1/hook/1/verify/validate', { code: first })).status).toBe(400);
    expect((await t.call('POST', '/v1/hook/1/verify/validate', { code: second })).body.status).toBe('active');
    expect((await t.call('POST', '/v1/hook/1/verify/request')).body.error_message).toMatch(/already verified/);
    expect((await t.call('POST', '/v1/hook/1/verify/validate', { code: second })).status).toBe(400);

    expect((await t.call('GET', '/v1/hook/app/99')).body).toMatchObject({ status_code: 404, error_code: 'not_found', error_message: 'App does not exist(99)!' });
    expect((await t.call('POST', '/v1/hook/app/99', { type: 'record.create', url: URL })).status).toBe(404);
    expect((await t.call('POST', '/v1/hook/42/verify/request')).body).toMatchObject({ status_code: 404, error_message: 'Hook does not exist(42)!' });
  });

  it('hides the hooks of an app in a private workspace from non-members', async () => {
    const t = twin();
    t.state.workspaces.set(9, { workspace_id: 9, name: 'Secret', slug: 'secret', type: 'private', description: null, org_id: 1337 });
    t.state.members.set(9, new Map([[10000, 'admin']]));
    addApp(t.state, 5, 9);
    await t.call('POST', '/v1/hook/app/5', { type: 'record.create', url: URL });
    expect((await t.call('GET', '/v1/hook/app/5')).body.total).toBe(1);
    expect((await t.call('GET', '/v1/hook/app/5', undefined, SANDBOX_KEYS.member)).status).toBe(404);
    expect((await t.call('DELETE', '/v1/hook/1', undefined, SANDBOX_KEYS.member)).status).toBe(404);
  });
});
