import { ToolError } from './errors';
import { DEFAULT_AUDIT_RETENTION_DAYS, type AuditConfig } from './config';
import { log } from './log';
import type { Store } from './store';

/**
 * The audit trail: one record per tool call on every surface (written by the core,
 * shared/core/execute.ts), and one per step of an approval (shared/identity/approvals.ts). Ids, names, codes,
 * counts and a hash of the arguments only — never a parameter value, file content, key or token.
 *
 * Layout in the Store (one item per key, no queries): per tenant and UTC day a sequence
 * (`auditseq#<tenant>#<day>`, an atomic add) numbers the records, each kept at
 * `audit#<tenant>#<day>#<n>`; so a day's records are read newest first by number, with no scan.
 * Every item lives AUDIT_RETENTION_DAYS. Calls with no tenant (vendor keys passed through,
 * refused credentials) are kept under the tenant `-`.
 *
 * A container takes its numbers in blocks (reserveNumber): one add of the block's size, then one
 * put per record, so a call costs the Store one request and the sequence item, which every call
 * of a tenant shares, one write per block instead of one per call.
 */

export const NO_TENANT = '-';

export interface AuditRecord {
  kind: 'call' | 'approval';
  /** ISO 8601, when the call ended (or the approval step happened). */
  time: string;
  tenant: string;
  key_id?: string;
  connection_id?: string;
  /** rest, mcp, mcp-task, direct (an approval's requested, executed and expired steps: its call's); approval-page, admin, mcp, mcp-task for a decision. */
  surface: string;
  platform: string;
  tool: string;
  access?: 'read' | 'write';
  dry_run?: boolean;
  idempotency_key?: string;
  approval_id?: string;
  /** `OK`, the error code, or an approval step (requested, approved, rejected, executed, expired). */
  outcome: string;
  status?: number;
  duration_ms?: number;
  vendor_calls?: number;
  /** SHA-256 of the canonical arguments (shared/core/idempotency.ts fingerprint): compares calls, reveals no value. */
  args_hash?: string;
  /** Who decided an approval: `key:<id>` of the approver, or `link` (the capability link alone). */
  by?: string;
  request_id?: string;
}

export type AuditExport = (record: AuditRecord) => Promise<void>;

const DAY_MS = 24 * 3600 * 1000;
const pad = (n: number) => String(n).padStart(10, '0');
const seqKey = (tenant: string, day: string) => `auditseq#${tenant}#${day}`;
const recordKey = (tenant: string, day: string, n: number) => `audit#${tenant}#${day}#${pad(n)}`;

let exporters: { config: AuditConfig; list: AuditExport[] } | undefined;

/** The exports the configuration names (S3 JSON lines, EventBridge); none by default. The SDK clients load on first use. */
export function auditExports(config: AuditConfig): AuditExport[] {
  if (exporters?.config === config) return exporters.list;
  const list: AuditExport[] = [];
  if (config.exportBucket) {
    const bucket = config.exportBucket;
    let s3: Promise<{ client: { send(cmd: unknown): Promise<unknown> }; Put: new (input: unknown) => unknown }> | undefined;
    list.push(async (r) => {
      const c = await (s3 ??= import('@aws-sdk/client-s3').then((m) => ({ client: new m.S3Client({}) as never, Put: m.PutObjectCommand as never })));
      // One object per record, as written: a JSON line under the tenant and day (Athena and SIEM loaders read the prefix).
      const key = `audit/${encodeURIComponent(r.tenant)}/${r.time.slice(0, 10)}/${r.time}-${Math.random().toString(36).slice(2, 10)}.jsonl`;
      await c.client.send(new c.Put({ Bucket: bucket, Key: key, Body: `${JSON.stringify(r)}\n`, ContentType: 'application/x-ndjson' }));
    });
  }
  if (config.exportBus) {
    const bus = config.exportBus;
    let eb: Promise<{ client: { send(cmd: unknown): Promise<any> }; Put: new (input: unknown) => unknown }> | undefined;
    list.push(async (r) => {
      const c = await (eb ??= import('@aws-sdk/client-eventbridge').then((m) => ({ client: new m.EventBridgeClient({}) as never, Put: m.PutEventsCommand as never })));
      const out = await c.client.send(new c.Put({ Entries: [{ EventBusName: bus, Source: 'tool-execution-service.audit', DetailType: r.kind === 'call' ? 'Tool call' : 'Approval', Detail: JSON.stringify(r) }] }));
      if (out?.FailedEntryCount) throw new Error('EventBridge refused the audit record');
    });
  }
  exporters = { config, list };
  return list;
}

