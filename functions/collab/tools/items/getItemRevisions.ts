import * as z from 'zod';
import { eachBounded } from '../../../../shared/core/pool';
import { plural, shortDate } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { itemIdInput } from '../../params';
import { fieldText, itemFieldValues } from '../../fields';
import { person, type Person } from '../../render';
import { onItem } from '../../items/read';
import type { PodioFieldValue, PodioRevisionDiff } from '../../wire';

/** Diffs are one call each: at most this many per call of the tool, a few at a time. */
const DIFFS = { default: 10, max: 50 };
const IN_FLIGHT = 4;

interface Change {
  field_id: number;
  external_id: string;
  label: string;
  type: string;
  /** The value before and after, in the item's value shapes (getItem); null = empty. */
  before: unknown;
  after: unknown;
}

interface Revision {
  revision: number;
  /** "creation" or "update". */
  type: string;
  /** Null when Podio gives none. */
  created_on: string | null;
  created_by: Person;
  /** What the revision changed against the one before (null for the creation). */
  changes: Change[] | null;
}

interface Revisions {
  item_id: number;
  /** Revisions of the item in all. */
  total: number;
  /** Newest first. */
  revisions: Revision[];
}

/** One side of a field's diff → its value as getItem shows it, or null when empty. */
const sideValue = (d: PodioRevisionDiff, values: PodioFieldValue[]): unknown =>
  itemFieldValues([{ field_id: d.field_id, type: d.type, external_id: d.external_id ?? String(d.field_id), label: d.label, values }])[0]?.value ?? null;

const toChange = (d: PodioRevisionDiff): Change => ({
  field_id: d.field_id,
  external_id: d.external_id ?? String(d.field_id),
  label: d.label,
  type: d.type,
  before: sideValue(d, d.from ?? []),
  after: sideValue(d, d.to ?? []),
});

const sideText = (c: Change, v: unknown) => (v === null ? '(empty)' : fieldText({ type: c.type, value: v }, { list: true }));

export const getItemRevisions = collabTool({
  name: 'getItemRevisions',
  description:
    'The change history of an item, newest first: each revision with its number, type (creation, update), date, who made it, and what it changed ' +
    '[{field_id, external_id, label, type, before, after}] with before/after in the same value shapes as getItem (null = empty). Revision 0 is the creation. ' +
    `Each revision's changes cost one Podio call, so limit (default ${DIFFS.default}, max ${DIFFS.max}) bounds how many of the newest revisions are read. ` +
    'To undo a change, pass the "before" values to updateItem. Read-only.',
  input: z.strictObject({
    item_id: itemIdInput,
    limit: z
      .number()
      .int()
      .min(1)
      .max(DIFFS.max)
      .default(DIFFS.default)
      .describe(`The newest revisions to return with their changes, 1-${DIFFS.max} (default ${DIFFS.default}); each costs one Podio call.`),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ item_id, limit }, { client }): Promise<Revisions> {
    const list = [...(await onItem(item_id, () => client.listItemRevisions(item_id)))].sort((a, b) => b.revision - a.revision);
    const shown = list.slice(0, limit);
    const revisions = await eachBounded(shown, IN_FLIGHT, async (r, i): Promise<Revision> => {
      // The revision before this one in Podio's list (numbers need not be consecutive).
      const previous = list[i + 1];
      const base = { revision: r.revision, type: r.type ?? (previous ? 'update' : 'creation'), created_on: r.created_on ?? null, created_by: person(r.created_by), changes: null };
      if (!previous) return base;
      const diff = await onItem(item_id, () => client.getItemRevisionDiff(item_id, previous.revision, r.revision));
      return { ...base, changes: diff.map(toChange) };
    });
    return { item_id, total: list.length, revisions };
  },
  text: (r: Revisions) => {
    const lines = r.revisions.map((x) => {
      const head = `rev ${x.revision} ${x.type}${x.created_on ? ` ${shortDate(x.created_on)}` : ''} by ${x.created_by.name}`;
      if (!x.changes) return head;
      if (!x.changes.length) return `${head}: no field values changed (tags, files or external_id)`;
      return `${head}: ${x.changes.map((c) => `${c.label}: ${sideText(c, c.before)} → ${sideText(c, c.after)}`).join(' · ')}`;
    });
    const foot =
      r.revisions.length < r.total
        ? `showing the newest ${r.revisions.length} of ${plural(r.total, 'revision')} of item #${r.item_id} — pass a larger limit (up to ${DIFFS.max}; each revision is one Podio call) for older ones`
        : r.total
          ? `${plural(r.total, 'revision')} of item #${r.item_id}, newest first`
          : `no revisions of item #${r.item_id}`;
    return [...lines, foot].join('\n');
  },
  example: {
    input: { item_id: 30065, limit: 2 },
    result: {
      item_id: 30065,
      total: 2,
      revisions: [
        {
          revision: 1,
          type: 'update',
          created_on: '2025-01-10 15:00:00',
          created_by: { user_id: 1003, name: 'Chloé Martin' },
          changes: [{ field_id: 9204, external_id: 'stage', label: 'Stage', type: 'category', before: [{ id: 403, text: 'Proposal' }], after: [{ id: 404, text: 'Won' }] }],
        },
        { revision: 0, type: 'creation', created_on: '2025-01-08 15:00:00', created_by: { user_id: 1003, name: 'Chloé Martin' }, changes: null },
      ],
    },
  },
});
