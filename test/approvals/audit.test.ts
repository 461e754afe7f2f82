import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runAudit } from '../../infra/audit-cli';
import { runKeys } from '../../infra/keys-cli';
import { auditExports, queryAudit, writeAudit, type AuditRecord } from '../../shared/core/audit';
import { loadConfig } from '../../shared/core/config';
import { needsApproval, parsePolicy } from '../../shared/identity/policy';
import { DynamoStore } from '../../shared/store/dynamodb';
import { MemoryStore } from '../../shared/store/memory';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { startDynamoDbLocal, type DynamoDbLocal } from '../helpers/dynamodb-local';
import { Browser, localServer } from '../identity/helpers';

const record = (time: string, extra: Partial<AuditRecord> = {}): AuditRecord => ({ kind: 'call', time, tenant: 'acme', surface: 'rest', platform: 'crm', tool: 'createDeal', access: 'write', outcome: 'OK', status: 200, duration_ms: 3, vendor_calls: 1, key_id: 'key_1', ...extra });

describe('the audit layout in DynamoDB Local: per tenant and day, newest first, filtered, paged', () => {
  let ddb: DynamoDbLocal;
  beforeAll(async () => {
    ddb = await startDynamoDbLocal({ table: 'audit-test' });
  }, 120_000);
  afterAll(() => ddb?.stop());

  it('reads two days back through the cursor, with filters, and keeps tenants apart', async () => {
    const store = new DynamoStore(ddb.client, ddb.table);
    const now = Date.parse('2026-12-06T12:00:00Z');
    const times = ['2026-12-05T08:00:00Z', '2026-12-05T09:00:00Z', '2026-12-06T07:00:00Z', '2026-12-06T08:00:00Z', '2026-12-06T09:00:00Z'];
    for (const [i, t] of times.entries()) await writeAudit(store, { retentionDays: 90 }, record(t, { tool: i % 2 ? 'getDeal' : 'createDeal', ...(i === 4 ? { outcome: 'FORBIDDEN', status: 403 } : {}) }), []);
    await writeAudit(store, { retentionDays: 90 }, record('2026-12-06T10:00:00Z', { tenant: 'globex' }), []);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await queryAudit(store, undefined, { tenant: 'acme', limit: 2, ...(cursor ? { cursor } : {}) }, now);
      seen.push(...page.records.map((r) => r.time));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...times].reverse());
    expect((await queryAudit(store, undefined, { tenant: 'acme', tool: 'getDeal' }, now)).records.map((r) => r.time)).toEqual(['2026-12-06T08:00:00Z', '2026-12-05T09:00:00Z']);
    expect((await queryAudit(store, undefined, { tenant: 'acme', outcome: 'FORBIDDEN' }, now)).records).toHaveLength(1);
    expect((await queryAudit(store, undefined, { tenant: 'acme', from: '2026-12-06T00:00:00Z', to: '2026-12-06T08:30:00Z' }, now)).records.map((r) => r.time)).toEqual(['2026-12-06T08:00:00Z', '2026-12-06T07:00:00Z']);
    expect((await queryAudit(store, undefined, { tenant: 'globex' }, now)).records).toHaveLength(1);
    await expect(queryAudit(store, undefined, { tenant: 'acme', cursor: 'garbage' }, now)).rejects.toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'cursor' } });
  });
});

describe('audit export as written: S3 JSON lines and EventBridge', () => {
  const s3 = mockClient(S3Client);
  const bus = mockClient(EventBridgeClient);
  afterAll(() => {
    s3.restore();
    bus.restore();
  });

  it('puts each record as one JSON line under the tenant and day, and on the bus; a failing export still stores the record', async () => {
    s3.on(PutObjectCommand).resolves({});
    bus.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: '1' }] });
    const store = new MemoryStore();
    const config = { retentionDays: 90, exportBucket: 'audit-bucket', exportBus: 'audit-bus' };
    const r = record('2026-12-06T09:00:00Z');
    await writeAudit(store, config, r);
    const put = s3.commandCalls(PutObjectCommand)[0]!.args[0].input;
    expect(put.Bucket).toBe('audit-bucket');
    expect(put.Key).toMatch(/^audit\/acme\/2026-12-06\/2026-12-06T09:00:00Z-[a-z0-9]+\.jsonl$/);
    expect(put.Body).toBe(`${JSON.stringify(r)}\n`);
    const sent = bus.commandCalls(PutEventsCommand)[0]!.args[0].input.Entries![0]!;
    expect(sent).toMatchObject({ EventBusName: 'audit-bus', Source: 'tool-execution-service.audit', DetailType: 'Tool call' });
    expect(JSON.parse(sent.Detail!)).toEqual(r);
    expect(auditExports(config)).toHaveLength(2);

    s3.on(PutObjectCommand).rejects(new Error('AccessDenied'));
    await writeAudit(store, config, record('2026-12-06T10:00:00Z'));
    expect((await queryAudit(store, config, { tenant: 'acme' }, Date.parse('2026-12-06T12:00:00Z'))).records).toHaveLength(2);
  });
});