/** The most numbers a container reserves at once: the sequence item then takes one write per this many calls. */
export const AUDIT_BLOCK_MAX = 32;
/**
 * How long a container keeps using a block. It bounds how far the listing's order (by number) can
 * stray from time order: a record numbered above another was written at most this long before it.
 */
export const AUDIT_BLOCK_MS = 10_000;
/**
 * The block size in use: AUDIT_BLOCK_MAX. The bench sets 1 to measure, in the same run, the trail
 * as it was before blocks (one add of 1 and one put per record: test/bench/warm-run.ts).
 */
export const auditBlocks = { max: AUDIT_BLOCK_MAX };

/** A container's numbers of one sequence: the block [end − size + 1, end], `next` the next to use. */
interface Block {
  next: number;
  end: number;
  size: number;
  reservedAt: number;
  /** The add that reserves the next block, shared by every record waiting for it. */
  pending?: Promise<void>;
}

/** Per Store object (a container's connection to the table): its blocks, by sequence key. */
const held = new WeakMap<Store, Map<string, Block>>();

/**
 * The next record number of `sequence` for this container. Numbers are used in the order asked,
 * from a block reserved with one atomic add; a new block is reserved when the block is used up
 * (twice its size, from 1 up to AUDIT_BLOCK_MAX: a busy container adds once per 32 calls) or older
 * than AUDIT_BLOCK_MS (the size it used, so a quiet container leaves few numbers unused). Numbers
 * a container never uses — the rest of an expired block, or of its last one when it ends — stay
 * holes, which the listing reads past.
 */
async function reserveNumber(store: Store, sequence: string, ttl: number): Promise<number> {
  if (!store.add) throw new Error('the audit trail needs a store with add (memory, DynamoDB)');
  const add = store.add.bind(store);
  let blocks = held.get(store);
  if (!blocks) held.set(store, (blocks = new Map()));
  let block = blocks.get(sequence);
  if (!block) {
    if (blocks.size >= 256) for (const [k, b] of blocks) if (!b.pending && Date.now() - b.reservedAt >= AUDIT_BLOCK_MS) blocks.delete(k);
    blocks.set(sequence, (block = { next: 1, end: 0, size: 0, reservedAt: 0 }));
  }
  const b = block;
  for (;;) {
    // Taken with no await before it: records ask in their time order and get numbers in that order.
    if (b.next <= b.end && Date.now() - b.reservedAt < AUDIT_BLOCK_MS) return b.next++;
    if (!b.pending) {
      const used = b.next - (b.end - b.size + 1);
      const size = b.next > b.end ? Math.min(auditBlocks.max, Math.max(1, b.size * 2)) : Math.max(1, Math.min(auditBlocks.max, used));
      b.pending = add(sequence, size, ttl)
        .then((end) => Object.assign(b, { next: end - size + 1, end, size, reservedAt: Date.now() }))
        .then(
          () => void (b.pending = undefined),
          (err: unknown) => {
            b.pending = undefined;
            throw err;
          },
        );
    }
    await b.pending;
  }
}

/**
 * Appends one record (and exports it). A failure is logged by name, never failing the call it
 * records: the call already happened, and its access-log line (shared/core/access-log.ts) still stands.
 */
export async function writeAudit(store: Store, config: AuditConfig | undefined, record: AuditRecord, exports: readonly AuditExport[] = config ? auditExports(config) : []): Promise<void> {
  const ttl = (config?.retentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS) * 24 * 3600;
  const day = record.time.slice(0, 10);
  try {
    const n = await reserveNumber(store, seqKey(record.tenant, day), ttl);
    await store.put(recordKey(record.tenant, day, n), record, ttl);
  } catch (err) {
    log('error', 'audit write failed', { tenant: record.tenant, tool: record.tool, error: err instanceof Error ? err.message : 'unknown' });
  }
  const results = await Promise.allSettled(exports.map((send) => send(record)));
  for (const r of results) if (r.status === 'rejected') log('error', 'audit export failed', { tenant: record.tenant, error: r.reason instanceof Error ? r.reason.message : 'unknown' });
}

export interface AuditQuery {
  tenant: string;
  key_id?: string;
  connection_id?: string;
  tool?: string;
  outcome?: string;
  /** ISO 8601 bounds, inclusive; default: the retention period up to now. */
  from?: string;
  to?: string;
  limit?: number | string;
  cursor?: string;
}

