import { emit, log, logRecord } from '../core/log';
import { DEFAULT_NAMESPACE, metricsEnabled } from '../core/metrics';
import type { Refusal } from '../core/event-model';

/**
 * The receiver's counts: every refused delivery by platform and reason, every stored and
 * duplicate event by platform. In Lambda each is an EMF line (as shared/core/metrics.ts does for
 * calls): CloudWatch metrics `EventsRefused` [platform, reason], `EventsStored` and
 * `EventsDuplicate` [platform]. The in-process totals are for tests and the local server.
 */
export const receiverCounts = {
  refused: new Map<string, number>(),
  stored: new Map<string, number>(),
  duplicates: new Map<string, number>(),
};

const bump = (m: Map<string, number>, key: string, n: number) => m.set(key, (m.get(key) ?? 0) + n);

export function countRefusal(platform: string, refusal: Refusal): void {
  bump(receiverCounts.refused, `${platform}/${refusal.reason}`, 1);
  const fields = { platform, reason: refusal.reason, status: refusal.status };
  if (!metricsEnabled()) return log('warn', 'event delivery refused', fields);
  emit('warn', metric(logRecord('warn', 'event delivery refused', fields), [['platform', 'reason']], { EventsRefused: 1 }));
}

export function countStored(platform: string, stored: number, duplicates: number): void {
  bump(receiverCounts.stored, platform, stored);
  bump(receiverCounts.duplicates, platform, duplicates);
  if (!metricsEnabled()) return log('info', 'event delivery stored', { platform, stored, duplicates });
  emit('info', metric(logRecord('info', 'event delivery stored', { platform }), [['platform']], { EventsStored: stored, EventsDuplicate: duplicates }));
}

function metric(record: Record<string, unknown>, dimensions: string[][], values: Record<string, number>): Record<string, unknown> {
  const Namespace = process.env.METRICS_NAMESPACE || DEFAULT_NAMESPACE;
  const Metrics = Object.keys(values).map((Name) => ({ Name, Unit: 'Count' }));
  return { _aws: { Timestamp: Date.now(), CloudWatchMetrics: [{ Namespace, Dimensions: dimensions, Metrics }] }, ...record, ...values };
}
