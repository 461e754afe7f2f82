import type { FieldEntry, FieldInfo, FieldPlan, FieldTable } from '../../../shared/fields/engine';
import type { PodioAppField, PodioFieldValue } from '../wire';
import { CATEGORY_TYPES } from './types/category';
import { CONTACT_INFO_TYPES } from './types/contact-info';
import { DATE_TYPES } from './types/date';
import { MEDIA_TYPES } from './types/media';
import { NUMBER_TYPES } from './types/number';
import { REFERENCE_TYPES } from './types/reference';
import { TEXT_TYPES, anyText } from './types/text';

/**
 * Podio's field types as one table (spec §2.2, podio.md §2–3): one entry per field `type`, grouped
 * by family in ./types/, walked by the shared engine (shared/fields/engine.ts) — the same engine
 * as Tape's table: collab is a second table, not a second engine.
 */

/** A contact value still to resolve against the org's members: a profile id to check, or a user/email to look up. */
export type ContactRef = number | { user_id: number } | { email: string };

/** The network work of a Podio write, done by finishItemFields (./finish.ts) before the write. */
export interface CollabExtras {
  /** Contact fields: every value is checked or resolved against the org members (user ids are not profile ids). */
  contacts: { fieldId: number; refs: { ref: ContactRef; path: string }[] }[];
  /** Embed fields: URLs turned into embed ids (POST /embed/). */
  embeds: { fieldId: number; urls: { url: string; path: string }[] }[];
  /** Image fields: file ids kept, https URLs downloaded and uploaded (POST /file/). */
  uploads: { fieldId: number; sources: { source: number | string; path: string }[] }[];
}

/** What a filter on a field gets besides the value. */
export interface FilterContext {
  field: PodioAppField;
  path: string;
  expected: string;
  fail(problem: string, at?: string): never;
}

/** A filterable type: the filter input with an example, and its check → Podio's filter value. */
export interface CollabFilter {
  expected(field: PodioAppField): string;
  input(value: unknown, cx: FilterContext): unknown;
}

/** A planned item write: Podio's `fields` body plus the network work finishItemFields does. */
export type ItemFieldPlan = FieldPlan<CollabExtras>;

export type CollabEntry = FieldEntry<PodioAppField, PodioFieldValue, CollabExtras, CollabFilter>;

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
  // podio.md §2: an empty array clears a field.
  cleared: [],
  newPlan: () => ({ contacts: [], embeds: [], uploads: [] }),
};