describe('the CLIs: npm run keys -- --approval, npm run audit', () => {
  it('creates a key whose policy holds writes, and prints the trail as a table and as JSON lines', async () => {
    const store = new MemoryStore();
    const created = await runKeys(['create', '--tenant', 'acme', '--platforms', 'crm', '--approval', 'writes'], store);
    expect(created[0]).toContain('approval=writes');
    const listed = await runKeys(['create', '--tenant', 'acme', '--platforms', 'crm', '--approval', 'createDeal,crm:deals', '--approver'], store);
    expect(listed[0]).toContain('approval=createDeal,crm:deals');
    expect(listed[0]).toContain('approver');
    await expect(runKeys(['create', '--tenant', 'acme', '--platforms', 'crm', '--approval', 'Not a tool!'], store)).rejects.toMatchObject({ details: { parameter: 'policy.approval.0' } });

    const now = new Date().toISOString();
    await writeAudit(store, undefined, record(now), []);
    await writeAudit(store, undefined, record(now, { tool: 'getDeal', access: 'read' }), []);
    const table = await runAudit(['--tenant', 'acme'], store);
    expect(table[0]).toMatch(/^time\s+kind\s+surface/);
    expect(table).toHaveLength(4);
    expect(table.at(-1)).toBe('2 records');
    const lines = await runAudit(['--tenant', 'acme', '--tool', 'getDeal', '--json'], store);
    expect(lines.map((l) => JSON.parse(l).tool)).toEqual(['getDeal']);
  });
});

describe('a signed notice of each pending approval (APPROVAL_WEBHOOK_URL), and logs without values', () => {
  let receiver: Server;
  const got: { headers: IncomingMessage['headers']; body: string }[] = [];
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        got.push({ headers: req.headers, body });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('posts the ids, tool and link signed with the secret (no argument value); a private address is refused and the call still held', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const out: string[] = [];
    const grab = (...args: unknown[]) => void out.push(args.map(String).join(' '));
    const spies = (['log', 'error', 'warn', 'info'] as const).map((m) => vi.spyOn(console, m).mockImplementation(grab));
    try {
      for (const [hook, allow] of [[url, '127.0.0.1'], ['http://10.1.2.3/hook', '']] as const) {
        const s = await localServer({ APPROVAL_WEBHOOK_URL: hook, APPROVAL_WEBHOOK_SECRET: 'whsec_test', ALLOW_HTTP_HOSTS: allow, LOG_LEVEL: 'info' });
        try {
          const { key } = await s.createKey('acme', { platforms: ['dbapp'], approval: 'writes' } as never);
          const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'u', auth: 'api_key' } });
          await new Browser().connectKey(created.body.data.connect_url, SANDBOX_KEYS.owner);
          const res = await s.call(key, created.body.data.connection.id, 'dbapp/createWorkspace', { name: 'Notice 9c2e', type: 'open' });
          expect(res.body.error.details.reason).toBe('approval_required');
        } finally {
          await s.close();
        }
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(got).toHaveLength(1);
    const [{ headers, body }] = got as [{ headers: IncomingMessage['headers']; body: string }];
    const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(headers['tes-signature']));
    expect(m).not.toBeNull();
    expect(m![2]).toBe(createHmac('sha256', 'whsec_test').update(`${m![1]}.${body}`).digest('hex'));
    expect(JSON.parse(body)).toMatchObject({ type: 'approval.requested', tenant: 'acme', platform: 'dbapp', tool: 'createWorkspace', writes: 1, approval_url: expect.stringContaining('/v1/approve/') });
    expect(body).not.toContain('Notice 9c2e');
    const logs = out.join('');
    expect(logs).toContain('approval notice failed');
    expect(logs).not.toContain('Notice 9c2e');
    expect(logs).not.toContain(SANDBOX_KEYS.owner);
  });
});

describe('the approval rule and its settings', () => {
  it('holds writes by rule: destructive tools, every write, or named tools and toolsets; never reads', () => {
    const tool = (name: string, o: { readOnly?: boolean; destructive?: boolean; group?: string } = {}) => ({ platform: 'crm', name, group: o.group ?? 'deals', readOnly: o.readOnly ?? false, destructive: o.destructive ?? false });
    const policy = (approval: unknown) => parsePolicy({ platforms: ['crm'], approval });
    expect(needsApproval(policy('destructive'), tool('deleteDeal', { destructive: true }))).toBe(true);
    expect(needsApproval(policy('destructive'), tool('createDeal'))).toBe(false);
    expect(needsApproval(policy('writes'), tool('createDeal'))).toBe(true);
    expect(needsApproval(policy('writes'), tool('getDeal', { readOnly: true }))).toBe(false);
    expect(needsApproval(policy(['crm:deals']), tool('updateDeal'))).toBe(true);
    expect(needsApproval(policy(['createContact']), tool('updateDeal'))).toBe(false);
    expect(needsApproval(policy(['createContact']), tool('createContact', { group: 'contacts' }))).toBe(true);
    expect(needsApproval(parsePolicy({ platforms: ['crm'] }), tool('deleteDeal', { destructive: true }))).toBe(false);
  });

  it('refuses settings it cannot honour at start, naming them', () => {
    expect(() => loadConfig({ APPROVAL_SIGN_IN: 'sometimes' })).toThrow(/APPROVAL_SIGN_IN/);
    expect(() => loadConfig({ APPROVAL_WEBHOOK_URL: 'https://hooks.example.com/x' })).toThrow(/APPROVAL_WEBHOOK_SECRET/);
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: '0' })).toThrow(/AUDIT_RETENTION_DAYS/);
    expect(loadConfig({ APPROVAL_TTL_SECONDS: '60', AUDIT_EXPORT_BUS: 'b' })).toMatchObject({ approvals: { ttlSeconds: 60, signIn: false }, audit: { retentionDays: 90, exportBus: 'b' } });
  });
});
