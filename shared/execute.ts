import { createHash } from 'node:crypto';
import { ERROR_CATALOGUE, ToolError, rateLimited, type ErrorCode, type ErrorDetails } from './errors';
import { rateLimitFor, type Config } from './config';
import type { Registry } from './registry';
import type { Store } from './store';
import type { BlobStore } from './blob/blob';
import type { Resolver } from './fetch-url';
import type { PlatformEnv } from './tool';
import { parseInput } from './validate';
import { emit, log, logRecord } from './log';
import { emfDocument, metricsEnabled, UNKNOWN_TOOL } from './metrics';
import type { Call, Format } from './call';
import { safeCall } from './safe-call';
import { resolveCaller, type Caller } from './identity';

export type { Call, Format } from './call';

export type Envelope =
  | { success: true; data: unknown }
  | { success: false; error: { code: ErrorCode; message: string; details: ErrorDetails } };

export interface Outcome {
  status: number;
  body: Envelope;
  headers: Record<string, string>;
}

export interface Runtime {
  registry: Registry;
  store: Store;
  config: Config;
  /** Per-platform fetch override (local twins in-process); the global fetch otherwise. */
  fetchFor?: Record<string, typeof fetch | undefined>;
  /** Where tools put files they hand out by link (shared/blob). */
  blob?: BlobStore;
  /** DNS for checking caller URLs (webhook targets); absent: the system resolver. */
  resolve?: Resolver;
}


/** Marks a request body that was not valid JSON; reported after auth, lookup and rate limit. */
export const INVALID_JSON: unique symbol = Symbol('invalid JSON body');

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The one path of a tool call, shared by HTTP and direct Lambda invocation. */
export async function execute(rt: Runtime, call: Call): Promise<Outcome> {
  const started = performance.now();
  const vendor: VendorStats = { calls: 0, ms: 0 };
  const outcome = await run(rt, call, vendor);
  logCall(rt, call, outcome, started, vendor);
  return outcome;
}

/** Vendor calls of one tool call: how many, and their summed wall time. */
interface VendorStats {
  calls: number;
  ms: number;
}

let coldStart = true;

/**
 * The access log: one JSON line per call. Ids, names, codes and timings only: never the key, a
 * parameter value or file content. With metrics on (Lambda) the line is an EMF document
 * (shared/metrics.ts) and always written; otherwise it is written with LOG_LEVEL=info.
 */
function logCall(rt: Runtime, call: Call, outcome: Outcome, started: number, vendor: VendorStats): void {
  const body = outcome.body;
  const code = body.success ? undefined : body.error.code;
  const fields = {
    ...(call.requestId ? { request_id: call.requestId } : {}),
    platform: call.platform,
    tool: call.tool,
    status: outcome.status,
    ...(code ? { code } : {}),
    duration_ms: Math.round((performance.now() - started) * 100) / 100,
    vendor_calls: vendor.calls,
    vendor_ms: Math.round(vendor.ms * 100) / 100,
    cold_start: coldStart,
  };
  coldStart = false;
  if (!metricsEnabled()) return log('info', 'call', fields);
  // Platform and tool are dimensions: names the registry does not know are not minted as new ones.
  const platform = rt.registry.platforms.get(call.platform);
  const known = platform !== undefined && Object.hasOwn(platform.tools, call.tool);
  const metrics = {
    platform: platform ? call.platform : UNKNOWN_TOOL,
    tool: known ? call.tool : UNKNOWN_TOOL,
    ...(code ? { code } : {}),
    latencyMs: fields.duration_ms,
    vendorCalls: fields.vendor_calls,
    vendorMs: fields.vendor_ms,
  };
  const namespace = process.env.METRICS_NAMESPACE;
  emit('info', emfDocument(logRecord('info', 'call', fields), metrics, namespace ? { namespace } : {}));
}

/** The platform's fetch, counting vendor calls and their time for the access log. */
function countingFetch(inner: typeof fetch, stats: VendorStats): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const t = performance.now();
    stats.calls += 1;
    try {
      return await inner(input, init);
    } finally {
      stats.ms += performance.now() - t;
    }
  }) as typeof fetch;
}

