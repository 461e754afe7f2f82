import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runAudit } from '../../infra/audit-cli';
import { runKeys } from '../../infra/keys-cli';
import { AUDIT_BLOCK_MAX, AUDIT_BLOCK_MS, auditExports, queryAudit, writeAudit, type AuditRecord } from '../../shared/core/audit';
import type { Store } from '../../shared/core/store';
import { loadConfig } from '../../shared/core/config';
import { needsApproval, parsePolicy } from '../../shared/identity/policy';
import { DynamoStore } from '../../shared/store/dynamodb';
import { MemoryStore } from '../../shared/store/memory';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { createDynamoStore } from '../../shared/store/dynamo';
import { LOCAL_CREDENTIALS, startDynamoDbLocal, type DynamoDbLocal } from '../helpers/dynamodb-local';
import { Browser, localServer } from '../identity/helpers';

const record = (time: string, extra: Partial<AuditRecord> = {}): AuditRecord => ({ kind: 'call', time, tenant: 'acme', surface: 'rest', platform: 'crm', tool: 'createDeal', access: 'write', outcome: 'OK', status: 200, duration_ms: 3, vendor_calls: 1, key_id: 'key_1', ...extra });

/** A container's own view of a shared table: its own Store object (blocks are kept per Store), counting its sequence adds. */
function container(table: Store): { store: Store; adds: () => number } {
  let adds = 0;
  const store: Store = {
    get: (k) => table.get(k),
    put: (k, v, t) => table.put(k, v, t),
    increment: (k, w, l) => table.increment(k, w, l),
    getMany: (ks) => table.getMany!(ks),
    count: (k) => table.count!(k),
    add: (k, by, t) => {
      if (by !== 0) adds += 1;
      return table.add!(k, by, t);
    },
  };
  return { store, adds: () => adds };
}

/** Every record of the tenant, page by page (limit 7), newest first. */
async function listAll(store: Store, tenant: string, now: number): Promise<AuditRecord[]> {
  const seen: AuditRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await queryAudit(store, undefined, { tenant, limit: 7, ...(cursor ? { cursor } : {}) }, now);
    expect(page.records.length).toBeLessThanOrEqual(7);
    seen.push(...page.records);
    cursor = page.next_cursor;
  } while (cursor);
  return seen;
}

/**
 * Two containers (two Store clients on one table) write concurrently, one ends with numbers of its
 * block unused, a third writes after: exactly one record per call, listed newest first across pages
 * with no duplicate and no loss, holes skipped; each container's records in its own time order, and
 * the whole within the block's lifetime of time order. Far fewer sequence writes than records.
 */
async function containersOnOneTable(open: () => Store, tenant: string): Promise<void> {
  const base = Date.now() - 60_000;
  let clock = 0;
  // Times in the order the calls end, as execute stamps them; request_id names each call.
  const rec = (who: string, i: number) => record(new Date(base + clock++).toISOString(), { tenant, request_id: `${who}-${i}`, tool: i % 3 ? 'getDeal' : 'createDeal' });
  const a = container(open());
  const b = container(open());
  const writes: Promise<void>[] = [];
  for (let round = 0; round < 10; round++) {
    // Each container has several calls in flight at once (a local server, a batch), the two interleaved.
    for (let j = 0; j < 4; j++) writes.push(writeAudit(a.store, undefined, rec('a', round * 4 + j), []));
    for (let j = 0; j < 4; j++) writes.push(writeAudit(b.store, undefined, rec('b', round * 4 + j), []));
    await Promise.all(writes.splice(0));
  }
  // a writes 3 more and ends: the rest of its block stays unused.
  for (let i = 40; i < 43; i++) await writeAudit(a.store, undefined, rec('a', i), []);
  const c = container(open());
  for (let i = 0; i < 5; i++) await writeAudit(c.store, undefined, rec('c', i), []);
  const reader = open();
  const sequence = await reader.add!(`auditseq#${tenant}#${new Date(base).toISOString().slice(0, 10)}`, 0, 3600);

  const listed = await listAll(reader, tenant, Date.now());
  const ids = listed.map((r) => r.request_id!);
  const expected = [...Array.from({ length: 43 }, (_, i) => `a-${i}`), ...Array.from({ length: 40 }, (_, i) => `b-${i}`), ...Array.from({ length: 5 }, (_, i) => `c-${i}`)];
  expect(new Set(ids).size).toBe(ids.length);
  expect([...ids].sort()).toEqual([...expected].sort());
  // Holes: more numbers were reserved than records written, and the listing read past them.
  expect(sequence).toBeGreaterThan(listed.length);
  expect(a.adds() + b.adds() + c.adds()).toBeLessThan(listed.length / 3);
  // Newest first: exact within a container; across containers a record listed below another is at most one block's lifetime newer.
  for (const who of ['a', 'b', 'c']) {
    const times = listed.filter((r) => r.request_id!.startsWith(`${who}-`)).map((r) => Date.parse(r.time));
    expect(times).toEqual([...times].sort((x, y) => y - x));
  }
  for (let i = 1; i < listed.length; i++) expect(Date.parse(listed[i]!.time) - Date.parse(listed[i - 1]!.time)).toBeLessThan(AUDIT_BLOCK_MS);
  expect(ids.slice(0, 5)).toEqual(['c-4', 'c-3', 'c-2', 'c-1', 'c-0']);
  for (const r of listed) expect(r).not.toHaveProperty('params');
}

