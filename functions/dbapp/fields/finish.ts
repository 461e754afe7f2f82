import type { ToolContext } from '../../../shared/core/tool';
import { resolveAttachments } from '../files/attachments';
import type { TapeClient } from '../client';
import type { TapeRecord } from '../wire';
import { mergeChecklists, type FieldPlan } from './input';

type Ctx = Pick<ToolContext<TapeClient>, 'client' | 'config' | 'deadline'>;

/** True when finishing the plan needs the record's current values (checklist items given by id). */
export const needsCurrent = (plan: FieldPlan): boolean => plan.checklists.length > 0;

/**
 * The network part of a planned write, still before the write itself: https URLs of attachment
 * fields are downloaded (SSRF-guarded) and uploaded, their temporary file ids put in place; checklist
 * items with an id are completed from `current` (the record as it is now). Returns Tape's body.
 */
export async function finishFields(plan: FieldPlan, ctx: Ctx, current?: TapeRecord): Promise<Record<string, unknown>> {
  if (plan.checklists.length) {
    if (!current) throw new Error('finishFields: checklist items with ids need the current record');
    mergeChecklists(plan, current);
  }
  for (const u of plan.uploads) {
    const resolved = await resolveAttachments(u.values, ctx, u.path);
    plan.body[u.fieldId] = u.single ? resolved[0] : resolved;
  }
  return plan.body;
}
