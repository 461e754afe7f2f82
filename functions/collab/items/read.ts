/**
 * What the item read tools share: their input fragments, reading one item (by item_id or by its
 * podio.com URL, with a hint on 404/410), the field selection, and filterItems' filters and sort
 * checked against the app before the call (aggregateItems uses the same filters).
 */
import * as z from 'zod';
import { invalidParameter, ToolError } from '../../../shared/core/errors';
import { fieldError, isId, show } from '../../../shared/fields/engine';
import { fieldKeys, fieldKinds } from '../../../shared/core/params';
import { appFields, planItemFilters, resolveItemFieldIds, type ItemFieldSelection, type PodioApp, type PodioAppField } from '../fields';
import type { FilterContext } from '../fields/table';
import { range } from '../fields/types/common';
import { dateRangeFilter } from '../fields/types/date';
import type { Ctx } from '../params';
import type { PodioItem } from '../wire';

// --- input fragments ---

export const fieldIdsInput = fieldKeys('Only these fields, by field_id or external_id (getApp lists them); an unknown key is refused with the list of fields.');

export const fieldTypesInput = fieldKinds('Which fields: "all" (default), "basic" (every field but calculations) or "calculation" (only calculation fields).');

export const verboseInput = z.boolean().default(false).describe('Text with field ids, external ids and types, and item metadata (app, revision, last change, link) (default false).');

/** Filter keys besides fields (Podio's "system" filters), with their shapes. */
export const SYSTEM_FILTERS: Record<string, string> = {
  created_on: '{"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}',
  last_edit_on: '{"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}',
  created_by: 'user ids (one or an array; getOrganizationMembers lists them)',
  last_edit_by: 'user ids (one or an array)',
  app_item_id: '{"from": n, "to": n} of the per-app numbers',
  tags: 'a tag or an array of tags (an item with any of them matches)',
};

export const filtersInput = z
  .record(z.string(), z.unknown())
  .optional()
  .describe(
    'Filters keyed by field_id or external_id, all of which must hold: text field → a string it contains (partial match); category → option ids or texts; ' +
      'date → {"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}; number, money, progress, duration → {"from", "to"}; calculation → like its return type; ' +
      'app relation → item ids; contact → profile ids. Also: ' +
      Object.entries(SYSTEM_FILTERS).map(([k, v]) => `${k} → ${v}`).join('; ') +
      '. Either bound of a range may be left out.',
  );

// --- one item ---