/**
 * Record numbers read per page at most, holes (numbers no record took: reserveNumber) included,
 * in reads of READ_BATCH: a page with few matches ends early with a cursor.
 */
const SCAN_PER_PAGE = 1000;
const READ_BATCH = 100;

const invalid = (parameter: string, expected: string, message: string) => new ToolError('INVALID_PARAMETER', message, { parameter, expected });

/** A listing's refusal of a bad `cursor` or `limit` (audit records, approvals). */
export const pageError = (parameter: 'cursor' | 'limit') =>
  parameter === 'cursor' ? invalid('cursor', 'the next_cursor of the previous page', '"cursor" must be the next_cursor of the previous page, unchanged.') : invalid('limit', 'an integer 1-500', '"limit" must be an integer from 1 to 500.');

/** The tenant and page size of a listing, checked: both are kept per tenant. */
export function pageQuery(tenant: string | undefined, rawLimit: string | number | undefined): { tenant: string; limit: number } {
  if (!tenant) throw invalid('tenant', 'a tenant name, or "-" for calls without one', '"tenant" is required: the trail and approvals are kept per tenant ("-" holds calls made with vendor keys or refused credentials).');
  const limit = rawLimit === undefined ? 50 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw pageError('limit');
  return { tenant, limit };
}

function time(raw: string | undefined, parameter: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const t = Date.parse(raw);
  if (!Number.isFinite(t)) throw invalid(parameter, 'ISO 8601 time', `"${parameter}" must be an ISO 8601 time such as "2026-12-01T00:00:00Z".`);
  return t;
}

interface Cursor {
  day: string;
  /** The next record number to read (downwards). */
  n: number;
}

function decodeCursor(raw: string | undefined): Cursor | undefined {
  if (!raw) return undefined;
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    if (/^\d{4}-\d{2}-\d{2}$/.test(c.day) && Number.isInteger(c.n) && c.n >= 0) return c;
  } catch {
    // falls through
  }
  throw pageError('cursor');
}

/**
 * Newest first by number, filtered; `next_cursor` while older records remain in the range. By
 * number is by time within one container; records of concurrent containers may interleave by up
 * to AUDIT_BLOCK_MS (reserveNumber), each keeping its exact `time`.
 */
export async function queryAudit(store: Store, config: AuditConfig | undefined, q: AuditQuery, now = Date.now()): Promise<{ records: AuditRecord[]; next_cursor?: string }> {
  const { limit } = pageQuery(q.tenant, q.limit);
  const retention = (config?.retentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS) * DAY_MS;
  const to = time(q.to, 'to') ?? now;
  const from = Math.max(time(q.from, 'from') ?? now - retention, now - retention);
  const cursor = decodeCursor(q.cursor);
  const fits = (r: AuditRecord) => {
    const t = Date.parse(r.time);
    return t >= from && t <= to && (!q.key_id || r.key_id === q.key_id) && (!q.connection_id || r.connection_id === q.connection_id) && (!q.tool || r.tool === q.tool) && (!q.outcome || r.outcome === q.outcome);
  };
  const records: AuditRecord[] = [];
  let examined = 0;
  const lastDay = new Date(from).toISOString().slice(0, 10);
  let day = cursor?.day ?? new Date(to).toISOString().slice(0, 10);
  let n: number | undefined = cursor?.n;
  for (;;) {
    // A day's newest number: its sequence (a counter item, which get does not read on DynamoDB), read without writing.
    n ??= store.count ? await store.count(seqKey(q.tenant, day)) : 0;
    while (n > 0) {
      if (records.length >= limit || examined >= SCAN_PER_PAGE) return { records, next_cursor: Buffer.from(JSON.stringify({ day, n }), 'utf8').toString('base64url') };
      const top: number = n;
      const nums: number[] = Array.from({ length: Math.min(READ_BATCH, top, limit - records.length + 20, SCAN_PER_PAGE - examined) }, (_, i) => top - i);
      const got = store.getMany ? await store.getMany<AuditRecord>(nums.map((m) => recordKey(q.tenant, day, m))) : await Promise.all(nums.map((m) => store.get<AuditRecord>(recordKey(q.tenant, day, m))));
      for (let i = 0; i < got.length; i++) {
        const r = got[i];
        examined += 1;
        n = nums[i]! - 1;
        if (r && fits(r)) records.push(r);
        if (records.length >= limit) break;
      }
    }
    if (day <= lastDay) return { records };
    day = new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
    n = undefined;
  }
}
