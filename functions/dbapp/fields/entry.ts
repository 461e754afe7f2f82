import type { FieldEntry, FieldPlan as EnginePlan } from '../../../shared/fields/engine';
import type { TapeAppField, TapeFieldValue } from '../wire';

/** The shapes of Tape's field table (./table.ts), apart so the type families in ./types/ need not import the table they fill. */

/** A checklist item as sent to Tape; `id` marks an existing entry. */
export interface TapeChecklistEntry {
  id?: number;
  title?: string;
  description?: string;
  due_at?: string | null;
  assignee?: number | null;
  completed?: boolean;
}

/** The network work of a Tape write, finished by finishFields (./finish.ts). */
export interface TapeExtras {
  /** Attachment/image fields whose values hold https URLs to upload. */
  uploads: { fieldId: number; values: (string | number)[]; path: string; single: boolean }[];
  /** Checklist fields (update) holding items with an `id` to complete from the current entries. */
  checklists: { fieldId: number; entries: TapeChecklistEntry[]; paths: string[] }[];
}

/** How the operands of a filter on a type are checked (records/filter-body.ts). */
export type TapeOperand = 'options' | 'record_ids' | 'user_ids' | 'number' | 'calculation' | 'checklist' | 'date' | 'text' | 'file_name';

/** A filterable type: docs/vendors/tape.md#record-filters's `type` discriminator, the match types it accepts, its operands. */
export interface TapeFilter {
  type: string;
  match_types: readonly string[];
  operand: TapeOperand;
  /** Filters take `include_active_user` ("@me"). */
  user?: boolean;
}

export type TapeEntry = FieldEntry<TapeAppField, TapeFieldValue, TapeExtras, TapeFilter>;

/** A planned record write: Tape's `fields` body plus the network work finishFields does. */
export type FieldPlan = EnginePlan<TapeExtras>;
