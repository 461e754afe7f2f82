import type * as z from 'zod';
import * as engine from '../../../shared/fields/engine';
import { appFields, COLLAB_FIELDS, type PodioApp } from '../fields';
import type { PodioViewWrite } from '../wire';
import { planViewFilters } from './filters';
import type { viewFieldsInput, viewFilterInput, viewGroupingInput, viewLayoutInput, viewSortByInput } from './inputs';

/**
 * What createView, updateView and updateLastView share: the definition keys of a view checked
 * against the app (filters, sort_by, field display settings, grouping) and turned into Podio's body,
 * before any write. Problems are INVALID_PARAMETER naming the key (`sort_by`, `fields.9210`, `grouping.value`).
 */

export interface ViewDefinitionInput {
  filters?: z.output<typeof viewFilterInput>[];
  sort_by?: z.output<typeof viewSortByInput>;
  sort_desc?: boolean;
  layout?: z.output<typeof viewLayoutInput>;
  fields?: z.output<typeof viewFieldsInput>;
  grouping?: z.output<typeof viewGroupingInput>;
}

const SORT_KEYS = ['created_on', 'created_by', 'last_edit_on', 'last_edit_by', 'app_item_id', 'item_id', 'activity', 'priority', 'title'];
/** developers.podio.com/doc/filters: the field types a view sorts by. */
const SORTABLE = new Set(['text', 'location', 'money', 'number', 'calculation', 'progress', 'duration', 'app', 'date', 'contact', 'category', 'question']);
/** The field types Podio groups by (items/calculate: app, member, contact, date, state = category, question). */
const GROUPABLE = new Set(['category', 'question', 'app', 'contact', 'member', 'date']);
const REVISION_GROUPS = ['created_by', 'created_on', 'tags'];

/** Whether a definition names fields, i.e. needs the app schema. */
export const needsApp = (d: ViewDefinitionInput) => Boolean(d.filters?.length || d.sort_by !== undefined || Object.keys(d.fields ?? {}).length || d.grouping);

export function planViewDefinition(app: PodioApp, d: ViewDefinitionInput): PodioViewWrite {
  const a = appFields(app);
  const body: PodioViewWrite = {};
  if (d.filters !== undefined) body.filters = planViewFilters(app, d.filters);
  if (d.sort_by !== undefined) {
    if (typeof d.sort_by === 'string' && SORT_KEYS.includes(d.sort_by)) body.sort_by = d.sort_by;
    else {
      const expected = `one of ${SORT_KEYS.join(', ')}, or the id of a sortable field of app ${app.app_id}`;
      const field = engine.findField(COLLAB_FIELDS, a.fields, d.sort_by);
      if (!field) throw engine.fieldError('sort_by', expected, `${engine.show(d.sort_by)} is neither a sort key nor a field of app ${app.app_id}. Fields: ${engine.fieldKeyList(COLLAB_FIELDS, a.fields)}.`);
      if (!SORTABLE.has(field.type)) throw engine.fieldError('sort_by', expected, `field ${field.field_id} "${field.label}" is a ${field.type} field, which Podio cannot sort by.`);
      body.sort_by = String(field.field_id);
    }
  }
  if (d.sort_desc !== undefined) body.sort_desc = d.sort_desc;
  if (d.layout !== undefined) body.layout = d.layout;
  if (d.fields !== undefined) {
    body.fields = {};
    for (const [key, setting] of Object.entries(d.fields)) {
      const field = engine.requireField(COLLAB_FIELDS, a, key, `fields.${key}`);
      body.fields[String(field.field_id)] = setting;
    }
  }
  if (d.grouping !== undefined) {
    const g = d.grouping;
    let dated: boolean;
    let value: string | number;
    if (g.type === 'revision') {
      if (!REVISION_GROUPS.includes(String(g.value))) throw engine.fieldError('grouping.value', REVISION_GROUPS.join(', '), `a revision grouping groups by ${REVISION_GROUPS.join(', ')}, got ${engine.show(g.value)}.`);
      value = String(g.value);
      dated = value === 'created_on';
    } else {
      const field = engine.requireField(COLLAB_FIELDS, a, g.value, 'grouping.value');
      if (!GROUPABLE.has(field.type)) {
        throw engine.fieldError('grouping.value', 'a category, app, contact or date field', `field ${field.field_id} "${field.label}" is a ${field.type} field; views group by category, relation, contact and date fields.`);
      }
      value = field.field_id;
      dated = field.type === 'date';
    }
    if (g.sub_value !== undefined && !dated) throw engine.fieldError('grouping.sub_value', 'no sub_value: it buckets dates', `sub_value buckets dates (a date field, or revision created_on); drop it for ${engine.show(g.value)}.`);
    body.grouping = { type: g.type, value, ...(dated ? { sub_value: g.sub_value ?? 'date' } : {}) };
  }
  return body;
}
