import * as engine from '../../../shared/fields/engine';
import type { TapeAppWithFields, TapeFieldValue, TapeRecord, TapeRecordField } from '../wire';
import { TAPE_FIELDS } from './table';
import { toUser } from './types/reference';
import { formatNumber, type NumberFormats } from '../apps/schema';

/**
 * Tape's wire record (docs/vendors/tape.md#records, #fields-and-values) → the docs/spec.md#dbapp-record record. Field `type` is Tape's
 * `field_type` (single_text, multi_category, single_date, …): the name getApp shows and filters use.
 * Each type's value shape is its `output` in Tape's table (./types/): text string, number number,
 * categories [{id, text}], dates {start, end | null}, relations [{record_id, app_id, title}], users
 * [{user_id, name}], email/phone [{type, value}], links [{url, title?}], location an address string,
 * files [{file_id, name, size, download_url}], checklist items [{id, title, completed, assignee, description, due}].
 */

/** A field's value; a number field with a unit also carries the unit and the value as Tape shows it (`12,000.00 €`). */
export type RecordFieldValue = engine.FieldValue & { unit?: string; display?: string };

export interface AppRecord {
  record_id: number;
  app_record_id?: number;
  app_id: number;
  title: string;
  record_url: string;
  created_by?: { user_id: number; name: string };
  created_on: string;
  fields: RecordFieldValue[];
}

export type FieldTypes = 'all' | 'basic' | 'calculation';

/** Which fields a read returns: by id (resolved from field_ids) and by kind (field_types). */
export interface FieldSelection {
  ids?: ReadonlySet<number>;
  types?: FieldTypes;
}

export type { DateValue } from './types/date';
export type { UserValue } from './types/common';
export type { ChecklistItem } from './types/checklist';

/** One field's `values` → the spec's value for its type; undefined when it holds nothing. */
export const fieldValue = (fieldType: string, values: readonly TapeFieldValue[]): unknown => engine.fieldValue(TAPE_FIELDS, fieldType, values);

const keep = (sel: FieldSelection) => (f: engine.WireField<TapeFieldValue>) => {
  if (sel.ids && !sel.ids.has(f.field_id)) return false;
  if (sel.types === 'basic') return f.type !== 'calculation';
  if (sel.types === 'calculation') return f.type === 'calculation';
  return true;
};

/** Tape's wire field as the engine reads it: its type is the `field_type`. */
const wire = (f: TapeRecordField): engine.WireField<TapeFieldValue> => ({ field_id: f.field_id, external_id: f.external_id, label: f.label, type: f.field_type, values: f.values ?? [] });

/** `https://tapeapp.com/<org slug>/record/<record_id>` from the organization's url (docs/vendors/tape.md#organization). */
export const recordUrl = (orgUrl: string, recordId: number) => `${orgUrl.replace(/\/+$/, '')}/record/${recordId}`;

/** Tape's record → the docs/spec.md#dbapp-record record; `appId` where Tape's answer carries no `app` (e.g. batch answers). */
export function toRecord(r: TapeRecord, orgUrl: string, opts: { appId?: number; select?: FieldSelection; formats?: NumberFormats } = {}): AppRecord {
  const fields: RecordFieldValue[] = engine.fieldValues(TAPE_FIELDS, (r.fields ?? []).map(wire), keep(opts.select ?? {})).map((f) => {
    const format = f.type === 'number' && typeof f.value === 'number' ? opts.formats?.get(f.field_id) : undefined;
    return format ? { ...f, unit: format.unit, display: formatNumber(f.value as number, format) } : f;
  });
  const by = toUser(r.created_by);
  return {
    record_id: r.record_id,
    ...(typeof r.app_record_id === 'number' ? { app_record_id: r.app_record_id } : {}),
    app_id: r.app?.app_id ?? opts.appId ?? 0,
    title: r.title,
    record_url: recordUrl(orgUrl, r.record_id),
    ...(by ? { created_by: by } : {}),
    created_on: r.created_on,
    fields,
  };
}

/**
 * `field_ids` (field ids or external ids) → the field ids of the app; an unknown key is
 * INVALID_PARAMETER at `field_ids.<i>` listing the valid keys.
 */
export const resolveFieldIds = (app: TapeAppWithFields, keys: readonly (number | string)[], path = 'field_ids'): Set<number> => engine.resolveFieldIds(TAPE_FIELDS, app, keys, path);
