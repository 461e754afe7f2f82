/**
 * CloudWatch metrics per tool through the Embedded Metric Format: the access-log line of a call
 * (shared/core/execute.ts logCall) written to stdout with an `_aws` directive, which CloudWatch Logs
 * turns into metrics — no API call, no agent, no SDK. Written by hand rather than with Powertools
 * Metrics: a few lines against a library in every function bundle (bundle budget, README).
 *
 * Namespace `METRICS_NAMESPACE` (default ToolExecutionService). Per call:
 * - by [platform, tool] and [platform]: Calls (Count, 1), Errors (Count, 0 or 1), Latency
 *   (Milliseconds), VendorCalls (Count), VendorTime (Milliseconds);
 * - by [platform, tool, code], failures only: Errors — the errors by catalogue code.
 * On by default in Lambda, off elsewhere; `METRICS=on|off` decides explicitly.
 */

export const DEFAULT_NAMESPACE = 'ToolExecutionService';

/** A tool name not in the registry is reported as this: a caller must not mint metric dimensions. */
export const UNKNOWN_TOOL = '(unknown)';

type Env = Record<string, string | undefined>;

/** METRICS=on|off, else on exactly when running in Lambda. */
export function metricsEnabled(env: Env = process.env): boolean {
  const flag = env.METRICS?.trim().toLowerCase();
  if (flag === 'on' || flag === 'true' || flag === '1') return true;
  if (flag === 'off' || flag === 'false' || flag === '0') return false;
  return env.AWS_LAMBDA_FUNCTION_NAME !== undefined;
}

export interface CallMetrics {
  platform: string;
  tool: string;
  /** The catalogue code of a failure; absent on success. */
  code?: string;
  latencyMs: number;
  vendorCalls: number;
  vendorMs: number;
}

/**
 * The record (log fields) as an EMF document: the dimensions and metric values as root members,
 * declared in `_aws.CloudWatchMetrics`. The record's own fields stay: the line is also the access log.
 */
export function emfDocument(record: Record<string, unknown>, m: CallMetrics, opts: { namespace?: string; now?: number } = {}): Record<string, unknown> {
  const namespace = opts.namespace ?? DEFAULT_NAMESPACE;
  const failed = m.code !== undefined;
  const directives = [
    {
      Namespace: namespace,
      Dimensions: [['platform', 'tool'], ['platform']],
      Metrics: [
        { Name: 'Calls', Unit: 'Count' },
        { Name: 'Errors', Unit: 'Count' },
        { Name: 'Latency', Unit: 'Milliseconds' },
        { Name: 'VendorCalls', Unit: 'Count' },
        { Name: 'VendorTime', Unit: 'Milliseconds' },
      ],
    },
    ...(failed ? [{ Namespace: namespace, Dimensions: [['platform', 'tool', 'code']], Metrics: [{ Name: 'Errors', Unit: 'Count' }] }] : []),
  ];
  return {
    _aws: { Timestamp: opts.now ?? Date.now(), CloudWatchMetrics: directives },
    ...record,
    platform: m.platform,
    tool: m.tool,
    ...(failed ? { code: m.code } : {}),
    Calls: 1,
    Errors: failed ? 1 : 0,
    Latency: m.latencyMs,
    VendorCalls: m.vendorCalls,
    VendorTime: m.vendorMs,
  };
}

/**
 * One occurrence of a named event (e.g. VendorContractFailures, shared/vendor/vendor-contract.ts) by
 * [platform], as an EMF document around a log record: counted apart from the per-call metrics.
 */
export function eventDocument(record: Record<string, unknown>, m: { platform: string; metric: string }, opts: { namespace?: string; now?: number } = {}): Record<string, unknown> {
  return {
    _aws: { Timestamp: opts.now ?? Date.now(), CloudWatchMetrics: [{ Namespace: opts.namespace ?? DEFAULT_NAMESPACE, Dimensions: [['platform']], Metrics: [{ Name: m.metric, Unit: 'Count' }] }] },
    ...record,
    platform: m.platform,
    [m.metric]: 1,
  };
}
