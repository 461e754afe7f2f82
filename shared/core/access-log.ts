import { emit, infoLogged, log, logRecord } from './log';
import { emfDocument, metricsEnabled, UNKNOWN_TOOL } from './metrics';
import type { Call } from './call';
import type { Outcome } from './envelope';
import type { Runtime } from './runtime';
import { knownNames, SERVICE_PLATFORM } from './registry';

/** Vendor calls of one tool call: how many, and their summed wall time. */
export interface VendorStats {
  calls: number;
  ms: number;
}

/** The platform's fetch, counting vendor calls and their time for the access log. */
export function countingFetch(inner: typeof fetch, stats: VendorStats): typeof fetch {
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

/** The longest caller-chosen name the log repeats. */
export const MAX_LOGGED_NAME = 64;

/**
 * A name the registry does not know, as the log may repeat it: percent-encoded (only letters,
 * digits, `_`, `-` and `.` stay as they are, so no quote, control character or line break of the
 * caller's reaches a log line) and cut to MAX_LOGGED_NAME characters, never inside an escape.
 */
export function loggableName(name: string): string {
  let out = '';
  for (const ch of name.slice(0, MAX_LOGGED_NAME)) {
    const piece = /^[A-Za-z0-9_.-]$/.test(ch) ? ch : encodeURIComponent(ch).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    if (out.length + piece.length > MAX_LOGGED_NAME) break;
    out += piece;
  }
  return out;
}

let coldStart = true;

/**
 * The access log: one JSON line per call. Ids, names, codes and timings only: never the key, a
 * parameter value or file content. A platform or tool the registry does not know is logged as
 * `(unknown)`, with the name asked for beside it bounded and escaped (loggableName): callers
 * choose it. With metrics on (Lambda) the line is an EMF document (shared/core/metrics.ts) and always
 * written; otherwise it is written with LOG_LEVEL=info.
 */
export function logCall(rt: Runtime, call: Call, outcome: Outcome, started: number, vendor: VendorStats): void {
  const metrics = metricsEnabled();
  // Nothing is written: the record is not built (the first call is still the cold one).
  if (!metrics && !infoLogged()) return void (coldStart = false);
  const body = outcome.body;
  const code = body.success ? undefined : body.error.code;
  const { platform, tool: known } = knownNames(rt.registry, call.platform, call.tool);
  const fields = {
    ...(call.requestId ? { request_id: call.requestId } : {}),
    // A service tool called on no platform (search_tools on the combined endpoint): the service's own name.
    platform: platform ? call.platform || SERVICE_PLATFORM : UNKNOWN_TOOL,
    tool: known ? call.tool : UNKNOWN_TOOL,
    ...(platform ? {} : { requested_platform: loggableName(call.platform) }),
    ...(known ? {} : { requested_tool: loggableName(call.tool) }),
    status: outcome.status,
    ...(code ? { code } : {}),
    duration_ms: Math.round((performance.now() - started) * 100) / 100,
    vendor_calls: vendor.calls,
    vendor_ms: Math.round(vendor.ms * 100) / 100,
    cold_start: coldStart,
  };
  coldStart = false;
  if (!metrics) return log('info', 'call', fields);
  // Platform and tool are dimensions: names the registry does not know are not minted as new ones.
  const dimensions = {
    platform: fields.platform,
    tool: fields.tool,
    ...(code ? { code } : {}),
    latencyMs: fields.duration_ms,
    vendorCalls: fields.vendor_calls,
    vendorMs: fields.vendor_ms,
  };
  const namespace = process.env.METRICS_NAMESPACE;
  emit('info', emfDocument(logRecord('info', 'call', fields), dimensions, namespace ? { namespace } : {}));
}
