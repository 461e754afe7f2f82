import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { createTapeTwin, SANDBOX_KEYS, type TapeTwin } from '../../infra/twins/tape';
import { DEMO_LEAD_COUNT, DEMO_LEADS_APP_ID } from '../../infra/twins/tape/demo';
import { uploadFactor } from '../../infra/twins/tape/credits';
import { recordShares } from '../../infra/twins/tape/records';

const open: TapeTwin[] = [];
afterEach(() => open.splice(0).forEach((t) => t.close()));

/** A twin called as the docs' curl lines do; `base` mounts it under a prefix as the local server does (`/twins/tape`). */
function twin(opts: Parameters<typeof createTapeTwin>[0] = {}, base = '') {
  const t = createTapeTwin(opts);
  open.push(t);
  const host = new Hono();
  host.route(base || '/', t.app);
  const fetchIt = base ? (url: string, init: RequestInit) => host.request(url, init) : (url: string, init: RequestInit) => t.fetch(url, init);
  const call = async (method: string, path: string, body?: unknown, key: string | null = SANDBOX_KEYS.owner) => {
    const res = await fetchIt(`https://api.tapeapp.com${base}${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, cost: Number(res.headers.get('x-retry-cost')), body: (await res.json()) as any };
  };
  return { ...t, call };
}

describe('Tape twin: paths, errors and unknown routes as Tape answers them', () => {
  it.each([['at its own root', ''], ['mounted under /twins/tape', '/twins/tape']])('names the endpoint /v1/… %s', async (_where, base) => {
    const t = twin({}, base);
    expect((await t.call('GET', '/v1/record/1')).body).toEqual({ status_code: 404, endpoint: '/v1/record/1', error_code: 'record_not_exists', error_message: 'Record does not exist(1)!' });
    // docs/vendors/tape.md#authentication's examples, word for word.
    expect((await t.call('GET', '/v1/record/1', undefined, null)).body).toEqual({
      status_code: 401,
      endpoint: '/v1/record/1',
      error_code: 'dev_api_authentication',
      error_message: "Missing authentication for Dev-API endpoint: '/v1/record/1' (no user API key provided)",
    });
    expect((await t.call('GET', '/v1/record/1', undefined, 'key_without_prefix')).body.error_message).toBe(
      "Invalid user API key for accessing endpoint '/v1/record/1' (key has to start with 'user_key_')",
    );
    // An unknown route: Tape's JSON error, not a plain-text 404.
    const unknown = await t.call('GET', '/v1/nothing/here');
    expect(unknown).toMatchObject({ status: 400, body: { status_code: 400, endpoint: '/v1/nothing/here', error_code: 'invalid_request_url', error_message: 'The request URL is not valid: GET /v1/nothing/here' } });
    expect((await t.call('POST', '/v2/record')).body).toMatchObject({ error_code: 'invalid_request_url', endpoint: '/v2/record' });
  });
});

describe('Tape twin: credits per request as the docs charge them', () => {
  it.each([['', ''], ['mounted', '/twins/tape']])('charges 10 by default and more where a page says so (%s)', async (_w, base) => {
    const t = twin({}, base);
    expect((await t.call('GET', '/v1/workspace/org')).cost).toBe(10);
    expect((await t.call('GET', `/v1/record/app/${DEMO_LEADS_APP_ID}`)).cost).toBe(10);
    expect((await t.call('GET', `/v1/record/app/${DEMO_LEADS_APP_ID}?limit=500`)).cost).toBe(20);
    expect((await t.call('POST', `/v1/record/filter/app/${DEMO_LEADS_APP_ID}?limit=500`, {})).cost).toBe(20);
    expect((await t.call('GET', `/v1/automation/app/${DEMO_LEADS_APP_ID}`)).cost).toBe(20);
    expect((await t.call('POST', '/v1/automation-run', {})).cost).toBe(20);
    expect((await t.call('GET', `/v1/app/${DEMO_LEADS_APP_ID}/views`)).cost).toBe(50);
    const ws = (await t.call('POST', '/v1/workspace', { name: 'Scratch', type: 'open' })).body;
    expect((await t.call('DELETE', `/v1/workspace/${ws.workspace_id}`)).cost).toBe(100);
    // docs/vendors/tape.md#email: one more multiple per recipient (to + cc + bcc).
    expect((await t.call('POST', '/v1/email/send', { to: 'a@example.com', subject: 'Hi', html: '<p>x</p>' })).cost).toBe(20);
    expect((await t.call('POST', '/v1/email/send', { to: ['a@example.com', 'b@example.com'], cc: ['c@example.com'], subject: 'Hi', html: '<p>x</p>' })).cost).toBe(40);
  });

  it('charges uploads by size (file.md)', async () => {
    const t = twin();
    const form = new FormData();
    form.append('file', new File(['hello'], 'a.txt', { type: 'text/plain' }));
    const res = await t.fetch('https://api.tapeapp.com/v1/file/upload', { method: 'POST', headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` }, body: form });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-retry-cost')).toBe('20');
    const MB = 1024 * 1024;
    expect([1024, 50 * MB, 100 * MB, 150 * MB, 200 * MB, 300 * MB].map(uploadFactor)).toEqual([2, 3, 4, 5, 6, 8]);
  });
});