/** An item URL: https://podio.com/<org>/<space>/apps/<app>/items/<app_item_id>. */
const ITEM_URL = /^https?:\/\/(?:www\.)?podio\.com\/([^/?#\s]+)\/([^/?#\s]+)\/apps\/([^/?#\s]+)\/items\/(\d+)\/?(?:[?#].*)?$/i;
export const ITEM_URL_FORM = 'https://podio.com/<org>/<space>/apps/<app>/items/<number>';

export interface ItemUrl {
  org: string;
  space: string;
  app: string;
  /** The app-scoped number in the URL: not an item_id. */
  appItemId: number;
}

export function parseItemUrl(url: string, parameter = 'podio_url'): ItemUrl {
  const m = ITEM_URL.exec(url.trim());
  if (!m) {
    throw invalidParameter(parameter, `an item URL ${ITEM_URL_FORM}`, `Parameter "${parameter}": ${show(url)} is not a Podio item URL. Expected ${ITEM_URL_FORM} (open the item in Podio and copy its address), or pass item_id instead.`);
  }
  return { org: decodeURIComponent(m[1]!), space: decodeURIComponent(m[2]!), app: decodeURIComponent(m[3]!), appItemId: Number(m[4]) };
}

/** A 404/410 of an item read → NOT_FOUND saying what to check; other errors as they are. */
function withItemHint(err: unknown, what: string, parameter: string, hint: string): never {
  if (err instanceof ToolError && err.code === 'NOT_FOUND') {
    const gone = err.details.upstream_status === 410;
    const message = gone ? `${what} was deleted (Podio answers 410 Gone): a deleted item cannot be read or changed.` : `${what} was not found, or the key cannot see it. ${hint}`;
    throw new ToolError('NOT_FOUND', message, { ...err.details, parameter });
  }
  throw err;
}

/**
 * A call on an item by its item_id, a 404 explained (the global item_id, not the number in a URL)
 * and a 410 said to be a deleted item.
 */
export async function onItem<T>(itemId: number, call: () => Promise<T>, parameter = 'item_id'): Promise<T> {
  try {
    return await call();
  } catch (err) {
    return withItemHint(err, `Item ${itemId}`, parameter, 'item_id is the global id (filterItems lists it), not the number at the end of an item URL — getItem takes that URL as podio_url.');
  }
}

/** GET /item/{id}, errors explained (onItem). */
export const readItem = (ctx: Pick<Ctx, 'client'>, itemId: number, parameter = 'item_id'): Promise<PodioItem> => onItem(itemId, () => ctx.client.getItem(itemId), parameter);

/** A URL → its app (by the URL's labels) → the item by its app-scoped number. Two calls; the app comes back too. */
export async function readItemByUrl(ctx: Pick<Ctx, 'client'>, url: string, parameter = 'podio_url'): Promise<{ item: PodioItem; app: PodioApp }> {
  const u = parseItemUrl(url, parameter);
  let app: PodioApp;
  try {
    app = await ctx.client.getAppByLabels(u.org, u.space, u.app);
  } catch (err) {
    return withItemHint(err, `The app of ${url}`, parameter, `No app "${u.app}" in space "${u.space}" of organization "${u.org}" that this key can see; check the URL.`);
  }
  try {
    return { item: await ctx.client.getItemByAppItemId(app.app_id, u.appItemId), app };
  } catch (err) {
    return withItemHint(err, `Item ${u.appItemId} of app ${app.app_id} "${app.config.name}"`, parameter, 'Check the number at the end of the URL.');
  }
}

/** Which fields a read keeps: field_ids resolved against the app (ids or external ids), field_types as given. */
export function fieldSelection(app: PodioApp | undefined, fieldIds: readonly (number | string)[] | undefined, types: ItemFieldSelection['types']): ItemFieldSelection {
  return { ...(fieldIds && app ? { ids: resolveItemFieldIds(app, fieldIds) } : {}), types };
}

// --- filters and sort ---

/** A stand-in field for a system key, so the date/number range checks of the field table serve it too. */
const systemField = (key: string, type: string): PodioAppField => ({ field_id: 0, external_id: key, type, label: key, config: { label: key } });

function systemFilter(key: string, value: unknown, path: string): unknown {
  const expected = SYSTEM_FILTERS[key]!;
  const fail = (problem: string, at = path): never => {
    throw fieldError(at, expected, problem);
  };
  const cx = (type: string): FilterContext => ({ field: systemField(key, type), path, expected, fail });
  switch (key) {
    case 'created_on':
    case 'last_edit_on':
      return dateRangeFilter.input(value, cx('date'));
    case 'app_item_id':
      return range(value, cx('number'), (b, at) => (isId(b) ? b : fail(`${show(b)} is not a positive whole number.`, at)));
    case 'created_by':
    case 'last_edit_by': {
      const list = Array.isArray(value) ? value : [value];
      if (!list.length) fail('pass at least one user id.');
      // Podio reads these as auth objects: who did it, a user.
      return list.map((v, i) => (isId(v) ? { type: 'user', id: v } : fail(`${show(v)} is not a user id (a positive integer).`, Array.isArray(value) ? `${path}.${i}` : path)));
    }
    default: {
      const list = Array.isArray(value) ? value : [value];
      if (!list.length || list.some((t) => typeof t !== 'string' || t.trim() === '')) fail(`tags are non-empty strings, got ${show(value)}.`);
      return list.map((t) => (t as string).trim());
    }
  }
}

/**
 * filters → Podio's filter map: field keys (field_id or external_id) through the field table
 * (planItemFilters), system keys here. A field whose external_id equals a system key wins (the caller
 * named it); every problem is INVALID_PARAMETER at `filters.<key>` before any call.
 */
export function planFilters(app: PodioApp, filters: Record<string, unknown> | undefined, path = 'filters'): Record<string, unknown> | undefined {
  if (!filters || Object.keys(filters).length === 0) return undefined;
  const fieldKeys: Record<string, unknown> = {};
  const out: Record<string, unknown> = {};
  const live = appFields(app).fields;
  for (const [key, value] of Object.entries(filters)) {
    const isField = live.some((f) => String(f.field_id) === key.trim() || f.external_id === key);
    if (!isField && key in SYSTEM_FILTERS) out[key] = systemFilter(key, value, `${path}.${key}`);
    else fieldKeys[key] = value;
  }
  return { ...out, ...planItemFilters(app, fieldKeys, path) };
}

/** Podio's own sort keys (docs/vendors/podio.md#items); a field sorts by field_id. */
export const SORT_KEYS = ['created_on', 'last_edit_on', 'app_item_id', 'item_id', 'title', 'created_by'] as const;
/** Field types Podio can order items by. */
const SORTABLE_TYPES = ['text', 'number', 'money', 'progress', 'duration', 'calculation', 'date', 'category'];

export const sortByInput = z
  .union([z.number().int().positive(), z.string().min(1)])
  .optional()
  .describe(`Order by a field (field_id or external_id of a ${SORTABLE_TYPES.join(', ')} field) or by ${SORT_KEYS.join(', ')} (default created_on, newest first).`);

/** sort_by → Podio's key: a system key as it is, a field key → its field_id; other types refused. */
export function planSort(app: PodioApp, sortBy: number | string | undefined): string | undefined {
  if (sortBy === undefined) return undefined;
  const key = String(sortBy).trim();
  const field = appFields(app).fields.find((f) => String(f.field_id) === key || f.external_id === key);
  if (!field) {
    if ((SORT_KEYS as readonly string[]).includes(key)) return key;
    const fields = appFields(app).fields.filter((f) => SORTABLE_TYPES.includes(f.type)).map((f) => `${f.external_id} (${f.field_id})`);
    throw invalidParameter('sort_by', `one of ${SORT_KEYS.join(', ')} or a field`, `Parameter "sort_by": ${show(sortBy)} is neither a sort key (${SORT_KEYS.join(', ')}) nor a field of app ${app.app_id}. Sortable fields: ${fields.join(', ')}.`);
  }
  if (!SORTABLE_TYPES.includes(field.type)) {
    throw invalidParameter('sort_by', `a field of type ${SORTABLE_TYPES.join(', ')}`, `Parameter "sort_by": "${field.label}" is a ${field.type} field; Podio orders items by ${SORTABLE_TYPES.join(', ')} fields or by ${SORT_KEYS.join(', ')}.`);
  }
  return String(field.field_id);
}
