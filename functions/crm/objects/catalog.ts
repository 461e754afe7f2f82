import { editDistance } from '../../../shared/core/validate';
import { cached } from '../../../shared/core/cache';
import { scopedCache } from '../../../shared/core/store';
import type { ToolContext } from '../../../shared/core/tool';
import type { HubSpotClient } from '../client';
import { nameMap, type NameMap } from '../properties/names';
import type { HubSpotObjectType, HubSpotPipeline } from '../wire';

type Ctx = ToolContext<HubSpotClient>;

/** One property definition, the tools' way (`name` is the crm_ name; `wire` HubSpot's). */
export interface PropInfo {
  name: string;
  wire: string;
  label: string;
  type: string;
  fieldType: string;
  groupName: string;
  options: { label: string; value: string }[];
  /** HubSpot computes it (or it is otherwise not writable). */
  readOnly: boolean;
}

export interface Catalog {
  type: HubSpotObjectType;
  props: PropInfo[];
  /** By crm_ name. */
  byName: Map<string, PropInfo>;
  names: NameMap;
}

/** Property definitions are cached an hour per key and object type (like dbapp's catalog). */
export const CATALOG_TTL_SECONDS = 3600;
const propertiesKey = (type: HubSpotObjectType) => `crm:properties:${type}`;

/** The object type's property definitions, from the Store when cached within the hour. */
export async function catalog(ctx: Ctx, type: HubSpotObjectType): Promise<Catalog> {
  const rows = await cached(ctx, propertiesKey(type), CATALOG_TTL_SECONDS, async () => {
    const { results } = await ctx.client.listProperties(type);
    return results.map((p) => ({
      wire: p.name, label: p.label, type: p.type, fieldType: p.fieldType, groupName: p.groupName,
      options: (p.options ?? []).map((o) => ({ label: o.label, value: o.value })),
      readOnly: !!(p.modificationMetadata?.readOnlyValue || p.calculated),
    }));
  });
  const names = nameMap(rows.map((r) => r.wire));
  const props = rows.map((r) => ({ ...r, name: names.toCrm(r.wire) }));
  return { type, props, byName: new Map(props.map((p) => [p.name, p])), names };
}

/** Forgets the cached definitions (after createProperty adds one). */
export async function forgetCatalog(ctx: Ctx, type: HubSpotObjectType): Promise<void> {
  // The Store has no delete: a null entry reads as a miss and expires at once.
  await scopedCache(ctx.store, ctx.keyHash).put(propertiesKey(type), null, 1);
}

/** The pipelines and stages of deals or tickets, cached like the definitions. */
export function pipelines(ctx: Ctx, type: 'deals' | 'tickets'): Promise<HubSpotPipeline[]> {
  return cached(ctx, `crm:pipelines:${type}`, CATALOG_TTL_SECONDS, async () => (await ctx.client.listPipelines(type)).results);
}

/** Up to five names close to `wanted`: containing it (or contained), or a few edits away; the vendor's own name maps to ours. */
export function closeMatches(wanted: string, c: Catalog): string[] {
  const w = wanted.toLowerCase();
  const direct = c.names.toWire(c.names.toCrm(w)) ? [c.names.toCrm(w)] : [];
  const scored = c.props
    .map((p) => ({ n: p.name, d: p.name.includes(w) || w.includes(p.name) ? 0 : Math.min(editDistance(w, p.name), editDistance(w, p.label.toLowerCase())) }))
    .filter((x) => x.d <= Math.max(2, Math.floor(w.length / 3)))
    .sort((a, b) => a.d - b.d || a.n.localeCompare(b.n))
    .map((x) => x.n);
  return [...new Set([...direct, ...scored])].slice(0, 5);
}
