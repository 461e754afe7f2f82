import type { FieldInfo, FieldTable } from '../../../shared/fields/engine';
import type { CollabEntry, CollabExtras, CollabFilter } from './entry';
import type { PodioAppField, PodioFieldValue } from '../wire';
import { CATEGORY_TYPES } from './types/category';
import { CONTACT_INFO_TYPES } from './types/contact-info';
import { DATE_TYPES } from './types/date';
import { MEDIA_TYPES } from './types/media';
import { NUMBER_TYPES } from './types/number';
import { REFERENCE_TYPES } from './types/reference';
import { TEXT_TYPES, anyText } from './types/text';

export type { CollabEntry, CollabExtras, CollabFilter, ContactRef, FilterContext, ItemFieldPlan } from './entry';

/**
 * Podio's field types as one table (docs/spec.md#collab-item, docs/vendors/podio.md#field-types, #items): one entry per field `type`, grouped
 * by family in ./types/, walked by the shared engine (shared/fields/engine.ts) — the same engine
 * as Tape's table: collab is a second table, not a second engine.
 */

const info = (f: PodioAppField): FieldInfo => ({ field_id: f.field_id, external_id: f.external_id, label: f.label ?? f.config.label, type: f.type, required: f.config.required === true });

const FALLBACK: CollabEntry = {
  expected: (f) => `a value of a ${f.type} field`,
  // A type this table does not know (e.g. legacy question/member fields): Podio validates it.
  input: (value) => value,
  output: (values) => values.map((v) => ('value' in v ? v.value : v)),
  text: anyText,
};

export const COLLAB_FIELDS: FieldTable<PodioAppField, PodioFieldValue, CollabExtras, CollabFilter> = {
  vendor: 'Podio',
  info,
  types: { ...TEXT_TYPES, ...NUMBER_TYPES, ...DATE_TYPES, ...CATEGORY_TYPES, ...REFERENCE_TYPES, ...CONTACT_INFO_TYPES, ...MEDIA_TYPES },
  fallback: FALLBACK,
  // docs/vendors/podio.md#field-types: an empty array clears a field.
  cleared: [],
  newPlan: () => ({ contacts: [], embeds: [], uploads: [] }),
};