describe('Tape twin: POST /v1/email/send (email.md)', () => {
  it('answers the documented example and puts the email in the outbox', async () => {
    const t = twin();
    const r = await t.call('POST', '/v1/email/send', { to: 'recipient@example.com', subject: 'Hello World', html: '<p> This is the email body. </p>', reply_to: 'reply-to@example.com' });
    expect(r).toMatchObject({ status: 200, body: { status: 'SUCCESSFULLY_SCHEDULED' } });
    expect(t.automations.outbox).toEqual([
      expect.objectContaining({ source: 'api', to: ['recipient@example.com'], cc: [], reply_to: 'reply-to@example.com', subject: 'Hello World', body: '<p> This is the email body. </p>', automation_id: null }),
    ]);
    const outbox = await t.call('GET', '/_twin/outbox');
    expect(outbox.body.emails[0]).toMatchObject({ source: 'api', subject: 'Hello World' });
  });

  it('refuses a missing recipient, a bad address and a temporary file id, sending nothing', async () => {
    const t = twin();
    expect((await t.call('POST', '/v1/email/send', { subject: 'x', html: 'y' })).body).toMatchObject({ status_code: 400, error_code: 'validation_error', error_message: expect.stringContaining('"to" is required') });
    expect((await t.call('POST', '/v1/email/send', { to: ['nobody'], subject: 'x', html: 'y' })).body.error_message).toContain('"nobody" is not an email address');
    expect((await t.call('POST', '/v1/email/send', { to: 'a@example.com', subject: 'x', html: 'y', attachment_ids: ['temporary-file-1'] })).body.error_message).toContain('temporary file ids are not supported');
    expect(t.automations.outbox).toEqual([]);
  });
});

describe('Tape twin: POST /v1/link-preview (link-preview.md)', () => {
  it('reads a page it may reach into the documented shape, and answers id and url for one it cannot', async () => {
    const page = '<html><head><title>Tape - Build your own powerful business platform</title><meta name="description" content="Fully customizable. No-code. Low-code."><link rel="icon" href="/favicon.png"></head></html>';
    const seen: string[] = [];
    const t = twin({
      automations: {
        httpHosts: ['tapeapp.com'],
        fetch: async (input) => {
          seen.push(String(input));
          return new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } });
        },
      },
    });
    const r = await t.call('POST', '/v1/link-preview', { url: 'https://tapeapp.com' });
    expect(r.body).toEqual({
      id: 1,
      url: 'https://tapeapp.com',
      title: 'Tape - Build your own powerful business platform',
      description: 'Fully customizable. No-code. Low-code.',
      previewImage: { small: expect.stringMatching(/^https:\/\/s3\.eu-central-1\.amazonaws\.com\/tape-thumbnails\/[0-9a-f]{30}$/), medium: expect.any(String), large: expect.any(String) },
    });
    expect((await t.call('POST', '/v1/link-preview', { url: 'https://elsewhere.example/' })).body).toEqual({ id: 2, url: 'https://elsewhere.example/' });
    expect(seen).toEqual(['https://tapeapp.com/']);
    expect((await t.call('POST', '/v1/link-preview', { url: 'tapeapp.com' })).body).toMatchObject({ status_code: 400, error_message: '"url" is required and must be an absolute http(s) URL.' });
  });
});

describe('Tape twin: POST /v1/org/invitation/resend-pending (user.md)', () => {
  it('sends the invitation again to every invited user, for owners and admins only', async () => {
    const t = twin();
    await t.call('POST', '/v1/org/user', { name: 'Ann', email: 'ann@example.com', role: 'member' });
    await t.call('POST', '/v1/org/user', { name: 'Bob', email: 'bob@example.com', role: 'member', skip_invitation: true });
    expect(t.automations.outbox.map((e) => [e.source, e.to])).toEqual([['invitation', ['ann@example.com']]]);
    expect(await t.call('POST', '/v1/org/invitation/resend-pending')).toMatchObject({ status: 200, body: {} });
    expect(t.automations.outbox.map((e) => e.to[0])).toEqual(['ann@example.com', 'ann@example.com']);
    expect((await t.call('POST', '/v1/org/invitation/resend-pending', undefined, SANDBOX_KEYS.member)).body).toMatchObject({ status_code: 403, error_code: 'restricted_resource' });
    expect(t.automations.outbox).toHaveLength(2);
  });
});

