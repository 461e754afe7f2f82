import { ToolError } from './errors';
import type { Acting, Call, CallerIds } from './call';
import { knownNames, SERVICE_PLATFORM, type CatalogClient, type Registry } from './registry';
import { failure, success, type Outcome } from './envelope';
import { countCall, hashKey } from './admission';
import { countingFetch, logCall, type VendorStats } from './access-log';
import { notJsonError } from './json-body';
import type { Runtime } from './runtime';
import type { Platform, PlatformEnv } from './tool';
import { parseInput } from './validate';
import { omitNulls } from './nulls';
import { safeCall } from './safe-writes';
import { vendorFetch } from './vendor-fetch';
import { checkApprovalId, type ApprovalRequest, type HeldCall } from './approval';
import { NO_TENANT, writeAudit } from './audit';
import { fingerprint } from './idempotency';
import type { DryRunPlan } from './dry-run';

/**
 * The one path of a tool call, for every surface (HTTP, MCP, direct Lambda invocation): they map
 * their request to a `Call` and the `Outcome` to their answer; everything between is here —
 * admission (shared/core/admission.ts), the tool lookup (once), normalisation (nulls for omitted
 * optionals dropped), validation, safe writes (shared/core/safe-writes.ts), the run, rendering and the
 * access log (shared/core/access-log.ts).
 */
export async function execute(rt: Runtime, call: Call): Promise<Outcome> {
  const started = performance.now();
  const vendor: VendorStats = { calls: 0, ms: 0 };
  const seen: Seen = { ids: {} };
  const outcome = await run(rt, call, vendor, seen);
  if (seen.approval) outcome.approval = seen.approval;
  logCall(rt, call, outcome, started, vendor);
  await audit(rt, call, outcome, started, vendor, seen);
  return outcome;
}

/** What the run learnt of the call for its audit record: who, the tool's kind, the arguments' hash, the approval used. */
interface Seen {
  ids: CallerIds;
  readOnly?: boolean;
  dryRun?: boolean;
  argsHash?: string;
  approvalId?: string;
  /** The request made of a held call. */
  approval?: ApprovalRequest;
}

/** The call's one audit record (shared/core/audit.ts): ids, names, codes and counts; of the arguments only their hash. */
function audit(rt: Runtime, call: Call, outcome: Outcome, started: number, vendor: VendorStats, seen: Seen): Promise<void> {
  const body = outcome.body;
  const known = knownNames(rt.registry, call.platform, call.tool);
  const details = body.success ? undefined : body.error.details;
  const approvalId = seen.approvalId ?? (typeof details?.approval_id === 'string' ? details.approval_id : undefined);
  const key = typeof call.idempotencyKey === 'string' && call.idempotencyKey.length <= 255 ? call.idempotencyKey : undefined;
  return writeAudit(rt.store, rt.config.audit, {
    kind: 'call',
    time: new Date().toISOString(),
    tenant: seen.ids.tenant ?? NO_TENANT,
    ...(seen.ids.keyId ? { key_id: seen.ids.keyId } : {}),
    ...(seen.ids.connection ? { connection_id: seen.ids.connection } : {}),
    surface: call.surface ?? 'rest',
    // Names the registry does not know are not repeated (callers choose them), as in the access log.
    platform: known.platform ? call.platform || SERVICE_PLATFORM : '(unknown)',
    tool: known.tool ? call.tool : '(unknown)',
    ...(seen.readOnly !== undefined ? { access: seen.readOnly ? 'read' : 'write' } : {}),
    dry_run: seen.dryRun === true,
    ...(key && !seen.readOnly ? { idempotency_key: key } : {}),
    ...(approvalId ? { approval_id: approvalId } : {}),
    outcome: body.success ? 'OK' : body.error.code,
    status: outcome.status,
    duration_ms: Math.round((performance.now() - started) * 100) / 100,
    vendor_calls: vendor.calls,
    ...(seen.argsHash ? { args_hash: seen.argsHash } : {}),
    ...(call.requestId ? { request_id: call.requestId } : {}),
  });
}

/**
 * A call the key's policy holds for a person's approval (shared/identity/policy.ts `approval`):
 * the request made of it — its dry-run plan, the arguments sealed — which a surface turns into its
 * own answer (FORBIDDEN `approval_required` with the page's link; an MCP elicitation).
 */
