/**
 * The five record tools (create, get, update, delete, search), written once for the four object
 * types: deals, contacts, companies and tickets differ only in their ObjectKind (names, defaults,
 * required properties, pipeline).
 */
import * as z from 'zod';
import { ToolError } from '../../../shared/core/errors';
import { listFooter } from '../../../shared/core/render';
import type { ToolContext } from '../../../shared/core/tool';
import type { HubSpotClient } from '../client';
import { crmProperties } from '../properties/names';
import { recordId, returnProperties, valuesInput } from '../params';
import { crmTool } from '../tool';
import type { HubSpotRecord } from '../wire';
import { catalog } from './catalog';
import { readDefaults, type ObjectKind } from './kinds';
import { labelsOf, type Labels } from './labels';
import { recordLine, shortValue } from './render';
import { runSearch, searchInput, SEARCH_LIMITS, type SearchResult } from './search';
import { checkValues, unknownProperty } from './values';
import { linkCompany, type PlacedCompany } from './company';

type Ctx = ToolContext<HubSpotClient>;

/** A record as the tools answer it: HubSpot's shape with crm_ names, plus stage and pipeline labels. */
export interface CrmRecord {
  id: string;
  properties: Record<string, string | null>;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  url?: string;
  labels?: Labels;
}

const idParam = (kind: ObjectKind) => `${kind.singular}_id`;
/** Soft delete: HubSpot keeps archived records restorable for 90 days. */
const RESTORE_HINT = "restorable from HubSpot's recycling bin (Settings › Data management › Deleted objects) for 90 days";

/** `keep`: only these properties (a create answers with everything HubSpot computed too). */
async function toRecord(ctx: Ctx, kind: ObjectKind, r: HubSpotRecord, keep?: string[]): Promise<CrmRecord> {
  let properties = crmProperties(r.properties);
  if (keep) properties = Object.fromEntries(Object.entries(properties).filter(([k]) => keep.includes(k) || k === 'crm_object_id'));
  const labels = (await labelsOf(ctx, kind))(properties);
  return { id: r.id, properties, createdAt: r.createdAt, updatedAt: r.updatedAt, archived: r.archived, ...(r.url ? { url: r.url } : {}), ...(labels ? { labels } : {}) };
}

/** A NOT_FOUND that says whether the record was archived (and so restorable) or never existed. */
async function notFound(ctx: Ctx, kind: ObjectKind, id: string, err: unknown): Promise<never> {
  if (!(err instanceof ToolError) || err.code !== 'NOT_FOUND') throw err;
  const archived = await ctx.client.getRecord(kind.type, id, [], true).catch(() => undefined);
  if (archived?.archived) {
    throw new ToolError('NOT_FOUND', `${kind.Singular} #${id} was deleted (archived${archived.archivedAt ? ` ${shortValue(archived.archivedAt)}` : ''}); it is ${RESTORE_HINT}.`, {
      [idParam(kind)]: id, archived: true, upstream_status: 404,
    });
  }
  throw new ToolError('NOT_FOUND', `No ${kind.singular} #${id}; search${kind.Singular === 'Company' ? 'Companies' : `${kind.Singular}s`} finds ids.`, { [idParam(kind)]: id, upstream_status: 404 });
}

/** Read properties: the defaults plus the asked ones, in HubSpot's names (unknown names refused with close matches). */
async function readNames(ctx: Ctx, kind: ObjectKind, extra: string[] | undefined): Promise<string[]> {
  const c = await catalog(ctx, kind.type);
  const names = [...readDefaults(kind), ...(kind.pipeline ? [kind.pipeline.pipeline, kind.pipeline.stage] : [])].map((n) => c.names.toWire(n)).filter((n): n is string => !!n);
  (extra ?? []).forEach((n, i) => names.push(c.names.toWire(n) ?? unknownProperty(`return_properties[${i}]`, n, c)));
  return [...new Set(names)];
}

const companyLine = (c: PlacedCompany) => `primary company #${c.id} ${c.name} (${c.created ? 'created for this contact' : 'existing company matched'})`;

function recordText(kind: ObjectKind, r: CrmRecord): string {
  const when = `created ${shortValue(r.createdAt)}, updated ${shortValue(r.updatedAt)}`;
  return [recordLine(kind, r), r.url ? `${when} — ${r.url}` : when].join('\n');
}

// --- create -----------------------------------------------------------------------------------

export interface Created {
  id: string;
  record?: CrmRecord;
  /** Contacts created with `company`: the company linked as primary, and whether it was made for this contact. */
  company?: PlacedCompany;
}

