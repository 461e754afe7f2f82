import * as z from 'zod';
import { dbappTool } from '../../tool';
import { fieldValue, shortDate, valueText, type UserValue } from '../../fields';
import { plural } from '../../../../shared/core/render';
import { recordId } from '../../records/inputs';

interface RevisionSummary {
  revision: number;
  type: string;
  created_on: string;
  created_by: UserValue;
}

interface RevisionList {
  record_id: number;
  total: number;
  /** Newest first. */
  revisions: RevisionSummary[];
}

interface FieldChange {
  field_id: number;
  external_id: string;
  label: string;
  type: string;
  /** The value before and after, in the record's value shapes; null = empty. */
  from: unknown;
  to: unknown;
}

interface RevisionChanges {
  record_id: number;
  from_revision: number;
  to_revision: number;
  changes: FieldChange[];
}

type Result = RevisionList | RevisionChanges;

export const getRecordRevisions = dbappTool({
  name: 'getRecordRevisions',
  description:
    'The change history of a record. Without revision: every revision {revision, type (creation, update, delete, restore), created_on, ' +
    'created_by}, newest first (revision 0 is the creation). With revision N (>= 1): what it changed against revision N-1, per field ' +
    '{field_id, external_id, label, type, from, to} in the record\'s value shapes (null = empty). To undo a change, pass the "from" values ' +
    'to updateRecord. include_deleted reads the history of a record in the trash. Read-only.',
  input: z.strictObject({
    record_id: recordId,
    revision: z.number().int().min(1).optional().describe('A revision number (>= 1, from the list): return what it changed against the one before.'),
    include_deleted: z.boolean().default(false).describe('Also for a record in the trash (default false).'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ record_id, revision, include_deleted }, { client }): Promise<Result> {
    if (revision !== undefined) {
      const d = await client.getRecordRevisionDelta(record_id, revision);
      return {
        record_id: d.record_id,
        from_revision: d.from_revision_id,
        to_revision: d.to_revision_id,
        changes: d.revision_deltas.map((x) => ({
          field_id: x.field_id,
          external_id: x.external_id,
          label: x.label,
          type: x.field_type,
          from: fieldValue(x.field_type, x.from) ?? null,
          to: fieldValue(x.field_type, x.to) ?? null,
        })),
      };
    }
    const list = await client.listRecordRevisions(record_id, include_deleted ? { include_deleted } : {});
    const revisions = list.revisions
      .map((r) => ({ revision: r.revision, type: r.type, created_on: r.created_on, created_by: { user_id: r.created_by.user_id, name: r.created_by.name } }))
      .sort((a, b) => b.revision - a.revision);
    return { record_id, total: list.total, revisions };
  },
  text: (r: Result) => {
    if ('changes' in r) {
      const show = (type: string, v: unknown) => (v === null ? '(empty)' : valueText({ type, value: v }, { list: true }));
      const lines = r.changes.map((c) => `${c.label}: ${show(c.type, c.from)} → ${show(c.type, c.to)}`);
      return [`record #${r.record_id} revision ${r.to_revision} (against ${r.from_revision}): ${r.changes.length ? plural(r.changes.length, 'field') + ' changed' : 'no field values changed'}`, ...lines].join('\n');
    }
    const lines = r.revisions.map((x) => `rev ${x.revision} ${x.type} ${shortDate(x.created_on)} by ${x.created_by.name}`);
    return [...lines, `${plural(r.total, 'revision')} of record #${r.record_id} — pass revision N to see what it changed`].join('\n');
  },
  example: {
    input: { record_id: 5300, revision: 1 },
    result: {
      record_id: 5300,
      from_revision: 0,
      to_revision: 1,
      changes: [
        { field_id: 9018, external_id: 'stage', label: 'Stage', type: 'status', from: [{ id: 2, text: 'Proposal' }], to: [{ id: 3, text: 'Negotiation' }] },
        { field_id: 9025, external_id: 'notes', label: 'Notes', type: 'multi_text', from: null, to: '<p>Wants a 12-month term.</p>' },
      ],
    },
  },
});