export async function requireApproval(rt: Runtime, held: HeldCall): Promise<ApprovalRequest> {
  return (await rt.approvals()).create(held);
}

/** The FORBIDDEN answer of a held call: what to do, the link for a person, and the id to retry with. */
export function approvalRequired(req: ApprovalRequest): ToolError {
  const a = req.approval;
  return new ToolError(
    'FORBIDDEN',
    `This key's policy needs a person's approval before ${a.platform}/${a.tool} runs. Ask a person to open ${req.approval_url} and approve it (before ${a.expires_at}), then send the same call again, unchanged, with Approval-Id: ${a.id} (MCP: "_meta": {"approval_id": "${a.id}"}; direct invocation: "approval_id"). Nothing was sent to the vendor.`,
    { reason: 'approval_required', approval_id: a.id, approval_url: req.approval_url, expires_at: a.expires_at, preview: req.preview },
  );
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

async function run(rt: Runtime, call: Call, vendor: VendorStats, seen: Seen): Promise<Outcome> {
  const headers: Record<string, string> = {};
  let admission: Promise<void> | undefined;
  try {
    // The counter starts before the tool lookup: a key probing tool names is counted like any call.
    // A service tool (search_tools) may be called on no platform ("").
    if (call.platform !== '' && !rt.registry.platforms.has(call.platform)) throw notFound(rt, call);
    // A service key is counted per connection, as the vendor counts per token (shared/identity).
    const keyHash = hashKey(call.connection ? `${call.key}#${call.connection}` : call.key);
    admission = countCall(rt, call.platform || SERVICE_COUNTER, keyHash, headers);
    // Awaited on every path below; this only keeps an early refusal from counting as unhandled.
    admission.catch(() => {});
    const found = await findTool(rt, call);
    // A read-only tool runs alongside the counter's round trip and its answer waits for admission;
    // writes (dry runs too), unknown tools and a fail-closed deployment wait before anything is
    // sent, so a refused write never reaches the vendor.
    if (!found?.tool.annotations.readOnly || rt.config.rateLimit.onStoreError === 'closed') await admission;
    if (!found) throw notFound(rt, call);
    const { platform, tool } = found;
    seen.readOnly = tool.annotations.readOnly;
    // Idempotency keys, dry runs and token budgets: every tool of every platform.
    const safe = safeCall(call, tool);
    seen.dryRun = safe.dryRun;
    // Identity seam: the caller the edge resolved, acting for this tool (policy, connection) before any vendor call.
    const resolved = await call.caller;
    if (!resolved.ok) throw resolved.error;
    const caller = resolved.caller;
    // Who, for the audit trail, as far as known should acting for the tool be refused.
    if (caller.tenant !== undefined) {
      const connection = caller.connection ?? call.connection;
      seen.ids = { tenant: caller.tenant, ...(caller.keyId ? { keyId: caller.keyId } : {}), ...(connection ? { connection } : {}) };
    }
    // A service tool acts at no vendor: no connection, no credential; its client is the catalog as the caller may see it.
    const who = platform ? await caller.act(platform, tool, call.connection) : catalogActing(hashKey(call.key));
    const approvalId = checkApprovalId(call.approvalId);

    // What the surface refused while reading the request: reported here, after the rate limit.
    if (call.refused === 'not_json') throw notJsonError(tool.example?.input);
    if (call.refused) throw call.refused;
    if (!isPlainObject(call.params)) {
      throw new ToolError('INVALID_PARAMETER', 'The request body must be a JSON object of the tool parameters, e.g. {} or {"workspace_id": 1}.', {
        parameter: '(body)',
        expected: 'JSON object',
      });
    }
    // A null for an optional parameter is its omission (OpenAI strict mode sends them): shared/core/nulls.ts.
    const input = parseInput(tool.input, omitNulls(tool.input, call.params));
    seen.argsHash = fingerprint(input);
    /** The tool's run under one set of safe-write options (the call's own, or a dry run's for an approval's plan). */
    const runUnder = (s: ReturnType<typeof safeCall>) => {
      const env = (p: Platform): PlatformEnv => who.env({
        baseUrl: rt.config.baseUrls[p.name] ?? p.defaultBaseUrl,
        fetch: s.fetch(countingFetch(rt.fetchFor?.[p.name] ?? vendorFetch, vendor)),
        timeoutMs: rt.config.upstreamTimeoutMs,
        ...(call.deadline !== undefined ? { deadline: call.deadline } : {}),
      });
      const client: unknown = platform ? platform.client(who.vendorKey, env(platform)) : ({ registry: rt.registry, allows: caller.allows } satisfies CatalogClient);
      return s.run(rt.store, who.scope, input, () => who.run(() => tool.run(input, {
        client,
        keyHash: who.scope,
        store: rt.store,
        config: rt.config,
        deadline: call.deadline ?? Number.POSITIVE_INFINITY,
        ...(rt.blob ? { blob: rt.blob } : {}),
        ...(s.dryRun ? { dryRun: true } : {}),
        ...(rt.resolve ? { resolve: rt.resolve } : {}),
        keepCredential: who.keep,
      })));
    };
    // A write the policy holds runs only with an approval a person gave for exactly this call;
    // without one, its dry run becomes the approval request's plan and nothing is written.
    const held = who.principal?.approval && !safe.dryRun ? who.principal : undefined;
    if (held) {
      const ids = { tenant: held.tenant, keyId: held.keyId, connection: held.connection, platform: call.platform, tool: tool.name, argsHash: seen.argsHash, surface: call.surface ?? 'rest' };
      if (approvalId === undefined) {
        const { result: plan } = await runUnder(safeCall({ ...call, dryRun: true, idempotencyKey: undefined, maxTokens: undefined }, tool));
        seen.approval = await requireApproval(rt, { ...ids, arguments: input, plan: plan as DryRunPlan });
        throw approvalRequired(seen.approval);
      }
      seen.approvalId = approvalId;
      await (await rt.approvals()).use(approvalId, ids);
    }
    // With the counter: a refused read answers at once; its run's result, when it comes, is dropped.
    const [{ result, headers: safety }] = await Promise.all([runUnder(safe), admission]);
    Object.assign(headers, safety);
    if (call.format !== 'structured') return success(safe.render(result, input, call.format), headers);
    // Text, and beside it the structured result (a dry run's plan; in full under a token budget,
    // which cuts the text only): an MCP tool with an output schema must always answer one.
    const text = safe.render(result, input, 'text');
    return { ...success(text, headers), structured: safe.render(result, input, 'json') };
  } catch (err) {
    // Over the limit, the refusal is the answer whatever the tool did: nothing of a refused read leaks.
    const refusal = await admission?.then(() => undefined, (e: unknown) => e);
    return failure(refusal ?? err, call, headers);
  }
}

/** Where a service tool's calls on no platform are counted: the service's own limit (RATE_LIMIT_MAX). */
const SERVICE_COUNTER = 'search';

/** A platform's tool; else a tool of the service itself (search_tools), on any platform's endpoint or on none: then no platform. */
async function findTool(rt: Runtime, call: Call): Promise<{ platform?: Platform; tool: Awaited<ReturnType<Registry['service']>> & object } | undefined> {
  const own = call.platform === '' ? undefined : await rt.registry.find(call.platform, call.tool);
  if (own) return own;
  const service = rt.registry.service(call.tool);
  return service && { tool: await service };
}

/** How a service tool acts: as no one at any vendor, its caches and claims scoped to the key's hash. */
const catalogActing = (scope: string): Acting => ({
  vendorKey: '',
  scope,
  env: (env) => env,
  keep: () => Promise.reject(new Error('a service tool keeps no vendor credential')),
  run: (work) => work(),
});

function notFound(rt: Runtime, call: Call): ToolError {
  const platform = rt.registry.platforms.get(call.platform);
  if (call.platform === '') return new ToolError('NOT_FOUND', `Unknown tool "${call.tool}": on no platform, only the service's own tools (${rt.registry.services.join(', ') || 'none'}) are called.`, { tool: call.tool });
  if (!platform) {
    const known = [...rt.registry.platforms.keys()].join(', ');
    return new ToolError('NOT_FOUND', `Unknown platform "${call.platform}". Platforms served here: ${known}.`, { platform: call.platform });
  }
  return new ToolError('NOT_FOUND', `Unknown tool "${call.tool}" on platform "${call.platform}". List the tools with GET /v1/tools/${call.platform}.`, {
    platform: call.platform,
    tool: call.tool,
  });
}