export function createObjectTool(kind: ObjectKind) {
  const input = z.strictObject({
    values: valuesInput(kind, true),
    id_only: z.boolean().default(true).describe('true (default): answer with the new id only; false: with the whole record.'),
  });
  return crmTool({
    name: `create${kind.Singular}`,
    description:
      `Create a ${kind.singular} in HubSpot from property values, checked first against the ${kind.type}' property definitions (unknown names with close matches, options by value or label, numbers, dates, read-only properties)` +
      (kind.required.all ? `; ${kind.required.all.join(', ')} required` : '') +
      (kind.pipeline ? `; ${kind.pipeline.pipeline} defaults to the first pipeline and ${kind.pipeline.stage} to its first stage, a stage must belong to its pipeline` : '') +
      (kind.type === 'contacts' ? '; with `company`, the company of that name is matched (or created) and linked as the primary company' : '') +
      '. Returns the new id. Not idempotent: a second call creates a second record.',
    input,
    annotations: { readOnly: false, destructive: false, idempotent: false },
    async run(inp, ctx): Promise<Created> {
      const checked = await checkValues(ctx, kind, inp.values, { create: true });
      const made = await linkCompany(ctx, kind, checked.properties, () => ctx.client.createRecord(kind.type, checked.properties), true);
      const { company } = made;
      return { id: made.id, ...(inp.id_only ? {} : { record: await toRecord(ctx, kind, made.record, [...readDefaults(kind), ...(kind.pipeline ? [kind.pipeline.pipeline, kind.pipeline.stage] : []), ...checked.names]) }), ...(company ? { company } : {}) };
    },
    text: (r) =>
      [
        r.record ? recordLine(kind, r.record) : `created ${kind.singular} #${r.id}`,
        ...(r.company ? [companyLine(r.company)] : []),
      ].join('\n'),
    example: { input: { values: kind.example.values }, result: { id: kind.example.id } },
  });
}

// --- get --------------------------------------------------------------------------------------

export function getObjectTool(kind: ObjectKind) {
  const input = z.strictObject({
    [idParam(kind)]: recordId(`The ${kind.singular}'s id (search${kind.type === 'companies' ? 'Companies' : `${kind.Singular}s`} finds it).`),
    return_properties: returnProperties(readDefaults(kind)),
  }) as z.ZodObject<Record<string, z.ZodType>> as unknown as z.ZodType<{ return_properties?: string[] } & Record<string, string>>;
  return crmTool({
    name: `get${kind.Singular}`,
    description:
      `Read one ${kind.singular} by id: its default properties (${readDefaults(kind).join(', ')}) plus return_properties, with crm_ names` +
      (kind.pipeline ? ', the stage and pipeline shown with their labels' : '') +
      `. A deleted (archived) ${kind.singular} answers NOT_FOUND saying it can be restored. Read-only.`,
    input,
    annotations: { readOnly: true, destructive: false, idempotent: true },
    async run(inp, ctx): Promise<CrmRecord> {
      const id = inp[idParam(kind)] as string;
      const names = await readNames(ctx, kind, inp.return_properties);
      const r = await ctx.client.getRecord(kind.type, id, names).catch((e: unknown) => notFound(ctx, kind, id, e));
      return toRecord(ctx, kind, r);
    },
    text: (r) => recordText(kind, r),
    example: {
      input: { [idParam(kind)]: kind.example.id } as { return_properties?: string[] } & Record<string, string>,
      result: { id: kind.example.id, properties: { ...kind.example.properties, crm_object_id: kind.example.id }, createdAt: '2025-08-16T17:00:00.000Z', updatedAt: '2025-09-01T10:30:00.000Z', archived: false },
    },
  });
}

// --- update -----------------------------------------------------------------------------------

export interface Updated {
  id: string;
  updated: true;
  /** The properties set (crm_ names). */
  changed: string[];
  /** Contacts updated with `company`: the company now linked as primary, and whether it was made for this contact. */
  company?: PlacedCompany;
}

export function updateObjectTool(kind: ObjectKind) {
  const input = z.strictObject({
    [idParam(kind)]: recordId(`The ${kind.singular}'s id.`),
    values: valuesInput(kind, false),
  }) as z.ZodObject<Record<string, z.ZodType>> as unknown as z.ZodType<{ values: Record<string, string | number | boolean | string[] | null> } & Record<string, unknown>>;
  return crmTool({
    name: `update${kind.Singular}`,
    description:
      `Set properties of one ${kind.singular}; only the given ones change (null clears). Values are checked like create${kind.Singular}'s` +
      (kind.pipeline ? `; a new ${kind.pipeline.stage} must be a stage of the ${kind.singular}'s pipeline (or pass ${kind.pipeline.pipeline} too)` : '') +
      (kind.type === 'contacts' ? '; with `company`, the company of that name is matched (or created) and linked as the primary company, as createContact does' : '') +
      '. Idempotent: the same values twice leave the same record.',
    input,
    // An update overwrites values (HubSpot keeps them in the property history): destructive, as every update is.
    annotations: { readOnly: false, destructive: true, idempotent: true },
    async run(inp, ctx): Promise<Updated> {
      const id = inp[idParam(kind)] as string;
      const checked = await checkValues(ctx, kind, inp.values, { create: false, id }).catch((e: unknown) => notFound(ctx, kind, id, e));
      const { company } = await linkCompany(ctx, kind, checked.properties, () => ctx.client.updateRecord(kind.type, id, checked.properties).catch((e: unknown) => notFound(ctx, kind, id, e)), false);
      return { id, updated: true, changed: checked.names, ...(company ? { company } : {}) };
    },
    text: (r) => [`updated ${kind.singular} #${r.id}: ${r.changed.join(', ')}`, ...(r.company ? [companyLine(r.company)] : [])].join('\n'),
    example: {
      input: { [idParam(kind)]: kind.example.id, values: kind.example.values } as { values: Record<string, string> } & Record<string, unknown>,
      result: { id: kind.example.id, updated: true, changed: Object.keys(kind.example.values) },
    },
  });
}

