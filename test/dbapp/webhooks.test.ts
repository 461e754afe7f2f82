import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TapeEvent } from '../../infra/twins/tape/model';
import { harness, SANDBOX_KEYS } from '../helpers/harness';

const json = { query: 'format=json' };

/** A real webhook receiver on 127.0.0.1: records every POST; answers 500 on paths starting /fail. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, any>;
}
let server: Server;
let base: string;
const received: Received[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(data) });
      res.statusCode = req.url?.startsWith('/fail') ? 500 : 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received.length = 0;
});

/** The service with ALLOW_HTTP_HOSTS=127.0.0.1 and a twin that delivers to any target; app #1 "Projects" made through the twin's API. */
async function setup() {
  const h = await harness({ env: { ALLOW_HTTP_HOSTS: '127.0.0.1' }, twin: { hookTargets: 'any', demo: false } });
  /** Calls the twin's own API (the records and comments a user writes in Tape). */
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await h.tape.fetch(`https://api.tapeapp.com${path}`, {
      method,
      headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    expect(res.status, `${method} ${path}`).toBe(200);
    return (await res.json()) as any;
  };
  const app = await api('POST', '/v1/app', { workspace_id: 1, name: 'Projects', fields: [{ field_type: 'single_text', config: { label: 'Title' } }] });
  expect(app.app_id).toBe(1);
  /** Everything the receiver got for one path, after the twin's pending POSTs finished. */
  const at = async (path: string) => {
    await h.tape.deliveries.idle();
    return received.filter((r) => r.path === path);
  };
  /** createWebhook → requestWebhookVerification → (code from the receiver) → validateWebhookVerification, all through the tools. */
  const subscribe = async (event_type: string, path: string) => {
    const created = await h.call('dbapp/createWebhook', { app_id: 1, url: `${base}${path}`, event_type }, json);
    expect(created.status).toBe(200);
    const hook_id = created.body.data.hook_id as number;
    expect((await h.call('dbapp/requestWebhookVerification', { hook_id }, json)).status).toBe(200);
    const verify = (await at(path)).find((r) => r.body.type === 'hook.verify' && r.body.hook_id === hook_id)!;
    const validated = await h.call('dbapp/validateWebhookVerification', { hook_id, code: verify.body.code }, json);
    expect(validated.body.data.status).toBe('active');
    received.length = 0;
    return hook_id;
  };
  const emit = (e: TapeEvent) => h.tape.state.events.emit(e);
  return { ...h, api, at, subscribe, emit };
}

const created = (record_id: number, extra: Partial<TapeEvent> = {}) =>
  ({ type: 'record.create', app_id: 1, record_id, revision_id: 0, hook: true, workflow: true, user_id: 10000, ...extra }) as TapeEvent;

describe('webhooks: the whole set-up through the tools, with a real receiver', () => {
  it('create (inactive, note) → request verification (code POSTed) → validate (active) → receives its events', async () => {
    const h = await setup();
    const url = `${base}/tape`;
    const c = await h.call('dbapp/createWebhook', { app_id: 1, url, event_type: 'record.create' });
    expect(c.status).toBe(200);
    expect(c.body.data).toBe(
      `created webhook #1 app #1 record.create → ${url} (inactive, 0 failed)\n` +
        'Inactive until verified: call requestWebhookVerification with hook_id 1 — Tape then POSTs {"hook_id", "type": "hook.verify", "code"} to the url — and pass that code to validateWebhookVerification.',
    );
    // createWebhook itself sends nothing; an unverified hook hears no events.
    h.emit(created(100));
    expect(await h.at('/tape')).toEqual([]);

    const r = await h.call('dbapp/requestWebhookVerification', { hook_id: 1 });
    expect(r.body.data).toBe(
      `verification requested for webhook #1\nA verification code was POSTed to ${url} as {"hook_id": 1, "type": "hook.verify", "code": "…"}; pass that code to validateWebhookVerification with hook_id 1.`,
    );
    const [verify] = await h.at('/tape');
    expect(verify!.body).toEqual({ hook_id: 1, type: 'hook.verify', code: expect.stringMatching(/^[0-9a-f]{8}$/) });
    expect(verify!.headers['user-agent']).toBe('Tape Webhook');
    expect(verify!.headers['content-type']).toBe('application/json;charset=utf-8');

    const v = await h.call('dbapp/validateWebhookVerification', { hook_id: 1, code: verify!.body.code });
    expect(v.body.data).toBe(`verified webhook #1 record.create → ${url} (active, 0 failed)\nActive: ${url} now receives record.create events; each must be answered 2xx within 5 s.`);
    expect((await h.call('dbapp/listWebhooks', { app_id: 1 })).body.data).toBe(`#1 app #1 record.create → ${url} (active, 0 failed)\n1 webhook`);

    received.length = 0;
    h.emit(created(100));
    const [event] = await h.at('/tape');
    expect(event!.body).toEqual({ hook_id: 1, record_id: 100, revision_id: 0, type: 'record.create' });
    expect(event!.headers['user-agent']).toBe('Tape Webhook');
  });

  it('delivers each of the seven event types with its documented payload, each to its own hook only', async () => {
    const h = await setup();
    const ids: Record<string, number> = {};
    for (const type of ['record.create', 'record.update', 'record.delete', 'record.restore', 'comment.create', 'comment.delete', 'app.update']) {
      ids[type] = await h.subscribe(type, `/${type}`);
    }
    const record = { app_id: 1, record_id: 100, hook: true, workflow: true, user_id: 10000 };
    h.emit({ ...record, type: 'record.create', revision_id: 0 });
    h.emit({ ...record, type: 'record.update', revision_id: 1 });
    h.emit({ ...record, type: 'record.delete', revision_id: 2 });
    h.emit({ ...record, type: 'record.restore', revision_id: 3 });
    h.emit({ type: 'comment.create', app_id: 1, record_id: 100, comment_id: 500, hook: true, user_id: 10000 });
    h.emit({ type: 'comment.delete', app_id: 1, record_id: 100, comment_id: 500, hook: true, user_id: 10000 });
    h.emit({ type: 'app.update', app_id: 1, hook: true, user_id: 10000 });
    await h.tape.deliveries.idle();
    const byPath = Object.fromEntries(received.map((r) => [r.path, r.body]));
    expect(received).toHaveLength(7);
    expect(byPath).toEqual({
      '/record.create': { hook_id: ids['record.create'], record_id: 100, revision_id: 0, type: 'record.create' },
      '/record.update': { hook_id: ids['record.update'], record_id: 100, revision_id: 1, type: 'record.update' },
      '/record.delete': { hook_id: ids['record.delete'], record_id: 100, revision_id: 2, type: 'record.delete' },
      '/record.restore': { hook_id: ids['record.restore'], record_id: 100, revision_id: 3, type: 'record.restore' },
      '/comment.create': { hook_id: ids['comment.create'], record_id: 100, comment_id: 500, type: 'comment.create' },
      '/comment.delete': { hook_id: ids['comment.delete'], record_id: 100, comment_id: 500, type: 'comment.delete' },
      '/app.update': { hook_id: ids['app.update'], app_id: 1, type: 'app.update' },
    });
  });

  it('counts failed deliveries (receiver answering 500) in num_failed_executions', async () => {
    const h = await setup();
    await h.subscribe('record.create', '/fail');
    h.emit(created(1));
    h.emit(created(2));
    expect((await h.at('/fail')).map((r) => r.body.record_id)).toEqual([1, 2]);
    const list = await h.call('dbapp/listWebhooks', { app_id: 1 }, json);
    expect(list.body.data).toEqual({
      webhooks: [{ hook_id: 1, app_id: 1, status: 'active', num_failed_executions: 2, type: 'record.create', url: `${base}/fail` }],
      total: 1,
    });
    expect((await h.call('dbapp/listWebhooks', { app_id: 1 })).body.data).toBe(`#1 app #1 record.create → ${base}/fail (active, 2 failed)\n1 webhook`);
  });

  it('hook=false on the write suppresses delivery', async () => {
    const h = await setup();
    await h.subscribe('record.create', '/quiet');
    h.emit(created(1, { hook: false }));
    h.emit(created(2));
    expect((await h.at('/quiet')).map((r) => r.body.record_id)).toEqual([2]);
  });

  it('a deleted webhook stops at once', async () => {
    const h = await setup();
    const hook_id = await h.subscribe('record.create', '/gone');
    const d = await h.call('dbapp/deleteWebhook', { hook_id });
    expect(d.body.data).toBe(`deleted webhook #${hook_id} record.create → ${base}/gone; it receives no more events (cannot be undone)`);
    h.emit(created(1));
    expect(await h.at('/gone')).toEqual([]);
    expect((await h.call('dbapp/listWebhooks', { app_id: 1 })).body.data).toBe('app #1 has no webhooks — createWebhook adds one');
    const again = await h.call('dbapp/deleteWebhook', { hook_id });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('NOT_FOUND');
  });
});

describe('webhooks end to end: records, comments and the app changed through the twin\'s API', () => {
  it('create, update, delete, restore, comment, uncomment and an app change each reach their hook; hook=false reaches none', async () => {
    const h = await setup();
    const types = ['record.create', 'record.update', 'record.delete', 'record.restore', 'comment.create', 'comment.delete', 'app.update'];
    const ids: Record<string, number> = {};
    for (const type of types) ids[type] = await h.subscribe(type, `/${type}`);

    const rec = await h.api('POST', '/v1/record/app/1', { fields: { title: 'Kick-off' } });
    await h.api('PUT', `/v1/record/${rec.record_id}`, { fields: { title: 'Kick-off meeting' } });
    await h.api('DELETE', `/v1/record/${rec.record_id}`);
    await h.api('POST', `/v1/record/${rec.record_id}/restore`);
    const comment = await h.api('POST', `/v1/comment/record/${rec.record_id}`, { value: 'Agenda attached.' });
    await h.api('DELETE', `/v1/comment/${comment.comment_id}`);
    await h.api('PUT', '/v1/app/1', { name: 'Projects 2026' });
    await h.tape.deliveries.idle();

    const r = rec.record_id as number;
    expect(Object.fromEntries(received.map((x) => [x.path, x.body]))).toEqual({
      '/record.create': { hook_id: ids['record.create'], record_id: r, revision_id: 0, type: 'record.create' },
      '/record.update': { hook_id: ids['record.update'], record_id: r, revision_id: 1, type: 'record.update' },
      '/record.delete': { hook_id: ids['record.delete'], record_id: r, revision_id: 2, type: 'record.delete' },
      '/record.restore': { hook_id: ids['record.restore'], record_id: r, revision_id: 3, type: 'record.restore' },
      '/comment.create': { hook_id: ids['comment.create'], record_id: r, comment_id: comment.comment_id, type: 'comment.create' },
      '/comment.delete': { hook_id: ids['comment.delete'], record_id: r, comment_id: comment.comment_id, type: 'comment.delete' },
      '/app.update': { hook_id: ids['app.update'], app_id: 1, type: 'app.update' },
    });
    expect(received).toHaveLength(7);

    received.length = 0;
    const quiet = await h.api('POST', '/v1/record/app/1?hook=false', { fields: { title: 'Silent' } });
    await h.api('PUT', `/v1/record/${quiet.record_id}?hook=false`, { fields: { title: 'Still silent' } });
    await h.api('DELETE', `/v1/record/${quiet.record_id}?hook=false`);
    await h.tape.deliveries.idle();
    expect(received).toEqual([]);
  });
});

describe('createWebhook: input checked before Tape is called', () => {
  it.each([
    [{ event_type: ['record.create', 'record.update'] }, 'event_type'],
    [{ event_type: 'record.create,record.update' }, 'event_type'],
    [{ event_type: 'record.created' }, 'event_type'],
    [{ event_type: 'record.create', event_types: ['record.update'] }, 'event_types'],
    [{ event_type: 'record.create', url: 'http://hooks.example.com/tape' }, 'url'],
    [{ event_type: 'record.create', url: 'ftp://hooks.example.com/tape' }, 'url'],
    [{ event_type: 'record.create', url: 'hooks.example.com/tape' }, 'url'],
    [{ event_type: 'record.create', url: 'https://hooks.example.com:8443/tape' }, 'url'],
    [{ event_type: 'record.create', url: 'https://10.0.0.7/tape' }, 'url'],
    [{ event_type: 'record.create', url: 'https://localhost/tape' }, 'url'],
    [{ event_type: 'record.create', url: 'https://[::1]/tape' }, 'url'],
  ])('rejects %j naming %s, and creates nothing', async (params, parameter) => {
    const h = await setup();
    const r = await h.call('dbapp/createWebhook', { app_id: 1, url: 'https://hooks.example.com/tape', ...params });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
    expect(h.tape.deliveries.hooks.size).toBe(0);
  });

  it('says how to subscribe to several types', async () => {
    const h = await setup();
    const r = await h.call('dbapp/createWebhook', { app_id: 1, url: 'https://hooks.example.com/tape', event_type: ['record.create', 'record.update'] });
    expect(r.body.error.message).toContain('create one webhook per type');
  });

  it('accepts http only for the hosts of ALLOW_HTTP_HOSTS', async () => {
    const strict = await harness({ twin: { hookTargets: 'any', demo: false } });
    const r = await strict.call('dbapp/createWebhook', { app_id: 1, url: `${base}/tape`, event_type: 'record.create' });
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'url' } });
    expect(r.body.error.message).toContain('https');
    const h = await setup();
    expect((await h.call('dbapp/createWebhook', { app_id: 1, url: `${base}/tape`, event_type: 'record.create' })).status).toBe(200);
  });

  it('describes what the deployment allows: public https, and the ALLOW_HTTP_HOSTS receivers the previous test reaches', async () => {
    const { createWebhook } = await import('../../functions/dbapp/tools/webhooks/createWebhook');
    const url = (createWebhook.input.shape.url as { description?: string }).description ?? '';
    for (const text of [createWebhook.description, url]) {
      expect(text).toContain('publicly reachable https');
      expect(text).toContain('ALLOW_HTTP_HOSTS');
    }
  });

  it('answers NOT_FOUND for an unknown app', async () => {
    const h = await setup();
    const r = await h.call('dbapp/createWebhook', { app_id: 404, url: 'https://hooks.example.com/tape', event_type: 'app.update' });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('NOT_FOUND');
  });

  it('returns the webhook and its note in JSON mode', async () => {
    const h = await setup();
    const r = await h.call('dbapp/createWebhook', { app_id: 1, url: 'https://hooks.example.com/tape', event_type: 'comment.create' }, json);
    expect(r.body.data).toEqual({
      hook_id: 1,
      app_id: 1,
      status: 'inactive',
      num_failed_executions: 0,
      type: 'comment.create',
      url: 'https://hooks.example.com/tape',
      note: expect.stringContaining('requestWebhookVerification with hook_id 1'),
    });
  });
});

