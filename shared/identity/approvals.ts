import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ToolError } from '../core/errors';
import { DEFAULT_APPROVAL_TTL_SECONDS, type ApprovalConfig, type AuditConfig } from '../core/config';
import { planText, type DryRunPlan } from '../core/dry-run';
import { fetchUrl } from '../vendor/fetch-url';
import { log } from '../core/log';
import { pageError, pageQuery, writeAudit, type AuditRecord } from '../core/audit';
import type { Store } from '../core/store';
import type { Sealed, Vault } from './vault';
import { isApprovalId, type ApprovalFields, type ApprovalGate, type ApprovalRequest, type ApprovalStatus, type ApprovalView, type HeldCall } from '../core/approval';

export { checkApprovalId, type ApprovalRequest, type ApprovalStatus, type ApprovalView, type HeldCall } from '../core/approval';

/**
 * Approval requests: a call a key's policy holds (`approval`, shared/identity/policy.ts) does not
 * run; the core (shared/core/execute.ts) makes one of these instead — who asked, for which tool and
 * connection, the arguments and the dry-run plan sealed by the identity vault, their hash, an
 * expiry — and answers FORBIDDEN `approval_required` with a single-use link to the approval page
 * (shared/identity/approval-routes.ts). Once a person approves there, the same call with the
 * approval's id runs exactly once, with the same arguments, for the same key.
 *
 * Store items: `apr#<id>` the request; `aprlink#<sha256 of the link token>` → id; `aprdecided#<id>`
 * and `aprused#<id>` the single-use claims of the decision and of the run (putIfAbsent);
 * `aprseq#<tenant>` and `aprslot#<tenant>#<n>` the tenant's requests in order, for listings.
 */

export interface ApprovalRecord extends ApprovalFields {
  /** `{arguments, plan}` sealed by the identity vault, bound to the tenant and this id. */
  sealed: Sealed;
  status: Exclude<ApprovalStatus, 'expired'>;
  /** SHA-256 of the page link's token, and the page forms' CSRF token. */
  link_hash: string;
  csrf: string;
}


/** What the page opens: the arguments and the plan. */
export interface ApprovalContent {
  arguments: unknown;
  plan: DryRunPlan;
}



export interface ApprovalsDeps {
  store: Store;
  vault: () => Promise<Vault>;
  /** This service's public origin: the page link's host. */
  base: () => string;
  config?: ApprovalConfig | undefined;
  audit?: AuditConfig | undefined;
  now?: () => number;
  allowHttpHosts?: readonly string[];
}

/** Kept this long after its expiry, so GET /v1/approvals/{id} still tells what became of it. */
const KEEP_SECONDS = 7 * 24 * 3600;

const K = {
  record: (id: string) => `apr#${id}`,
  link: (hash: string) => `aprlink#${hash}`,
  decided: (id: string) => `aprdecided#${id}`,
  used: (id: string) => `aprused#${id}`,
  seq: (tenant: string) => `aprseq#${tenant}`,
  slot: (tenant: string, n: number) => `aprslot#${tenant}#${n}`,
};

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const sealContext = (r: Pick<ApprovalRecord, 'tenant' | 'id'>) => ({ tenant: r.tenant, connection: `approval:${r.id}` });


export class Approvals implements ApprovalGate {
  readonly now: () => number;

  constructor(private readonly deps: ApprovalsDeps) {
    this.now = deps.now ?? Date.now;
  }

  private get store(): Store & Required<Pick<Store, 'putIfAbsent' | 'add' | 'count'>> {
    const s = this.deps.store;
    if (!s.putIfAbsent || !s.add || !s.count) throw new Error('approvals need a store with putIfAbsent, add and count (memory, DynamoDB)');
    return s as never;
  }

  statusOf(r: ApprovalRecord): ApprovalStatus {
    if ((r.status === 'pending' || r.status === 'approved') && Date.parse(r.expires_at) <= this.now()) return 'expired';
    return r.status;
  }

  view(r: ApprovalRecord): ApprovalView {
    const { sealed: _s, link_hash: _l, csrf: _c, ...rest } = r;
    return { ...rest, status: this.statusOf(r) };
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    return isApprovalId(id) ? this.deps.store.get<ApprovalRecord>(K.record(id)) : undefined;
  }

  /** A request of `tenant`; another tenant's reads as one that never existed. */
  async require(tenant: string, id: string): Promise<ApprovalRecord> {
    const r = await this.get(id);
    if (!r || r.tenant !== tenant) throw new ToolError('NOT_FOUND', `No approval "${id.slice(0, 40)}" for this tenant.`, { approval_id: id.slice(0, 40) });
    return r;
  }

  private async save(r: ApprovalRecord): Promise<void> {
    await this.deps.store.put(K.record(r.id), r, Math.max(1, Math.ceil((Date.parse(r.expires_at) - this.now()) / 1000)) + KEEP_SECONDS);
  }

