/** Automations as the tools return them (docs/spec.md#dbapp-automation), their text, and the unreadable (pre-migration) ones. */
import { ToolError } from '../../../shared/core/errors';
import type { TapeAutomation, TapeAutomationAction, TapeAutomationTrigger, TapeFilterGroup } from '../wire';
import { NESTED_ACTION_KEYS } from './definition';

// --- result shapes (docs/spec.md#dbapp-automation) ---
export interface AutomationSummary {
  id: number;
  name: string;
  app_id: number;
  workspace_id: number;
  paused: boolean;
  broken: boolean;
  trigger_type: string | null;
  has_filter: boolean;
  action_types: string[];
  action_count: number;
  total_action_count: number;
  created_at: string;
  updated_at: string;
}

export interface AutomationFull extends AutomationSummary {
  description: string | null;
  trigger: TapeAutomationTrigger | null;
  filter: TapeFilterGroup | null;
  actions: TapeAutomationAction[];
}

/** Every action, nested ones included (action_rows / else_action_rows), depth first. */
function flatten(actions: readonly TapeAutomationAction[]): TapeAutomationAction[] {
  return actions.flatMap((a) => [
    a,
    ...NESTED_ACTION_KEYS.flatMap((k) => (Array.isArray(a.config?.[k]) ? flatten(a.config[k] as TapeAutomationAction[]) : [])),
  ]);
}

export function actionFacts(actions: readonly TapeAutomationAction[] | undefined) {
  const top = actions ?? [];
  const all = flatten(top);
  return { action_types: [...new Set(all.map((a) => a.type))], action_count: top.length, total_action_count: all.length };
}

export function toAutomationSummary(a: TapeAutomation): AutomationSummary {
  return {
    id: a.id,
    name: a.name,
    app_id: a.app_id,
    workspace_id: a.workspace_id,
    paused: a.paused,
    broken: a.broken,
    trigger_type: a.trigger?.type ?? null,
    has_filter: a.filter != null,
    ...actionFacts(a.actions),
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

export function toAutomationFull(a: TapeAutomation): AutomationFull {
  return { ...toAutomationSummary(a), description: a.description ?? null, trigger: a.trigger ?? null, filter: a.filter ?? null, actions: a.actions ?? [] };
}

export const toAutomation = (a: TapeAutomation, verbose: boolean): AutomationSummary | AutomationFull => (verbose ? toAutomationFull(a) : toAutomationSummary(a));

/** `#4021 Lead alert · record_created → send_email, for_loop (3 steps) · filtered · paused` (+ `· BROKEN`). */
export function automationLine(a: AutomationSummary): string {
  const steps = a.total_action_count > a.action_types.length ? ` (${a.total_action_count} steps)` : '';
  const actions = a.action_types.length ? `${a.action_types.join(', ')}${steps}` : 'no actions';
  const parts = [`#${a.id} ${a.name}`, `${a.trigger_type ?? 'manual only'} → ${actions}`];
  if (a.has_filter) parts.push('filtered');
  parts.push(a.paused ? 'paused' : 'live');
  if (a.broken) parts.push('BROKEN');
  return parts.join(' · ');
}

/** The summary line, then (verbose) the description and the definition as compact JSON. */
export function automationText(a: AutomationSummary | AutomationFull): string {
  const lines = [`${automationLine(a)} · app #${a.app_id} · updated ${a.updated_at}`];
  if ('actions' in a) {
    if (a.description) lines.push(`description: ${a.description}`);
    lines.push(`trigger: ${JSON.stringify(a.trigger)}`);
    if (a.filter) lines.push(`filter: ${JSON.stringify(a.filter)}`);
    lines.push(`actions: ${JSON.stringify(a.actions)}`);
  }
  return lines.join('\n');
}

// --- unreadable automations ---
/** Tape answers 500 for an automation it cannot serialize (a pre-migration definition). */
export function isUnreadable(err: unknown): boolean {
  return err instanceof ToolError && err.code === 'INTERNAL_ERROR' && err.details.upstream_status === 500;
}

export interface BrickedAutomation {
  error: string;
  error_code: 'automation_unserializable';
  automation_id: number;
  bricked: true;
  heal: { tool: 'updateAutomation'; body: { actions: [] } };
}

export function bricked(automationId: number): BrickedAutomation {
  return {
    error: `Automation ${automationId} cannot be read: its stored definition predates the current format. Replacing its actions makes it readable again.`,
    error_code: 'automation_unserializable',
    automation_id: automationId,
    bricked: true,
    heal: { tool: 'updateAutomation', body: { actions: [] } },
  };
}

export const brickedText = (b: BrickedAutomation) =>
  `#${b.automation_id} UNREADABLE (automation_unserializable): heal with updateAutomation {"automation_id": ${b.automation_id}, "actions": []}, then rebuild its actions`;