describe('verification errors', () => {
  it('requestWebhookVerification on an active webhook names hook_id; a wrong code names code; unknown hooks are NOT_FOUND', async () => {
    const h = await setup();
    const hook_id = await h.subscribe('record.update', '/v');
    const again = await h.call('dbapp/requestWebhookVerification', { hook_id });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'hook_id', expected: 'an unverified (inactive) webhook' } });
    expect(again.body.error.message).toContain('already verified');

    await h.call('dbapp/createWebhook', { app_id: 1, url: `${base}/v2`, event_type: 'record.delete' });
    await h.call('dbapp/requestWebhookVerification', { hook_id: 2 });
    const wrong = await h.call('dbapp/validateWebhookVerification', { hook_id: 2, code: '00000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'code' } });
    expect(wrong.body.error.message).toContain('requestWebhookVerification sends a new one');
    expect((await h.call('dbapp/listWebhooks', { app_id: 1 }, json)).body.data.webhooks[1].status).toBe('inactive');

    expect((await h.call('dbapp/requestWebhookVerification', { hook_id: 99 })).body.error.code).toBe('NOT_FOUND');
    expect((await h.call('dbapp/validateWebhookVerification', { hook_id: 99, code: 'abc' })).body.error.code).toBe('NOT_FOUND');
    expect((await h.call('dbapp/validateWebhookVerification', { hook_id: 2, code: '' })).body.error.details.parameter).toBe('code');
  });
});
