import type { FieldInfo, FieldTable } from '../../../shared/fields/engine';
import type { TapeEntry, TapeExtras, TapeFilter } from './entry';
import type { TapeAppField, TapeFieldValue } from '../wire';
import { CATEGORY_TYPES } from './types/category';
import { CHECKLIST_TYPES } from './types/checklist';
import { CONTACT_INFO_TYPES } from './types/contact-info';
import { DATE_TYPES } from './types/date';
import { FILE_TYPES } from './types/file';
import { NUMBER_TYPES } from './types/number';
import { REFERENCE_TYPES } from './types/reference';
import { TEXT_TYPES, anyText } from './types/text';

export type { TapeChecklistEntry, TapeEntry, TapeExtras, TapeFilter, TapeOperand } from './entry';

/**
 * Tape's field types as one table (docs/spec.md#dbapp-record, docs/vendors/tape.md#fields-and-values, #record-filters): one entry per
 * `field_type`, grouped by family in ./types/, walked by the shared engine (shared/fields/engine.ts).
 */

const info = (f: TapeAppField): FieldInfo => ({ field_id: f.field_id, external_id: f.external_id, label: f.label, type: f.field_type, required: f.config.required === true });

const FALLBACK: TapeEntry = {
  expected: (f) => `a value of a ${f.field_type} field`,
  // A field type this service does not know yet: Tape validates it.
  input: (value) => value,
  // The bare values, or the entries as Tape gives them.
  output: (values) => (values.every((v) => 'value' in v) ? values.map((v) => v.value) : values),
  text: anyText,
};

export const TAPE_FIELDS: FieldTable<TapeAppField, TapeFieldValue, TapeExtras, TapeFilter> = {
  vendor: 'Tape',
  info,
  types: { ...TEXT_TYPES, ...NUMBER_TYPES, ...CATEGORY_TYPES, ...DATE_TYPES, ...REFERENCE_TYPES, ...FILE_TYPES, ...CONTACT_INFO_TYPES, ...CHECKLIST_TYPES },
  fallback: FALLBACK,
  cleared: null,
  newPlan: () => ({ uploads: [], checklists: [] }),
};

/** The filter entry of a field type, if it can be filtered. */
export const tapeFilterOf = (fieldType: string): TapeFilter | undefined => TAPE_FIELDS.types[fieldType]?.filter;

/** Whether filters and split-by on a field compare dates: date types, and calculations returning dates. */
export function isDateField(field: TapeAppField): boolean {
  if (field.field_type === 'calculation') return field.config.settings?.return_type === 'date';
  return tapeFilterOf(field.field_type)?.operand === 'date';
}
