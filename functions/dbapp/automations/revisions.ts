/** Automation revisions: summaries, snapshots and their lines. */
import { ToolError } from '../../../shared/core/errors';
import type { TapeAutomationAction, TapeAutomationRevision, TapeAutomationTrigger, TapeFilterGroup } from '../wire';
import { actionFacts, type AutomationSummary } from './summary';

// --- revisions ---
export interface RevisionSummary
  extends Pick<AutomationSummary, 'name' | 'paused' | 'broken' | 'trigger_type' | 'has_filter' | 'action_types' | 'action_count'> {
  id: string;
  automation_id: number;
  created_at: string;
}
export interface RevisionSnapshot extends Omit<RevisionSummary, 'trigger_type' | 'has_filter' | 'action_types' | 'action_count'> {
  trigger: TapeAutomationTrigger | null;
  filter: TapeFilterGroup | null;
  actions: TapeAutomationAction[];
}

/** A revision id is a 64-bit value: kept as the string Tape sent, never through a JS number. */
function revisionId(r: TapeAutomationRevision): string {
  if (typeof r.id === 'string') return r.id;
  throw new ToolError('INTERNAL_ERROR', 'Tape sent a revision id that is not a string; a 64-bit id cannot be carried safely as a number.', { revision_id: String(r.id) });
}

export function toRevisionSummary(r: TapeAutomationRevision): RevisionSummary {
  const { action_types, action_count } = actionFacts(r.actions);
  return {
    id: revisionId(r), automation_id: r.automation_id, created_at: r.created_at, name: r.name, paused: r.paused, broken: r.broken,
    trigger_type: r.trigger?.type ?? null, has_filter: r.filter != null, action_types, action_count,
  };
}

export function toRevisionSnapshot(r: TapeAutomationRevision): RevisionSnapshot {
  return {
    id: revisionId(r), automation_id: r.automation_id, created_at: r.created_at, name: r.name, paused: r.paused, broken: r.broken,
    trigger: r.trigger ?? null, filter: r.filter ?? null, actions: r.actions ?? [],
  };
}

export function revisionLine(r: RevisionSummary): string {
  const actions = r.action_types.length ? r.action_types.join(', ') : 'no actions';
  return [`rev ${r.id}`, r.created_at, r.name, `${r.trigger_type ?? 'manual only'} → ${actions}`, ...(r.has_filter ? ['filtered'] : []), r.paused ? 'paused' : 'live', ...(r.broken ? ['BROKEN'] : [])].join(' · ');
}