/**
 * A block older than its lifetime is not used again: the next record takes a new block (sized to
 * what the last one used), the old one's unused numbers stay holes, and blocks never exceed the cap.
 */
async function blockLifetime(open: () => Store): Promise<void> {
  const table = open();
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    const start = Date.parse('2026-12-07T10:00:00Z');
    vi.setSystemTime(start);
    const a = container(table);
    const at = (ms: number, i: number) => record(new Date(start + ms).toISOString(), { tenant: 'initech', request_id: `r-${i}` });
    for (let i = 0; i < 100; i++) await writeAudit(a.store, undefined, at(i, i), []);
    // Blocks of 1, 2, 4, 8, 16, 32, 32, 32: 8 adds for 100 records, 96-100 used of the last block (96-127).
    expect(a.adds()).toBe(8);
    const seq = () => table.add!('auditseq#initech#2026-12-07', 0, 3600);
    expect(await seq()).toBe(127);
    vi.setSystemTime(start + AUDIT_BLOCK_MS + 1);
    await writeAudit(a.store, undefined, at(AUDIT_BLOCK_MS + 1, 100), []);
    // The expired block's 27 unused numbers stay holes; the new block is the 5 the last one used.
    expect(a.adds()).toBe(9);
    expect(await seq()).toBe(127 + 5);
    const listed: AuditRecord[] = [];
    let cursor: string | undefined;
    do {
      const page = await queryAudit(table, undefined, { tenant: 'initech', limit: 30, ...(cursor ? { cursor } : {}) }, start + 3600_000);
      listed.push(...page.records);
      cursor = page.next_cursor;
    } while (cursor);
    expect(listed.map((r) => r.request_id)).toEqual(Array.from({ length: 101 }, (_, i) => `r-${100 - i}`));
    expect(AUDIT_BLOCK_MAX).toBe(32);
  } finally {
    vi.useRealTimers();
  }
}

describe('audit numbers reserved in blocks, memory store: containers sharing one store', () => {
  const shared = new MemoryStore();
  it('concurrent writers from two containers: one record per call, every one listed once, newest first, holes skipped', () => containersOnOneTable(() => shared, 'acme'));
  it('a block expires after its lifetime; its unused numbers stay holes', () => blockLifetime(() => shared));
});

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

  it('two containers (two store clients on the table) write concurrently: one record per call, all listed once, newest first, holes skipped', async () => {
    // Each container its own client, as two Lambda containers have; another tenant than the test above.
    await containersOnOneTable(() => createDynamoStore({ table: ddb.table, endpoint: ddb.endpoint, region: ddb.region }, { AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey }), 'umbrella');
  });

  it('a block expires after its lifetime on DynamoDB too', () => blockLifetime(() => new DynamoStore(ddb.client, ddb.table)));
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