  /** An approval step in the audit trail (shared/core/audit.ts). */
  private audit(r: ApprovalRecord, outcome: string, surface: string, by?: string): Promise<void> {
    // Wall-clock time, as every call's record (shared/core/execute.ts): the trail is one timeline.
    const record: AuditRecord = { kind: 'approval', time: new Date().toISOString(), tenant: r.tenant, key_id: r.key_id, connection_id: r.connection, surface, platform: r.platform, tool: r.tool, access: 'write', approval_id: r.id, outcome, args_hash: r.args_hash, ...(by ? { by } : {}) };
    return writeAudit(this.deps.store, this.deps.audit, record);
  }

  /**
   * A held call becomes a pending request: stored (arguments and plan sealed), listed, audited and
   * announced (APPROVAL_WEBHOOK_URL). The answer is what a surface turns into its own reply.
   */
  async create(call: HeldCall): Promise<ApprovalRequest> {
    const now = this.now();
    const id = `apr_${randomBytes(12).toString('hex')}`;
    const token = randomBytes(32).toString('base64url');
    const ttl = this.deps.config?.ttlSeconds ?? DEFAULT_APPROVAL_TTL_SECONDS;
    const ctx = { tenant: call.tenant, id };
    const content: ApprovalContent = { arguments: call.arguments, plan: call.plan };
    const record: ApprovalRecord = {
      id,
      tenant: call.tenant,
      key_id: call.keyId,
      connection: call.connection,
      platform: call.platform,
      tool: call.tool,
      args_hash: call.argsHash,
      sealed: await (await this.deps.vault()).seal(JSON.stringify(content), sealContext(ctx)),
      writes: call.plan.writes.length,
      status: 'pending',
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + ttl * 1000).toISOString(),
      link_hash: sha(token),
      csrf: randomBytes(24).toString('base64url'),
    };
    await this.save(record);
    await this.deps.store.put(K.link(record.link_hash), id, ttl + KEEP_SECONDS);
    const n = await this.store.add(K.seq(call.tenant), 1, KEEP_SECONDS * 4);
    await this.deps.store.put(K.slot(call.tenant, n), id, ttl + KEEP_SECONDS);
    await this.audit(record, 'requested', call.surface);
    const request: ApprovalRequest = { approval: this.view(record), approval_url: `${this.deps.base()}/v1/approve/${token}`, preview: planText(call.plan) };
    await this.notify(request);
    return request;
  }

  /**
   * The run of an approved request: FORBIDDEN unless it is this key's, approved, unexpired, unused
   * and for exactly these arguments; then claimed (single use, atomic) and marked executed.
   * Nothing reaches the vendor before this answers.
   */
  async use(id: string, call: Omit<HeldCall, 'arguments' | 'plan'>): Promise<ApprovalView> {
    const r = await this.get(id);
    const refuse = (reason: string, message: string, extra: Record<string, unknown> = {}) =>
      new ToolError('FORBIDDEN', message, { reason, approval_id: id, ...extra });
    const again = ' Call again without Approval-Id to ask for a new approval.';
    if (!r || r.tenant !== call.tenant) throw refuse('approval_not_found', `No approval "${id}" for this key.${again}`);
    if (r.key_id !== call.keyId) throw refuse('approval_other_key', `Approval "${id}" belongs to another key.${again}`);
    const status = this.statusOf(r);
    if (status === 'expired') {
      await this.audit(r, 'expired', call.surface);
      throw refuse('approval_expired', `Approval "${id}" expired at ${r.expires_at}.${again}`, { expires_at: r.expires_at });
    }
    if (status === 'pending') throw refuse('approval_pending', `Approval "${id}" awaits a person's decision; retry once approved (GET /v1/approvals/${id}).`, { expires_at: r.expires_at });
    if (status === 'rejected') throw refuse('approval_rejected', `Approval "${id}" was rejected; the call does not run.`);
    const used = () => refuse('approval_used', `Approval "${id}" was already used: it runs its call once.${again}`);
    if (status === 'executed') throw used();
    if (r.platform !== call.platform || r.tool !== call.tool || r.connection !== call.connection || r.args_hash !== call.argsHash) {
      throw refuse('approval_mismatch', `Approval "${id}" is for ${r.platform}/${r.tool} through ${r.connection} with the arguments then sent; only that call, unchanged, runs with it.${again}`);
    }
    if (!(await this.store.putIfAbsent(K.used(id), { at: this.now() }, Math.ceil((Date.parse(r.expires_at) - this.now()) / 1000) + KEEP_SECONDS))) throw used();
    const done: ApprovalRecord = { ...r, status: 'executed', executed_at: new Date(this.now()).toISOString() };
    await this.save(done);
    await this.audit(done, 'executed', call.surface);
    return this.view(done);
  }

  /** The request a page link leads to (undefined: unknown link). */
  async byLink(token: string): Promise<ApprovalRecord | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
    const id = await this.deps.store.get<string>(K.link(sha(token)));
    return id ? this.get(id) : undefined;
  }

  async open(r: ApprovalRecord): Promise<ApprovalContent> {
    return JSON.parse(await (await this.deps.vault()).open(r.sealed, sealContext(r))) as ApprovalContent;
  }

  csrfMatches(r: ApprovalRecord, sent: unknown): boolean {
    return typeof sent === 'string' && sent.length === r.csrf.length && timingSafeEqual(Buffer.from(sent), Buffer.from(r.csrf));
  }

  /**
   * A person's decision, once: of two decisions (a double click, two tabs) exactly one is taken
   * (putIfAbsent); the other answers undefined and changes nothing.
   */
  async decide(r: ApprovalRecord, decision: 'approved' | 'rejected', by: string, surface: 'approval-page' | 'admin' | 'mcp' | 'mcp-task' = 'approval-page'): Promise<ApprovalRecord | undefined> {
    if (this.statusOf(r) !== 'pending') return undefined;
    if (!(await this.store.putIfAbsent(K.decided(r.id), { decision }, Math.ceil((Date.parse(r.expires_at) - this.now()) / 1000) + KEEP_SECONDS))) return undefined;
    const done: ApprovalRecord = { ...r, status: decision, decided_at: new Date(this.now()).toISOString(), decided_by: by };
    await this.save(done);
    await this.audit(done, decision, surface, by);
    return done;
  }

  /** A decision given through the caller's host (ApprovalGate.answer): the same single-use claim as the page's. */
  async answer(id: string, decision: 'approved' | 'rejected', by: string, surface: 'mcp' | 'mcp-task'): Promise<ApprovalView | undefined> {
    const r = await this.get(id);
    const done = r && (await this.decide(r, decision, by, surface));
    return done && this.view(done);
  }

  /** A tenant's requests, newest first (cursor: the next slot number). */
  async list(tenant: string | undefined, opts: { status?: string | undefined; limit?: string | undefined; cursor?: string | undefined } = {}): Promise<{ approvals: ApprovalView[]; next_cursor?: string }> {
    const page = pageQuery(tenant, opts.limit);
    let n = opts.cursor ? Number(opts.cursor) : await this.store.count(K.seq(page.tenant));
    if (!Number.isInteger(n) || n < 0) throw pageError('cursor');
    const { tenant: t, limit } = page;
    const out: ApprovalView[] = [];
    for (let examined = 0; n > 0 && out.length < limit && examined < 1000; examined++, n--) {
      const id = await this.deps.store.get<string>(K.slot(t, n));
      const r = id ? await this.get(id) : undefined;
      if (!r) continue;
      const v = this.view(r);
      if (!opts.status || v.status === opts.status) out.push(v);
    }
    return { approvals: out, ...(n > 0 ? { next_cursor: String(n) } : {}) };
  }

  /**
   * A signed notice of a new request to APPROVAL_WEBHOOK_URL (a team routes it to chat): the
   * request's ids, tool, expiry, link and plan summary (counts of writes per endpoint, no values).
   * Through the fetched-URL rules (shared/vendor/fetch-url.ts: https, public addresses only); signed
   * `t=<unix seconds>,v1=<HMAC-SHA256 of "t.body">` in `TES-Signature`. A failure is logged, never
   * failing the call.
   */
  private async notify(req: ApprovalRequest): Promise<void> {
    const cfg = this.deps.config;
    if (!cfg?.webhookUrl || !cfg.webhookSecret) return;
    const a = req.approval;
    const body = JSON.stringify({ type: 'approval.requested', approval_id: a.id, tenant: a.tenant, key_id: a.key_id, connection_id: a.connection, platform: a.platform, tool: a.tool, writes: a.writes, expires_at: a.expires_at, approval_url: req.approval_url });
    const t = Math.floor(this.now() / 1000);
    const signature = createHmac('sha256', cfg.webhookSecret).update(`${t}.${body}`).digest('hex');
    try {
      await fetchUrl(cfg.webhookUrl, {
        parameter: 'APPROVAL_WEBHOOK_URL',
        allowHttpHosts: this.deps.allowHttpHosts ?? [],
        send: { body, headers: { 'content-type': 'application/json', 'tes-signature': `t=${t},v1=${signature}` } },
        maxBytes: 64 * 1024,
        timeoutMs: 5_000,
      });
    } catch (err) {
      log('warn', 'approval notice failed', { approval_id: a.id, error: err instanceof Error ? err.message : 'unknown' });
    }
  }
}
