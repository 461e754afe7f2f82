import * as z from 'zod';
import { invalidParameter } from '../../../shared/core/errors';
import type { ToolContext } from '../../../shared/core/tool';
import type { HubSpotClient } from '../client';
import { crmProperties } from '../properties/names';
import type { HubSpotFilter, HubSpotSearchBody } from '../wire';
import { catalog, pipelines, type Catalog } from './catalog';
import type { ObjectKind } from './kinds';
import { labelsOf, type Labels } from './labels';
import { unknownProperty, wireValue } from './values';

/** HubSpot's own search limits (CRM search docs), checked before the call. */
export const SEARCH_LIMITS = { groups: 5, filtersPerGroup: 6, filters: 18, sorts: 1, window: 10_000 } as const;

const OPERATORS = ['EQ', 'NEQ', 'LT', 'LTE', 'GT', 'GTE', 'BETWEEN', 'IN', 'NOT_IN', 'HAS_PROPERTY', 'NOT_HAS_PROPERTY', 'CONTAINS_TOKEN', 'NOT_CONTAINS_TOKEN'] as const;
const scalar = z.union([z.string(), z.number(), z.boolean()]);

const filter = z.strictObject({
  propertyName: z.string().min(1).describe('The property to test (crm_ names, as getProperties lists them).'),
  operator: z.enum(OPERATORS).describe('EQ, NEQ, LT, LTE, GT, GTE, BETWEEN (value..highValue), IN / NOT_IN (values), HAS_PROPERTY / NOT_HAS_PROPERTY (no value), CONTAINS_TOKEN / NOT_CONTAINS_TOKEN (a word; * as wildcard).'),
  value: scalar.optional().describe('The value to compare with (dates as YYYY-MM-DD or Unix ms; options by value or label).'),
  highValue: scalar.optional().describe('The upper bound of BETWEEN (inclusive).'),
  values: z.array(scalar).min(1).optional().describe('The values of IN / NOT_IN.'),
});

/** The search parameters every searchX tool takes; `limit` defaults per object (docs/spec.md#limits). */
export function searchInput(kind: ObjectKind) {
  return z.strictObject({
    query: z.string().min(1).max(3000).optional().describe(`Full-text search over the ${kind.type}' default searchable properties (each word matches the start of a word).`),
    filter_groups: z
      .array(z.strictObject({ filters: z.array(filter).min(1).max(SEARCH_LIMITS.filtersPerGroup).describe(`Filters AND-combined (at most ${SEARCH_LIMITS.filtersPerGroup}).`) }))
      .max(SEARCH_LIMITS.groups)
      .optional()
      .describe(`Groups OR-combined, at most ${SEARCH_LIMITS.groups} with ${SEARCH_LIMITS.filters} filters in all: [{filters:[{propertyName, operator, value}]}].`),
    sorts: z
      .array(z.strictObject({
        propertyName: z.string().min(1).describe('The property to sort by.'),
        direction: z.enum(['ASCENDING', 'DESCENDING']).default('ASCENDING').describe('ASCENDING (default) or DESCENDING.'),
      }))
      .max(SEARCH_LIMITS.sorts)
      .optional()
      .describe('One sort rule (HubSpot sorts by one property); default: by id.'),
    return_properties: z.array(z.string().min(1)).min(1).optional().describe(`Properties to return (default ${kind.defaultProperties.join(', ')}).`),
    limit: z.number().int().min(1).max(100).default(kind.searchLimit).describe(`Results per page, 1-100 (default ${kind.searchLimit}).`),
    after: z.string().regex(/^\d+$/, 'a cursor of a previous page').optional().describe('The cursor of the previous page ("after" of its answer), to get the next one.'),
  });
}

export type SearchInput = z.output<ReturnType<typeof searchInput>>;

export interface SearchResult {
  total: number;
  count: number;
  results: { id: string; properties: Record<string, string | null>; labels?: Labels }[];
  /** Pass as `after` for the next page. */
  after?: string;
  /** True when HubSpot's 10,000-result ceiling stops the paging before the end. */
  ceiling?: boolean;
}

function wireName(c: Catalog, name: string, parameter: string): string {
  const w = c.names.toWire(name);
  if (!w) unknownProperty(parameter, name, c);
  return w;
}

/** Pipeline and stage ids by id or label, for filters on them. */
type StageIds = { pipeline: string; stage: string; find(name: string, raw: string, parameter: string): string | undefined };

async function stageIds(ctx: ToolContext<HubSpotClient>, kind: ObjectKind): Promise<StageIds | undefined> {
  if (!kind.pipeline) return undefined;
  const list = await pipelines(ctx, kind.type as 'deals' | 'tickets');
  const { pipeline, stage } = kind.pipeline;
  return {
    pipeline,
    stage,
    find(name, raw, parameter) {
      if (name !== pipeline && name !== stage) return undefined;
      const lower = raw.toLowerCase();
      const items = name === pipeline ? list.map((p) => ({ id: p.id, label: p.label })) : list.flatMap((p) => p.stages.map((s) => ({ id: s.id, label: `${s.label}`, of: p.label })));
      const hit = items.find((x) => x.id === raw) ?? items.find((x) => x.label.toLowerCase() === lower);
      if (!hit) {
        throw invalidParameter(parameter, `a ${name === pipeline ? 'pipeline' : 'stage'} id or label`, `${parameter}: no ${name === pipeline ? 'pipeline' : 'stage'} "${raw}"; use one of: ${items.map((x) => `${x.id} (${x.label})`).join(', ')}.`);
      }
      return hit.id;
    },
  };
}

