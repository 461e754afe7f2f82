import { ToolError } from './errors';
import type { Call } from './call';
import { failure, success, type Outcome } from './envelope';
import { countCall, hashKey } from './admission';
import { countingFetch, logCall, type VendorStats } from './access-log';
import { notJsonError } from './json-body';
import type { Runtime } from './runtime';
import type { PlatformEnv } from './tool';
import { parseInput } from './validate';
import { omitNulls } from './schemas/nulls';
import { safeCall } from './safe-call';
import { resolveCaller, type Caller } from './identity';
import { vendorFetch } from './vendor-fetch';

/**
 * The one path of a tool call, for every surface (HTTP, MCP, direct Lambda invocation): they map
 * their request to a `Call` and the `Outcome` to their answer; everything between is here —
 * admission (shared/admission.ts), the tool lookup (once), normalisation (nulls for omitted
 * optionals dropped), validation, safe writes (shared/safe-call.ts), the run, rendering and the
 * access log (shared/access-log.ts).
 */
export async function execute(rt: Runtime, call: Call): Promise<Outcome> {
  const started = performance.now();
  const vendor: VendorStats = { calls: 0, ms: 0 };
  const outcome = await run(rt, call, vendor);
  logCall(rt, call, outcome, started, vendor);
  return outcome;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

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
    // A read-only tool runs alongside the counter's round trip and its answer waits for admission;
    // writes (dry runs too), unknown tools and a fail-closed deployment wait before anything is
    // sent, so a refused write never reaches the vendor.
    if (!found?.tool.annotations.readOnly || rt.config.rateLimit.onStoreError === 'closed') await admission;
    if (!found) throw notFound(rt, call);
    const { platform, tool } = found;
    // Idempotency keys, dry runs and token budgets: every tool of every platform.
    const safe = safeCall(call, tool);
    // Identity seam: who the call acts as (service key, policy, connection) before any vendor call.
    const who = (caller = await resolveCaller(rt, call, platform, tool));

    // What the surface refused while reading the request: reported here, after the rate limit.
    if (call.refused === 'not_json') throw notJsonError(tool.example?.input);
    if (call.refused) throw call.refused;
    if (!isPlainObject(call.params)) {
      throw new ToolError('INVALID_PARAMETER', 'The request body must be a JSON object of the tool parameters, e.g. {} or {"workspace_id": 1}.', {
        parameter: '(body)',
        expected: 'JSON object',
      });
    }
    // A null for an optional parameter is its omission (OpenAI strict mode sends them): shared/schemas/nulls.ts.
    const input = parseInput(tool.input, omitNulls(tool.input, call.params));
    const env: PlatformEnv = who.env({
      baseUrl: rt.config.baseUrls[platform.name] ?? platform.defaultBaseUrl,
      fetch: safe.fetch(countingFetch(rt.fetchFor?.[platform.name] ?? vendorFetch, vendor)),
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
      keepCredential: who.keep,
    })), admission]);
    Object.assign(headers, safety);
    if (call.format !== 'structured') return success(safe.render(result, input, call.format), headers);
    // Text, and beside it the structured result (a dry run's plan; in full under a token budget,
    // which cuts the text only): an MCP tool with an output schema must always answer one.
    const text = safe.render(result, input, 'text');
    return { ...success(text, headers), structured: safe.render(result, input, 'json') };
  } catch (err) {
    // Over the limit, the refusal is the answer whatever the tool did: nothing of a refused read leaks.
    const refusal = await admission?.then(() => undefined, (e: unknown) => e);
    // A connection whose refresh the vendor refused answers why (and how to reconnect), not the vendor's 401.
    return failure(refusal ?? caller?.failure ?? err, call, headers);
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