async function run(rt: Runtime, call: Call, vendor: VendorStats): Promise<Outcome> {
  const headers: Record<string, string> = {};
  let admission: Promise<void> | undefined;
  let caller: Caller | undefined;
  try {
    // The counter starts before the tool lookup: a key probing tool names is counted like any call.
    if (!rt.registry.platforms.has(call.platform)) throw notFound(rt, call);
    // A service key is counted per connection, as the vendor counts per token (shared/identity).
    const keyHash = hashKey(call.connection ? `${call.key}#${call.connection}` : call.key);
    admission = countCall(rt, call.platform, keyHash, headers);
    // Awaited on every path below; this only keeps an early refusal from counting as unhandled.
    admission.catch(() => {});
    const found = await rt.registry.find(call.platform, call.tool);
    // A read-only tool runs alongside the counter's round trip and its answer waits for admission
    // (issue 15); writes (dry runs too), unknown tools and a fail-closed deployment wait before
    // anything is sent, so a refused write never reaches the vendor.
    if (!found?.tool.annotations.readOnly || rt.config.rateLimit.onStoreError === 'closed') await admission;
    if (!found) throw notFound(rt, call);
    const { platform, tool } = found;
    // Idempotency keys, dry runs and token budgets: every tool of every platform (issue 13).
    const safe = safeCall(call, tool);
    // Identity seam: who the call acts as (service key, policy, connection) before any vendor call.
    const who = (caller = await resolveCaller(rt, call, platform, tool));

    // A body the HTTP edge refused while reading it (a duplicate key): reported here, after the rate limit.
    if (call.params instanceof ToolError) throw call.params;
    if (call.params === INVALID_JSON) {
      throw new ToolError('INVALID_PARAMETER', 'The request body is not valid JSON. Send a JSON object of the tool parameters, e.g. {"workspace_id": 1}.', {
        parameter: '(body)',
        expected: 'JSON object',
      });
    }
    if (call.params === null || typeof call.params !== 'object' || Array.isArray(call.params)) {
      throw new ToolError('INVALID_PARAMETER', 'The request body must be a JSON object of the tool parameters, e.g. {} or {"workspace_id": 1}.', {
        parameter: '(body)',
        expected: 'JSON object',
      });
    }
    const input = parseInput(tool.input, call.params);
    const env: PlatformEnv = who.env({
      baseUrl: rt.config.baseUrls[platform.name] ?? platform.defaultBaseUrl,
      fetch: safe.fetch(countingFetch(rt.fetchFor?.[platform.name] ?? fetch, vendor)),
      timeoutMs: rt.config.upstreamTimeoutMs,
      ...(call.deadline !== undefined ? { deadline: call.deadline } : {}),
    });
    // With the counter: a refused read answers at once; its run's result, when it comes, is dropped.
    const [{ result, headers: safety }] = await Promise.all([safe.run(rt.store, who.scope, input, () => tool.run(input, {
      client: platform.client(who.vendorKey, env),
      keyHash: who.scope,
      store: rt.store,
      config: rt.config,
      deadline: call.deadline ?? Number.POSITIVE_INFINITY,
      ...(rt.blob ? { blob: rt.blob } : {}),
      ...(safe.dryRun ? { dryRun: true } : {}),
      ...(rt.resolve ? { resolve: rt.resolve } : {}),
    })), admission]);
    Object.assign(headers, safety);
    const data = safe.render(result, input, call.format);
    return { status: 200, body: { success: true, data }, headers };
  } catch (err) {
    // Over the limit, the refusal is the answer whatever the tool did: nothing of a refused read leaks.
    const refusal = await admission?.then(() => undefined, (e: unknown) => e);
    // A connection whose refresh the vendor refused answers why (and how to reconnect), not the vendor's 401.
    return failure(refusal ?? caller?.failure ?? err, call, headers);
  }
}

/**
 * Counts one call of the key on the platform and sets the RateLimit-* headers; over the limit it
 * throws RATE_LIMITED. Every keyed answer of a known platform carries the headers.
 */
export async function countCall(rt: Runtime, platform: string, keyHash: string, headers: Record<string, string>): Promise<void> {
  const { onStoreError } = rt.config.rateLimit;
  const { max, windowSeconds } = rateLimitFor(rt.config, platform, rt.registry.platforms.get(platform)?.rateLimit);
  let counter;
  try {
    counter = await rt.store.increment(`rl#${platform}#${keyHash}`, windowSeconds, max);
  } catch (err) {
    // Fail open by default: a store outage must not take every platform down with it.
    log('error', 'rate-limit store unavailable', { platform, policy: onStoreError, error: err instanceof Error ? err.name : 'unknown' });
    if (onStoreError === 'open') return;
    throw new ToolError('INTERNAL_ERROR', 'The rate-limit store is unavailable and this deployment refuses uncounted calls (RATE_LIMIT_ON_STORE_ERROR=closed). Retry later.', {});
  }
  headers['RateLimit-Limit'] = String(counter.limit);
  headers['RateLimit-Remaining'] = String(counter.remaining);
  headers['RateLimit-Reset'] = String(counter.resetSeconds);
  if (!counter.allowed) {
    throw rateLimited(counter.resetSeconds, `Rate limit of ${max} calls per ${windowSeconds} s for this key on "${platform}" reached; retry after ${counter.resetSeconds} s.`, {
      limit: max,
      window_seconds: windowSeconds,
    });
  }
}

function notFound(rt: Runtime, call: Call): ToolError {
  const platform = rt.registry.platforms.get(call.platform);
  if (!platform) {
    const known = [...rt.registry.platforms.keys()].join(', ');
    return new ToolError('NOT_FOUND', `Unknown platform "${call.platform}". Platforms served here: ${known}.`, { platform: call.platform });
  }
  return new ToolError('NOT_FOUND', `Unknown tool "${call.tool}" on platform "${call.platform}". List the tools with GET /v1/tools/${call.platform}.`, {
    platform: call.platform,
    tool: call.tool,
  });
}

export function failure(err: unknown, call: Pick<Call, 'platform' | 'tool'>, headers: Record<string, string> = {}): Outcome {
  if (err instanceof ToolError) {
    return { status: err.status, body: errorBody(err.code, err.message, err.details), headers: { ...headers, ...err.headers } };
  }
  // Unexpected: the caller gets a generic message, the log gets the cause (never the key or the params).
  log('error', 'unexpected error', { platform: call.platform, tool: call.tool, error: err instanceof Error ? err.stack : String(err) });
  return {
    status: ERROR_CATALOGUE.INTERNAL_ERROR.status,
    body: errorBody('INTERNAL_ERROR', 'The service hit an unexpected error; it has been logged. Retry later.', {}),
    headers,
  };
}

export function errorBody(code: ErrorCode, message: string, details: ErrorDetails = {}): Envelope {
  return { success: false, error: { code, message, details } };
}