// --- delete -----------------------------------------------------------------------------------

export function deleteObjectTool(kind: ObjectKind) {
  const key = `${kind.singular}Id`;
  const input = z.strictObject({ [idParam(kind)]: recordId(`The ${kind.singular}'s id.`) }) as z.ZodObject<Record<string, z.ZodType>> as unknown as z.ZodType<Record<string, string>>;
  return crmTool({
    name: `delete${kind.Singular}`,
    description:
      `Delete (archive) one ${kind.singular}. The delete is soft: the ${kind.singular} is ${RESTORE_HINT}, and reads of it answer NOT_FOUND meanwhile. ` +
      `Idempotent: deleting an already deleted ${kind.singular} answers success again (with already_deleted: true); an id that never existed answers NOT_FOUND.`,
    input,
    annotations: { readOnly: false, destructive: true, idempotent: true },
    async run(inp, ctx): Promise<Record<string, unknown>> {
      const id = inp[idParam(kind)]!;
      // HubSpot answers 204 to any id: read first so a wrong id is not reported as deleted, and an archived one as deleted again.
      const live = await ctx.client.getRecord(kind.type, id, []).then(
        () => true,
        (e: unknown) => (e instanceof ToolError && e.code === 'NOT_FOUND' ? ctx.client.getRecord(kind.type, id, [], true).then((r) => (r.archived ? false : notFound(ctx, kind, id, e)), () => notFound(ctx, kind, id, e)) : Promise.reject(e)),
      );
      if (!live) return { deleted: true, [key]: id, already_deleted: true };
      await ctx.client.archiveRecord(kind.type, id);
      return { deleted: true, [key]: id };
    },
    text: (r) => `deleted ${kind.singular} #${String(r[key])} (${r.already_deleted ? 'it was already deleted; ' : ''}archived: ${RESTORE_HINT})`,
    example: { input: { [idParam(kind)]: kind.example.id }, result: { deleted: true, [key]: kind.example.id } },
  });
}

// --- search -----------------------------------------------------------------------------------

export function searchObjectTool(kind: ObjectKind) {
  const plural = kind.type === 'companies' ? 'Companies' : `${kind.Singular}s`;
  return crmTool({
    name: `search${plural}`,
    description:
      `Search ${kind.type}: full-text query, filter_groups (groups OR-combined, filters AND-combined; every HubSpot operator), one sort, return_properties ` +
      `(default ${kind.defaultProperties.join(', ')}), limit (default ${kind.searchLimit}, max 100) and the after cursor. HubSpot's limits are checked first: ` +
      `${SEARCH_LIMITS.groups} groups, ${SEARCH_LIMITS.filtersPerGroup} filters per group, ${SEARCH_LIMITS.filters} in all, and paging stops at ${SEARCH_LIMITS.window.toLocaleString('en-US')} results. Read-only.`,
    input: searchInput(kind),
    annotations: { readOnly: true, destructive: false, idempotent: true },
    run: (inp, ctx): Promise<SearchResult> => runSearch(ctx, kind, inp),
    text: (r) => {
      const footer = listFooter({ shown: r.count, total: r.total, noun: kind.singular, nouns: kind.type, ...(r.after ? { next: { param: 'after', value: r.after } } : {}) });
      const ceiling = r.ceiling ? `\nHubSpot's search stops at ${SEARCH_LIMITS.window.toLocaleString('en-US')} results: narrow the filters (e.g. a createdate range) to reach the rest` : '';
      return [...r.results.map((x) => recordLine(kind, x)), footer].join('\n') + ceiling;
    },
    // Full text with a sort and a page size, instead of filters.
    moreInputs: [{ query: 'acme', sorts: [{ propertyName: 'createdate', direction: 'DESCENDING' }], limit: 20 }],
    example: {
      input: { filter_groups: [{ filters: [{ propertyName: kind.defaultProperties[0]!, operator: 'CONTAINS_TOKEN', value: 'acme' }] }] },
      result: { total: 1, count: 1, results: [{ id: kind.example.id, properties: kind.example.properties }] },
    },
  });
}