describe('Tape twin: PUT /v1/record/app/unfollow-all/{app_id} (record-follow.md)', () => {
  it('removes every follow edge of the app and counts them', async () => {
    const t = twin();
    const lead = (await t.call('POST', `/v1/record/app/${DEMO_LEADS_APP_ID}`, { fields: { name: 'Followed', status: 1 } })).body;
    await t.call('POST', `/v1/comment/record/${lead.record_id}`, { value: 'Me too' }, SANDBOX_KEYS.member);
    // Every seeded lead is followed by its creator; the new one by its creator and its commenter.
    expect((await t.call('PUT', `/v1/record/app/unfollow-all/${DEMO_LEADS_APP_ID}`, {})).body).toEqual({ total_unfollowed_count: DEMO_LEAD_COUNT + 2 });
    expect((await t.call('PUT', `/v1/record/app/unfollow-all/${DEMO_LEADS_APP_ID}`, {})).body).toEqual({ total_unfollowed_count: 0 });
    expect((await t.call('PUT', '/v1/record/app/unfollow-all/77', {})).status).toBe(404);
  });
});

describe('Tape twin: PUT /v1/record/permission/batch (record-permissions.md)', () => {
  it('shares records with users (by id or email, inviting unknown emails) and revokes them', async () => {
    const t = twin();
    const ws = (await t.call('POST', '/v1/workspace', { name: 'Board', type: 'private' })).body;
    const app = (await t.call('POST', '/v1/app', { workspace_id: ws.workspace_id, name: 'Minutes', fields: [{ field_type: 'single_text', config: { label: 'Title' } }] })).body;
    const a = (await t.call('POST', `/v1/record/app/${app.app_id}`, { fields: { title: 'Q1' } })).body.record_id;
    const b = (await t.call('POST', `/v1/record/app/${app.app_id}`, { fields: { title: 'Q2' } })).body.record_id;
    expect((await t.call('GET', `/v1/record/${a}`, undefined, SANDBOX_KEYS.member)).status).toBe(404);
    // The documented request, with this twin's ids: member 10001 in place of 100, the owner in place of 101.
    const r = await t.call('PUT', '/v1/record/permission/batch', {
      inputs: [
        { record_id: a, add_permissions: [{ user_id: 10001, permission_level: 5 }], remove_permissions: [10000] },
        { record_id: b, add_permissions: [{ user_id: 10001, permission_level: 5 }, { email: 'guest@example.com', permission_level: 4 }], remove_permissions: [10000] },
      ],
    });
    expect(r).toEqual({ status: 200, cost: 10, body: {} });
    expect((await t.call('GET', `/v1/record/${a}`, undefined, SANDBOX_KEYS.member)).body.record_id).toBe(a);
    const invited = [...t.state.users.values()].find((u) => u.email === 'guest@example.com');
    expect(invited).toMatchObject({ status: 'invited' });
    expect(t.automations.outbox.map((e) => [e.source, e.to[0]])).toEqual([['invitation', 'guest@example.com']]);
    await t.call('PUT', '/v1/record/permission/batch', { inputs: [{ record_id: a, remove_permissions: ['zoemaxwell10001@me.com'] }] });
    expect((await t.call('GET', `/v1/record/${a}`, undefined, SANDBOX_KEYS.member)).status).toBe(404);
  });

  it('refuses more than 50 inputs and a bad level, changing nothing', async () => {
    const t = twin();
    const inputs = Array.from({ length: 51 }, (_, i) => ({ record_id: 5001 + i, add_permissions: [{ user_id: 10001, permission_level: 1 }] }));
    expect((await t.call('PUT', '/v1/record/permission/batch', { inputs })).body.error_message).toContain('at most 50');
    const bad = await t.call('PUT', '/v1/record/permission/batch', {
      inputs: [
        { record_id: 5001, add_permissions: [{ user_id: 10001, permission_level: 1 }] },
        { record_id: 5002, add_permissions: [{ user_id: 10001, permission_level: 9 }] },
      ],
    });
    expect(bad.body).toMatchObject({ status_code: 400, error_message: '"inputs[1].add_permissions[0].permission_level" must be 0 (no access) … 5 (full access).' });
    // The valid first input was not applied either.
    expect([...recordShares(t.state, 5001)]).toEqual([]);
  });
});
