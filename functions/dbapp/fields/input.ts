import * as engine from '../../../shared/fields/engine';
import type { TapeAppField, TapeAppWithFields } from '../wire';
import { TAPE_FIELDS, type TapeExtras } from './table';

/**
 * Record `fields` input (docs/spec.md#dbapp-record input table) → Tape's field-value input (docs/vendors/tape.md#fields-and-values).
 *
 * `planFields` checks an agent's `fields` object against the app schema without any network call —
 * the shared engine walking Tape's table (./table.ts, one entry per field type in ./types/): keys
 * (field_id or external_id), the shape of every value per field type, read-only fields, required
 * fields on create. Every problem is INVALID_PARAMETER naming `fields.<key>` (or deeper,
 * `fields.tasks.2.title`) with the expected shape and an example. What passes becomes a plan:
 * Tape's body keyed by field_id, plus the work that needs the network before the write (https URLs
 * in attachment fields to upload; checklist items with `id` to complete from the record's current
 * entries), done by `finishFields` in ./finish.ts. `null` (or `[]`) clears a field on update; on
 * create it is left out. The decisions where Tape and the spec differ are told in the type files.
 */

export type { WriteMode } from '../../../shared/fields/engine';
export type { TapeChecklistEntry } from './table';
export { fieldError } from '../../../shared/fields/engine';
export { currencyMatches } from './types/number';
export { isDateTime } from './types/date';
export { currentChecklist, mergeChecklists } from './types/checklist';

export type { FieldPlan } from './entry';
import type { FieldPlan } from './entry';

/** `name (9001), company (9002), …`: the keys a `fields` object may use. */
export const fieldKeyList = (fields: readonly TapeAppField[]): string => engine.fieldKeyList(TAPE_FIELDS, fields);

/** The field a key names: a numeric field_id, else an external_id. */
export const findField = (app: TapeAppWithFields, key: string | number): TapeAppField | undefined => engine.findField(TAPE_FIELDS, app.fields, key);

/** The field a key names, or INVALID_PARAMETER at `path` listing the valid keys. */
export const requireField = (app: TapeAppWithFields, key: string | number, path: string, fields: readonly TapeAppField[] = app.fields): TapeAppField =>
  engine.requireField(TAPE_FIELDS, app, key, path, fields);

/** Checks `fields` against the app and plans Tape's body. `path` is where `fields` sits (`fields`, `inputs.3.fields`). */
export const planFields = (app: TapeAppWithFields, fields: Record<string, unknown>, mode: engine.WriteMode, path = 'fields'): FieldPlan =>
  engine.planFields(TAPE_FIELDS, app, fields, mode, path);

/** Expected input shape of a field, with an example: the text of every error. */
export const expectedShape = (field: TapeAppField): string => engine.expectedOf(TAPE_FIELDS, field);
