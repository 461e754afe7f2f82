import type { TapeAppWithFields, TapeFieldValue, TapeRecord, TapeRecordField } from '../client';
import { fieldError, fieldKeyList, findField } from './input';

/**
 * Tape's wire record (record.md, field-value/*.md) → the spec §2.3 record. Field `type` is Tape's
 * `field_type` (single_text, multi_category, single_date, …): the name getApp shows and filters use.
 * Value shapes (spec §2.3 where it shows them, the same style where it does not):
 *   text, multi_text                     string (multi_text keeps Tape's HTML)
 *   number, calculation, unique_id       number (calculation: number or string)
 *   single/multi_category, status        [{id, text}]
 *   single_date, range_date, created_on, last_modified_on   {start, end | null}  ("YYYY-MM-DD HH:MM:SS")
 *   single/multi_relation                [{record_id, app_id, title}]
 *   single/multi_user, created_by, last_modified_by          [{user_id, name}]
 *   multi_email, multi_phone             [{type, value}]
 *   multi_link                           [{url, title?}]
 *   single_location                      address string
 *   single/multi_attachment, multi_image [{file_id, name, size}]
 *   checklist                            [{id, title, completed, assignee {user_id, name} | null, description | null, due | null}]
 *                                        (id added: items keep their id on update)
 */

export interface RecordFieldValue {
  field_id: number;
  external_id: string;
  label: string;
  type: string;
  value: unknown;
}

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

export interface DateValue { start: string; end: string | null }
export interface UserValue { user_id: number; name: string }
export interface ChecklistItem { id: number; title: string; completed: boolean; assignee: UserValue | null; description: string | null; due: string | null }

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const inner = (v: TapeFieldValue): Raw => (isObject(v.value) ? v.value : {});
const user = (u: unknown): UserValue | null => (isObject(u) && typeof u.user_id === 'number' ? { user_id: u.user_id, name: typeof u.name === 'string' ? u.name : '' } : null);

/** One field's `values` → the spec's value for its type; undefined when it holds nothing. */
export function fieldValue(fieldType: string, values: readonly TapeFieldValue[]): unknown {
  if (!values.length) return undefined;
  const v0 = values[0]!;
  switch (fieldType) {
    case 'single_text':
    case 'multi_text':
      return typeof v0.value === 'string' ? v0.value : String(v0.value ?? '');
    case 'number':
    case 'calculation':
    case 'unique_id':
      return v0.value;
    case 'single_category':
    case 'multi_category':
    case 'status':
      return values.map((v) => ({ id: inner(v).id as number, text: String(inner(v).text ?? '') }));
    case 'single_date':
    case 'range_date':
    case 'created_on':
    case 'last_modified_on':
    case 'created_at':
    case 'last_modified_at': {
      const d = isObject(v0.value) ? v0.value : v0;
      return { start: String(d.start ?? ''), end: typeof d.end === 'string' ? d.end : null } satisfies DateValue;
    }
    case 'single_relation':
    case 'multi_relation':
      return values.map((v) => ({ record_id: inner(v).record_id as number, app_id: inner(v).app_id as number, title: String(inner(v).title ?? '') }));
    case 'single_user':
    case 'multi_user':
    case 'created_by':
    case 'last_modified_by':
      return values.map((v) => user(v.value)).filter((u): u is UserValue => u !== null);
    case 'multi_email':
    case 'multi_phone':
      return values.map((v) => ({ type: String(v.type ?? 'work'), value: String(v.value ?? '') }));
    case 'multi_link':
      return values.map((v) => (typeof v.title === 'string' && v.title ? { url: String(v.url ?? ''), title: v.title } : { url: String(v.url ?? '') }));
    case 'single_location':
      return String(v0.value ?? v0.original_formatted_address ?? '');
    case 'single_attachment':
    case 'multi_attachment':
    case 'multi_image':
      return values.map((v) => ({ file_id: inner(v).id as number, name: String(inner(v).filename ?? ''), size: Number(inner(v).size ?? 0) }));
    case 'checklist':
      return values.map((v): ChecklistItem => ({
        id: v.id as number,
        title: String(v.title ?? ''),
        completed: v.completed === true,
        assignee: user(v.assignee),
        description: typeof v.description === 'string' && v.description !== '' ? v.description : null,
        due: typeof v.due_at === 'string' && v.due_at !== '' ? v.due_at : null,
      }));
    default:
      // A type this service does not know: the bare values, or the entries as Tape gives them.
      return values.every((v) => 'value' in v) ? values.map((v) => v.value) : values;
  }
}

const keep = (f: TapeRecordField, sel: FieldSelection) => {
  if (sel.ids && !sel.ids.has(f.field_id)) return false;
  if (sel.types === 'basic') return f.field_type !== 'calculation';
  if (sel.types === 'calculation') return f.field_type === 'calculation';
  return true;
};

/** `https://tapeapp.com/<org slug>/record/<record_id>` from the organization's url (organization.md). */
export const recordUrl = (orgUrl: string, recordId: number) => `${orgUrl.replace(/\/+$/, '')}/record/${recordId}`;

/** Tape's record → the spec §2.3 record; `appId` where Tape's answer carries no `app` (e.g. batch answers). */
export function toRecord(r: TapeRecord, orgUrl: string, opts: { appId?: number; select?: FieldSelection } = {}): AppRecord {
  const sel = opts.select ?? {};
  const fields: RecordFieldValue[] = [];
  for (const f of r.fields ?? []) {
    if (!keep(f, sel)) continue;
    const value = fieldValue(f.field_type, f.values ?? []);
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    fields.push({ field_id: f.field_id, external_id: f.external_id, label: f.label, type: f.field_type, value });
  }
  const by = user(r.created_by);
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
export function resolveFieldIds(app: TapeAppWithFields, keys: readonly (number | string)[], path = 'field_ids'): Set<number> {
  return new Set(
    keys.map((k, i) => {
      const f = findField(app, k);
      if (!f) {
        throw fieldError(`${path}.${i}`, `a field_id or external_id of app ${app.app_id}`, `${JSON.stringify(k)} is not a field of app ${app.app_id} "${app.name}". Valid keys (external_id (field_id)): ${fieldKeyList(app.fields)}.`);
      }
      return f.field_id;
    }),
  );
}
