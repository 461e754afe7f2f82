import * as engine from '../../../shared/fields/engine';
import type { PodioApp, PodioAppField, PodioItemField } from '../wire';
import { COLLAB_FIELDS, type ItemFieldPlan } from './table';

/**
 * Item field values on Podio's field table (table.ts, one entry per type in types/) and the shared
 * engine — what the item tools use:
 * - planItemFields / planItemFieldValue: `fields` (or one field_value) checked against the app and
 *   converted to Podio's body, with no network call; every problem is INVALID_PARAMETER naming
 *   `fields.<key>` with the expected shape and an example;
 * - finishItemFields (./finish.ts): the network part before the write (contacts, embeds, image URLs);
 * - itemFieldValues, fieldText, itemFieldPairs: a read's fields as docs/spec.md#collab-item values and short texts;
 * - planItemFilters: filterItems' filters keyed by field id or external id → Podio's filter body.
 */

export { COLLAB_FIELDS } from './table';
export type { CollabExtras, CollabFilter, ContactRef, ItemFieldPlan } from './table';
export { finishItemFields, needsFinish, profileIdOf, type FieldPort, type OrgMember } from './finish';
export type { PodioApp, PodioAppField, PodioFieldValue, PodioItemField } from '../wire';
export type { FieldValue, TextOptions, WriteMode } from '../../../shared/fields/engine';
export type { DateValue } from './types/date';
export type { MoneyValue } from './types/number';
export type { ContactValue } from './types/reference';
export type { EmbedValue, FileValue } from './types/media';

/** The app as the engine sees it: its live fields (deleted ones take no values). */
export const appFields = (app: PodioApp): engine.AppFields<PodioAppField> => ({ app_id: app.app_id, name: app.config.name, fields: app.fields.filter((f) => f.status !== 'deleted') });

/**
 * Checks an item's `fields` (keyed by field_id or external_id) against the app and plans Podio's
 * body: create requires the required fields; update clears with null or []. `path` is where
 * `fields` sits (`fields`, `items.3.fields`). Finish it with finishItemFields before the write.
 */
export const planItemFields = (app: PodioApp, fields: Record<string, unknown>, mode: engine.WriteMode, path = 'fields'): ItemFieldPlan =>
  engine.planFields(COLLAB_FIELDS, appFields(app), fields, mode, path);

/**
 * updateItem's single-field mode: `field_id` (id or external id) and `field_value`; errors name
 * `field_id` or `field_value`. The value for `PUT /item/{id}/value/{field_id}` is `plan.body[fieldId]`.
 */
export function planItemFieldValue(app: PodioApp, fieldKey: number | string, value: unknown): { fieldId: number; plan: ItemFieldPlan } {
  const a = appFields(app);
  const field = engine.requireField(COLLAB_FIELDS, a, fieldKey, 'field_id');
  const plan = engine.planFields(COLLAB_FIELDS, a, { [String(field.field_id)]: value }, 'update', 'field_value', () => 'field_value');
  return { fieldId: field.field_id, plan };
}

/** `field_ids` (ids or external ids) → field ids; an unknown one is INVALID_PARAMETER at `<path>.<i>` listing the fields. */
export const resolveItemFieldIds = (app: PodioApp, keys: readonly (number | string)[], path = 'field_ids'): Set<number> =>
  engine.resolveFieldIds(COLLAB_FIELDS, appFields(app), keys, path);

/** Which fields a read keeps: by id (from field_ids) and by kind (field_types). */
export interface ItemFieldSelection {
  ids?: ReadonlySet<number>;
  types?: 'all' | 'basic' | 'calculation';
}

/** An item's wire fields → docs/spec.md#collab-item values ({field_id, external_id, label, type, value}), empty ones left out. */
export function itemFieldValues(fields: readonly PodioItemField[] | undefined, select: ItemFieldSelection = {}): engine.FieldValue[] {
  return engine.fieldValues(COLLAB_FIELDS, fields ?? [], (f) => {
    if (select.ids && !select.ids.has(f.field_id)) return false;
    if (select.types === 'basic') return f.type !== 'calculation';
    if (select.types === 'calculation') return f.type === 'calculation';
    return true;
  });
}

/** The short text of one value: money `12.50 EUR`, contacts by name, categories by text, dates as given. */
export const fieldText = (f: Pick<engine.FieldValue, 'type' | 'value'>, o: engine.TextOptions = {}): string => engine.valueText(COLLAB_FIELDS, f, o);

/** `Label: text` per non-empty value (verbose labels add `[#field_id external_id type]`). */
export const itemFieldPairs = (fields: readonly engine.FieldValue[], o: engine.TextOptions = {}): string[] =>
  engine.fieldPairs(COLLAB_FIELDS, fields, o, (f) => (o.verbose ? `${f.label} [#${f.field_id} ${f.external_id} ${f.type}]` : f.label));

/**
 * filterItems' `filters` ({<field_id or external_id>: value}) → Podio's filter map keyed by field_id:
 * text a partial-match string, category option ids or texts (→ ids), date {from, to}, number, money,
 * progress, duration and calculation {from, to}, app item ids, contact profile ids. A field of
 * another type is INVALID_PARAMETER ("cannot be filtered"), as is an unknown key.
 */
export function planItemFilters(app: PodioApp, filters: Record<string, unknown>, path = 'filters'): Record<string, unknown> {
  const a = appFields(app);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    const at = `${path}.${key}`;
    const { field, info, filter } = engine.filterField(COLLAB_FIELDS, a, key, at);
    const expected = filter.expected(field);
    if (String(info.field_id) in out) throw engine.fieldError(at, 'each field once', `field ${info.field_id} "${info.label}" is filtered twice; give it once.`);
    out[String(info.field_id)] = filter.input(value, { field, path: at, expected, fail: (problem, where = at) => { throw engine.fieldError(where, expected, problem); } });
  }
  return out;
}
