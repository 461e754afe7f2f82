/** Automation runs and their logs as the tools return them. */
import type { TapeAutomationRun, TapeAutomationRunLog } from '../wire';

// --- runs ---
export type AutomationRun = Omit<TapeAutomationRun, 'logs'>;
export type AutomationRunLog = TapeAutomationRunLog;

export function toRun(r: TapeAutomationRun): AutomationRun {
  const { logs: _logs, ...run } = r;
  return run;
}

/** `run 9001 · #88 Notify on new lead · completed (regular) · record #5001 · 2024-01-18 08:12:04 · 2 actions`. */
export function runLine(r: AutomationRun): string {
  const parts = [`run ${r.id}`, `#${r.automation_id} ${r.automation_name}`, `${r.status} (${r.type})`];
  if (r.triggered_on_record_id != null) parts.push(`record #${r.triggered_on_record_id}`);
  if (r.triggered_by_automation_id != null) parts.push(`called by #${r.triggered_by_automation_id}`);
  parts.push(r.created_at);
  if (r.num_consumed_actions) parts.push(`${r.num_consumed_actions} action${r.num_consumed_actions === 1 ? '' : 's'}`);
  if (r.failure_reason) parts.push(`${r.failure_reason}${r.error_message ? `: ${r.error_message}` : ''}`);
  return parts.join(' · ');
}

export function logLine(l: AutomationRunLog): string {
  const what = l.type === 'action' ? `${l.label} [${l.action_id}]` : l.label;
  const record = l.record_id != null ? ` · record #${l.record_id}` : '';
  const messages = l.messages.map((m) => m.message).filter(Boolean).join('; ');
  return `  ${l.logged_at} ${what}: ${l.status}${record}${messages ? ` — ${messages}` : ''}`;
}
