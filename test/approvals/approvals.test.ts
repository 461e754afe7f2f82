import { randomBytes } from 'node:crypto';
import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dbapp } from '../../functions/dbapp';
import { SANDBOX_KEYS, type Twin } from '../../infra/twins/kit';
import { loadConfig } from '../../shared/core/config';
import { lambdaHandler } from '../../shared/lambda/handler';
import type { MemoryStore } from '../../shared/store/memory';
import { Browser, hostSignIn, localServer } from '../identity/helpers';
import { lambdaContext } from '../../infra/lambda-events';
import { mockSsm } from '../helpers/ssm-mock';

const ADMIN = 'adm_test_credential';
const ssm = mockSsm();

/**
 * A write under `approval: writes` over REST, MCP 2025-11-25 and direct invocation: held (the twin
 * sees nothing) until a person approves on the page, then run exactly once; every misuse of an
 * approval is refused with nothing sent; reads are never held; the audit trail holds one record
 * per call and no value that was sent.
 */
describe('approvals of held writes, on every surface', () => {
  const vaultKey = randomBytes(32).toString('base64');
  /** The identity's clock runs this far ahead (an approval's expiry, without waiting). */
  let ahead = 0;
  let s: Awaited<ReturnType<typeof localServer>>;
  let twin: Twin;
  let key: string;
  let keyId: string;
  let connection: string;
  const calls = { count: 0 };

  /** The dbapp twin's requests that write (anything but GET). */
  const twinWrites = () => twin.requests.entries.filter((e) => e.method !== 'GET');

  /** One REST call of the test's key, counted for the audit check. */
  async function rest(tool: string, params: unknown, headers: Record<string, string> = {}, k = key, con = connection) {
    if (k === key) calls.count += 1;
    const res = await fetch(`${s.base}/v1/tools/dbapp/${tool}?format=json`, { method: 'POST', headers: { authorization: `Bearer ${k}`, 'x-connection-id': con, 'content-type': 'application/json', ...headers }, body: JSON.stringify(params) });
    return { status: res.status, body: (await res.json()) as any };
  }

  /** Approves (or rejects) on the page as a person would, from the link alone. */
  async function decide(url: string, decision: 'approve' | 'reject') {
    const browser = new Browser();
    const page = await browser.request(url);
    expect(page.status).toBe(200);
    return browser.submit(page, 'decide', { decision });
  }

  beforeAll(async () => {
    vi.stubEnv('VAULT_KEY', vaultKey);
    s = await localServer({ VAULT_KEY: vaultKey }, { now: () => Date.now() + ahead });
    vi.stubEnv('PUBLIC_BASE_URL', s.base);
    twin = s.twins.dbapp as unknown as Twin;
    const made = await s.createKey('acme', { platforms: ['dbapp'], approval: 'writes' } as never);
    key = made.key;
    keyId = made.id;
    const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'user-1', auth: 'api_key' } });
    await new Browser().connectKey(created.body.data.connect_url, SANDBOX_KEYS.owner);
    connection = created.body.data.connection.id;
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await s.close();
  });

  it('REST: held with a link and a preview, 0 vendor writes; approved on the page, it runs once; the id then is spent', async () => {
    const before = twinWrites().length;
    const params = { name: 'Held workspace 51f0', type: 'open' };
    const held = await rest('createWorkspace', params);
    expect(held.status).toBe(403);
    expect(held.body.error.code).toBe('FORBIDDEN');
    const d = held.body.error.details;
    expect(d).toMatchObject({ reason: 'approval_required', approval_id: expect.stringMatching(/^apr_[0-9a-f]{24}$/), approval_url: expect.stringContaining(`${s.base}/v1/approve/`), expires_at: expect.any(String) });
    expect(d.preview).toContain('POST');
    expect(held.body.error.message).toContain(`Approval-Id: ${d.approval_id}`);
    expect(twinWrites().length).toBe(before);

    // Still pending: the retry is refused, nothing sent.
    const early = await rest('createWorkspace', params, { 'approval-id': d.approval_id });
    expect(early.body.error.details.reason).toBe('approval_pending');
    const status = await s.api('GET', `/v1/approvals/${d.approval_id}`, { key });
    expect(status.body.data).toMatchObject({ id: d.approval_id, status: 'pending', tenant: 'acme', key_id: keyId, connection, tool: 'createWorkspace', writes: 1 });
    expect(JSON.stringify(status.body)).not.toContain('Held workspace');

    const done = await decide(d.approval_url, 'approve');
    expect(done.html).toContain('id="approved"');

    // A swapped argument is refused; the approved call runs once; a replay is refused.
    const swapped = await rest('createWorkspace', { ...params, name: 'Other workspace' }, { 'approval-id': d.approval_id });
    expect(swapped.body.error.details.reason).toBe('approval_mismatch');
    expect(twinWrites().length).toBe(before);
    const ran = await rest('createWorkspace', params, { 'approval-id': d.approval_id });
    expect(ran.status).toBe(200);
    expect(ran.body.data.name).toBe(params.name);
    expect(twinWrites().length).toBe(before + 1);
    const replay = await rest('createWorkspace', params, { 'approval-id': d.approval_id });
    expect(replay.body.error.details.reason).toBe('approval_used');
    expect(twinWrites().length).toBe(before + 1);
    const after = await s.api('GET', `/v1/admin/approvals/${d.approval_id}`, { key: ADMIN });
    expect(after.body.data).toMatchObject({ status: 'executed', decided_by: 'link' });
  });

  it('reads are never held; dry runs answer their plan; a malformed Approval-Id is named', async () => {
    const read = await rest('listWorkspaces', {});
    expect(read.status).toBe(200);
    const dry = await fetch(`${s.base}/v1/tools/dbapp/createWorkspace?dry_run=true`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'x-connection-id': connection, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Dry', type: 'open' }) });
    calls.count += 1;
    expect(dry.status).toBe(200);
    expect(dry.headers.get('dry-run')).toBe('true');
    const bad = await rest('createWorkspace', { name: 'x', type: 'open' }, { 'approval-id': 'apr_nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('Approval-Id');
  });

  it("refuses a rejected approval, another key's, another tenant's and an expired one, sending nothing", async () => {
    const params = { name: 'Refused workspace', type: 'open' };
    const before = twinWrites().length;
    // Rejected.
    const a = (await rest('createWorkspace', params)).body.error.details;
    expect((await decide(a.approval_url, 'reject')).html).toContain('id="rejected"');
    expect((await rest('createWorkspace', params, { 'approval-id': a.approval_id })).body.error.details.reason).toBe('approval_rejected');

    // Approved, then used by another key of the tenant, and by a key of another tenant.
    const b = (await rest('createWorkspace', params)).body.error.details;
    await decide(b.approval_url, 'approve');
    const sibling = await s.createKey('acme', { platforms: ['dbapp'], approval: 'writes' } as never);
    expect((await rest('createWorkspace', params, { 'approval-id': b.approval_id }, sibling.key)).body.error.details.reason).toBe('approval_other_key');
    const other = await s.createKey('globex', { platforms: ['dbapp'], approval: 'writes' } as never);
    const otherCon = await s.api('POST', '/v1/connections', { key: other.key, body: { platform: 'dbapp', end_user: 'u', auth: 'api_key' } });
    await new Browser().connectKey(otherCon.body.data.connect_url, SANDBOX_KEYS.owner);
    const foreign = await rest('createWorkspace', params, { 'approval-id': b.approval_id }, other.key, otherCon.body.data.connection.id);
    expect(foreign.body.error.details.reason).toBe('approval_not_found');
    expect((await s.api('GET', `/v1/approvals/${b.approval_id}`, { key: other.key })).status).toBe(404);

    // Expired: past APPROVAL_TTL_SECONDS (15 min) the approved id runs nothing.
    ahead = 16 * 60 * 1000;
    const expired = await rest('createWorkspace', params, { 'approval-id': b.approval_id });
    expect((await new Browser().request(b.approval_url)).html).toContain('id="expired"');
    expect(expired.body.error.details.reason).toBe('approval_expired');
    expect(twinWrites().length).toBe(before);
    const listed = await s.api('GET', '/v1/admin/approvals?tenant=acme', { key: ADMIN });
    const byId = Object.fromEntries(listed.body.data.approvals.map((x: { id: string; status: string }) => [x.id, x.status]));
    expect(byId[a.approval_id]).toBe('rejected');
    expect(byId[b.approval_id]).toBe('expired');
    ahead = 0;
  });

  it('a batch asks one approval for all its items, with the plan summarised, and runs them all once', async () => {
    const inputs = Array.from({ length: 60 }, (_, i) => ({ fields: { deal_name: `Batch ${i}`, stage: ['Discovery'], amount: i } }));
    const params = { app_id: 902, inputs, silent: true, workflow: false };
    const before = twinWrites().length;
    const held = (await rest('batchCreateRecords', params)).body.error.details;
    expect(held.reason).toBe('approval_required');
    expect(twinWrites().length).toBe(before);
    const page = await new Browser().request(held.approval_url);
    // Two chunk writes to one endpoint, summarised as such.
    expect(page.html).toMatch(/2 (×|x|writes)|× 2|2 requests/);
    await decide(held.approval_url, 'approve');
    const ran = await rest('batchCreateRecords', params, { 'approval-id': held.approval_id });
    expect(ran.body.data).toMatchObject({ total: 60, successful: 60 });
    expect(twinWrites().length).toBe(before + 2);
  });

  it('MCP 2025-11-25: the same FORBIDDEN as REST, the retry with _meta.approval_id; a tool the policy hides answers FORBIDDEN naming it', async () => {
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/v1/mcp/dbapp`), { requestInit: { headers: { authorization: `Bearer ${key}`, 'x-connection-id': connection } } }));
    try {
      const before = twinWrites().length;
      const args = { name: 'MCP workspace', type: 'open' };
      calls.count += 1;
      const held = (await client.callTool({ name: 'createWorkspace', arguments: args })) as any;
      expect(held.isError).toBe(true);
      const err = JSON.parse(held.content[0].text).error;
      expect(err.details.reason).toBe('approval_required');
      expect(twinWrites().length).toBe(before);
      await decide(err.details.approval_url, 'approve');
      calls.count += 1;
      const ran = (await client.callTool({ name: 'createWorkspace', arguments: args, _meta: { approval_id: err.details.approval_id } })) as any;
      expect(ran.isError).toBeFalsy();
      expect(twinWrites().length).toBe(before + 1);
      calls.count += 1;
      const replay = (await client.callTool({ name: 'createWorkspace', arguments: args, _meta: { approval_id: err.details.approval_id } })) as any;
      expect(JSON.parse(replay.content[0].text).error.details.reason).toBe('approval_used');
      expect(twinWrites().length).toBe(before + 1);
    } finally {
      await client.close();
    }

    // A read-only key: createWorkspace is not listed, and calling it says why, as REST does.
    const ro = await s.createKey('acme', { platforms: ['dbapp'], read_only: true });
    const c2 = new Client({ name: 'host', version: '1.0.0' });
    await c2.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/v1/mcp/dbapp`), { requestInit: { headers: { authorization: `Bearer ${ro.key}`, 'x-connection-id': connection } } }));
    try {
      const listed = await c2.listTools();
      expect(listed.tools.map((t) => t.name)).not.toContain('createWorkspace');
      const refused = (await c2.callTool({ name: 'createWorkspace', arguments: { name: 'x', type: 'open' } })) as any;
      expect(refused.isError).toBe(true);
      const e = JSON.parse(refused.content[0].text).error;
      expect(e.code).toBe('FORBIDDEN');
      expect(e.message).toContain('read-only');
    } finally {
      await c2.close();
    }
  });

  it('MCP tasks: a batch run as a task is held the same way, and its retry as a task runs once', async () => {
    const client = new Client({ name: 'task-host', version: '1.0.0' }, { capabilities: { tasks: { list: {}, cancel: {} } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/v1/mcp/dbapp`), { requestInit: { headers: { authorization: `Bearer ${key}`, 'x-connection-id': connection } } }));
    try {
      const args = { app_id: 902, inputs: [{ fields: { deal_name: 'Tasked deal', stage: ['Discovery'], amount: 1 } }] };
      const before = twinWrites().length;
      const asTask = async (meta?: Record<string, unknown>) => {
        calls.count += 1;
        const created = await client.request({ method: 'tools/call', params: { name: 'batchCreateRecords', arguments: args, task: { ttl: 60_000 }, ...(meta ? { _meta: meta } : {}) } }, CreateTaskResultSchema);
        return (await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema)) as any;
      };
      const held = await asTask();
      const err = JSON.parse(held.content[0].text).error;
      expect(err.details.reason).toBe('approval_required');
      expect(twinWrites().length).toBe(before);
      await decide(err.details.approval_url, 'approve');
      const ran = await asTask({ approval_id: err.details.approval_id });
      expect(ran.isError).toBeFalsy();
      expect(twinWrites().length).toBe(before + 1);
    } finally {
      await client.close();
    }
  });

  it('the consent page: a sign-in that chose "Every write" holds its host\'s writes, though its key does not', async () => {
    const plain = await s.createKey('acme', { platforms: ['dbapp'] });
    const { tokens, consent } = await hostSignIn(`${s.base}`, `${s.base}/v1/mcp/dbapp`, (browser, form) => browser.submit(form, 'sign-in', { service_key: plain.key }), undefined, { connection, approval: 'writes' });
    expect(consent.html).toContain('<select name="approval">');
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/v1/mcp/dbapp`), { requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } } }));
    try {
      const before = twinWrites().length;
      const held = (await client.callTool({ name: 'createWorkspace', arguments: { name: 'Granted workspace', type: 'open' } })) as any;
      expect(JSON.parse(held.content[0].text).error.details.reason).toBe('approval_required');
      expect(twinWrites().length).toBe(before);
      expect((await client.callTool({ name: 'listWorkspaces', arguments: {} })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('direct invocation: held, then run once with "approval_id" in the event', async () => {
    ssm.on(GetParameterCommand, { Name: '/tes/acme/key' }).resolves({ Parameter: { Name: '/tes/acme/key', Type: 'SecureString', Value: key } });
    const fn = lambdaHandler(dbapp, { store: s.rt.store, fetchFor: { dbapp: s.rt.fetchFor!.dbapp! }, config: loadConfig({}) });
    const event = { tool: 'createWorkspace', params: { name: 'Scheduled workspace', type: 'open' }, format: 'json' as const, key_parameter: '/tes/acme/key', connection_id: connection };
    const before = twinWrites().length;
    const held = (await fn(event, lambdaContext())) as any;
    expect(held.error.details.reason).toBe('approval_required');
    expect(held.error.details.approval_url).toContain(`${s.base}/v1/approve/`);
    expect(twinWrites().length).toBe(before);
    await decide(held.error.details.approval_url, 'approve');
    const ran = (await fn({ ...event, approval_id: held.error.details.approval_id }, lambdaContext())) as any;
    expect(ran.success).toBe(true);
    expect(twinWrites().length).toBe(before + 1);
    const replay = (await fn({ ...event, approval_id: held.error.details.approval_id }, lambdaContext())) as any;
    expect(replay.error.details.reason).toBe('approval_used');
    expect(twinWrites().length).toBe(before + 1);
  });

  it('the audit trail holds one record per call of the key, the approval steps, and no value that was sent', async () => {
    const rows: any[] = [];
    let cursor: string | undefined;
    do {
      const page = await s.api('GET', `/v1/admin/audit?tenant=acme&key_id=${keyId}&limit=7${cursor ? `&cursor=${cursor}` : ''}`, { key: ADMIN });
      expect(page.status).toBe(200);
      rows.push(...page.body.data.records);
      cursor = page.body.data.next_cursor;
    } while (cursor);
    const callRows = rows.filter((r) => r.kind === 'call');
    // Direct invocation's three calls went through the same core and store.
    expect(callRows.length).toBe(calls.count + 3);
    expect(new Set(callRows.map((r) => r.surface))).toEqual(new Set(['rest', 'mcp', 'mcp-task', 'direct']));
    const times = callRows.map((r) => Date.parse(r.time));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    const steps = rows.filter((r) => r.kind === 'approval').map((r) => r.outcome);
    for (const step of ['requested', 'approved', 'rejected', 'executed', 'expired']) expect(steps).toContain(step);
    expect(rows.find((r) => r.outcome === 'approval_required' || r.outcome === 'FORBIDDEN')).toMatchObject({ access: 'write', approval_id: expect.stringMatching(/^apr_/), args_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const typo = await s.api('GET', '/v1/admin/audit?tenant=acme&key=key_1', { key: ADMIN });
    expect(typo.body.error.details.parameter).toBe('key');
    expect((await s.api('GET', '/v1/admin/audit?tool=x', { key: ADMIN })).body.error.details.parameter).toBe('tenant');
    const filtered = await s.api('GET', `/v1/admin/audit?tenant=acme&tool=listWorkspaces&outcome=OK`, { key: ADMIN });
    expect(filtered.body.data.records.length).toBeGreaterThan(0);
    expect(filtered.body.data.records.every((r: any) => r.tool === 'listWorkspaces' && r.access === 'read' && r.outcome === 'OK')).toBe(true);

    // Grep every audit and approval item of the store for the values sent, the keys and the vendor key.
    const entries = [...((s.rt.store as MemoryStore) as any).entries.entries()] as [string, { value: unknown }][];
    const kept = JSON.stringify(entries.filter(([k]) => /^(audit|apr)/.test(k)).map(([, v]) => v.value));
    expect(kept.length).toBeGreaterThan(1000);
    for (const secret of ['Held workspace 51f0', 'Refused workspace', 'MCP workspace', 'Scheduled workspace', 'Batch 1', 'Tasked deal', key, SANDBOX_KEYS.owner]) expect(kept).not.toContain(secret);
  });
});