/** A filter value in HubSpot's form: options by value (labels mapped), pipelines and stages by id or label, dates as Unix ms, numbers and bools as strings. */
function filterValue(c: Catalog, name: string, raw: string | number | boolean, parameter: string, stages?: StageIds): string {
  const staged = stages?.find(name, String(raw), parameter);
  if (staged !== undefined) return staged;
  const p = c.byName.get(name)!;
  // Free text matches on CONTAINS_TOKEN (no option check); other operators compare with stored values.
  if (p.type === 'string' || p.type === 'phone_number') return String(raw);
  if (p.type === 'enumeration' && p.fieldType === 'checkbox') return wireValue({ ...p, fieldType: 'select' }, String(raw), parameter);
  return wireValue(p, typeof raw === 'boolean' ? String(raw) : raw, parameter);
}

/** The search body, checked: property names, operators' values, HubSpot's limits. */
export async function searchBody(ctx: ToolContext<HubSpotClient>, kind: ObjectKind, input: SearchInput): Promise<{ body: HubSpotSearchBody; c: Catalog }> {
  const c = await catalog(ctx, kind.type);
  const stages = await stageIds(ctx, kind);
  const groups = input.filter_groups ?? [];
  const total = groups.reduce((n, g) => n + g.filters.length, 0);
  if (total > SEARCH_LIMITS.filters) {
    throw invalidParameter('filter_groups', `at most ${SEARCH_LIMITS.filters} filters in all`, `filter_groups holds ${total} filters; HubSpot allows ${SEARCH_LIMITS.filters} in all (${SEARCH_LIMITS.groups} groups of up to ${SEARCH_LIMITS.filtersPerGroup}). Merge conditions with IN or BETWEEN.`);
  }
  const filterGroups = groups.map((g, gi) => ({
    filters: g.filters.map((f, fi): HubSpotFilter => {
      const at = `filter_groups[${gi}].filters[${fi}]`;
      const propertyName = wireName(c, f.propertyName, `${at}.propertyName`);
      const out: HubSpotFilter = { propertyName, operator: f.operator };
      const needs = (what: 'value' | 'highValue' | 'values', ok: boolean) => {
        if (!ok) throw invalidParameter(`${at}.${what}`, `${what} for ${f.operator}`, `${at}: ${f.operator} needs ${what}.`);
      };
      const forbid = (what: string, given: boolean) => {
        if (given) throw invalidParameter(`${at}.${what}`, `no ${what} with ${f.operator}`, `${at}: ${f.operator} takes no ${what}; leave it out.`);
      };
      switch (f.operator) {
        case 'HAS_PROPERTY':
        case 'NOT_HAS_PROPERTY':
          forbid('value', f.value !== undefined);
          forbid('values', f.values !== undefined);
          break;
        case 'IN':
        case 'NOT_IN':
          needs('values', f.values !== undefined);
          forbid('value', f.value !== undefined);
          out.values = f.values!.map((v, i) => filterValue(c, f.propertyName, v, `${at}.values[${i}]`, stages));
          break;
        case 'BETWEEN':
          needs('value', f.value !== undefined);
          needs('highValue', f.highValue !== undefined);
          out.value = filterValue(c, f.propertyName, f.value!, `${at}.value`, stages);
          out.highValue = filterValue(c, f.propertyName, f.highValue!, `${at}.highValue`, stages);
          break;
        case 'CONTAINS_TOKEN':
        case 'NOT_CONTAINS_TOKEN':
          needs('value', f.value !== undefined);
          out.value = String(f.value);
          break;
        default:
          needs('value', f.value !== undefined);
          forbid('values', f.values !== undefined);
          out.value = filterValue(c, f.propertyName, f.value!, `${at}.value`, stages);
      }
      return out;
    }),
  }));
  const offset = input.after ? Number(input.after) : 0;
  if (offset + input.limit > SEARCH_LIMITS.window) {
    throw invalidParameter('after', `after + limit ≤ ${SEARCH_LIMITS.window}`, `HubSpot's search returns at most the first ${SEARCH_LIMITS.window.toLocaleString('en-US')} results of a query; after ${input.after} + limit ${input.limit} goes past them. Narrow the filters (e.g. a date range on createdate) and page again.`);
  }
  const asked = input.return_properties ?? kind.defaultProperties;
  const properties = asked.map((n, i) => wireName(c, n, input.return_properties ? `return_properties[${i}]` : 'return_properties'));
  if (kind.pipeline) for (const n of [kind.pipeline.pipeline, kind.pipeline.stage]) properties.push(c.names.toWire(n)!);
  return {
    c,
    body: {
      filterGroups,
      sorts: (input.sorts ?? []).map((s, i) => ({ propertyName: wireName(c, s.propertyName, `sorts[${i}].propertyName`), direction: s.direction })),
      properties: [...new Set(properties)],
      limit: input.limit,
      ...(input.after ? { after: input.after } : {}),
      ...(input.query ? { query: input.query } : {}),
    },
  };
}

/** Runs a search of one object type: checked body, HubSpot's answer in crm_ names with stage and pipeline labels. */
export async function runSearch(ctx: ToolContext<HubSpotClient>, kind: ObjectKind, input: SearchInput): Promise<SearchResult> {
  const { body } = await searchBody(ctx, kind, input);
  const page = await ctx.client.search(kind.type, body);
  const labels = await labelsOf(ctx, kind);
  const next = page.paging?.next?.after;
  const reached = (input.after ? Number(input.after) : 0) + page.results.length;
  return {
    total: page.total,
    count: page.results.length,
    results: page.results.map((r) => {
      const properties = crmProperties(r.properties);
      const l = labels(properties);
      return { id: r.id, properties, ...(l ? { labels: l } : {}) };
    }),
    ...(next ? { after: next } : {}),
    ...(!next && page.total > reached ? { ceiling: true } : {}),
  };
}
