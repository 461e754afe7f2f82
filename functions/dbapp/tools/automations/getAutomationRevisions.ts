import * as z from 'zod';
import { automationId } from '../../automations/inputs';
import { revisionLine, toRevisionSnapshot, toRevisionSummary, type RevisionSnapshot, type RevisionSummary } from '../../automations/revisions';
import { dbappTool } from '../../tool';

type Result = { revisions: RevisionSummary[]; count: number } | RevisionSnapshot;

export const getAutomationRevisions = dbappTool({
  name: 'getAutomationRevisions',
  description:
    'Version history of an automation: every update keeps a snapshot. Without revision_id, the list newest first (summaries) with count; with ' +
    'revision_id, that snapshot\'s trigger, filter and actions. Roll back by passing a snapshot\'s trigger, filter and actions to updateAutomation ' +
    '(a webhook_received trigger keeps its webhook_url; the description is not in snapshots and stays as it is).',
  input: z.strictObject({
    automation_id: automationId,
    revision_id: z
      .string()
      .regex(/^\d{1,20}$/)
      .optional()
      .describe('A revision id exactly as listed (a 64-bit number carried as a string, e.g. "90071992547409929"); do not convert it to a number.'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ automation_id, revision_id }, { client }): Promise<Result> {
    if (revision_id !== undefined) return toRevisionSnapshot((await client.getAutomationRevision(automation_id, revision_id)).revision);
    const r = await client.listAutomationRevisions(automation_id);
    return { revisions: r.revisions.map(toRevisionSummary), count: r.revisions.length };
  },
  text: (r, input) => {
    if ('revisions' in r) {
      return [...r.revisions.map(revisionLine), `${r.count} revision(s) of #${input.automation_id}, newest first — pass revision_id for a snapshot`].join('\n');
    }
    return [
      `rev ${r.id} of #${r.automation_id} · ${r.created_at} · ${r.name} · ${r.paused ? 'paused' : 'live'}${r.broken ? ' · BROKEN' : ''}`,
      `trigger: ${JSON.stringify(r.trigger)}`,
      ...(r.filter ? [`filter: ${JSON.stringify(r.filter)}`] : []),
      `actions: ${JSON.stringify(r.actions)}`,
      'roll back: updateAutomation with this trigger, filter and actions',
    ].join('\n');
  },
  example: {
    input: { automation_id: 4021 },
    result: {
      revisions: [
        {
          id: '90071992547409929', automation_id: 4021, created_at: '2024-05-20 16:03:08', name: 'Email the owner on a new high-priority lead',
          paused: false, broken: false, trigger_type: 'record_created', has_filter: false, action_types: [], action_count: 0,
        },
      ],
      count: 1,
    },
  },
});
