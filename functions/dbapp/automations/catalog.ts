/** The automation catalog (docs/vendors/tape.md#automation-discovery): trigger and action types, a field type's filter operators; cached per key. */
import { cached } from '../../../shared/core/cache';
import type { ToolContext } from '../../../shared/core/tool';
import type { TapeClient } from '../client';
import type { TapeCatalogAction, TapeCatalogTrigger, TapeFilterOperator } from '../wire';

// --- the catalog (meta endpoints), one hour in the Store per key ---
export type CatalogEntry = { type: string; label: string; description?: string; group?: string; config_schema?: Record<string, unknown> };
export type Catalog = { triggers?: CatalogEntry[]; actions?: CatalogEntry[] } | { field_type: string; filter_operators: TapeFilterOperator[] };
export type CatalogContext = Pick<ToolContext<TapeClient>, 'client' | 'store' | 'keyHash'>;

const CATALOG_TTL_SECONDS = 3600;

function catalogEntry(e: TapeCatalogTrigger | TapeCatalogAction, detail: boolean): CatalogEntry {
  return {
    type: e.type,
    ...('group' in e ? { group: e.group } : {}),
    label: e.label,
    ...(e.description ? { description: e.description } : {}),
    ...(detail && e.config_schema ? { config_schema: e.config_schema } : {}),
  };
}

/** Trigger/action types (detail: with config schemas) or a field type's filter operators, cached per key hash and arguments. */
export async function loadCatalog(ctx: CatalogContext, q: { section: 'all' | 'triggers' | 'actions'; detail: boolean; field_type?: string }): Promise<Catalog> {
  const key = q.field_type !== undefined ? `automation-catalog#filter#${q.field_type}` : `automation-catalog#${q.section}#${q.detail ? 'detail' : 'brief'}`;
  return cached(ctx, key, CATALOG_TTL_SECONDS, async (): Promise<Catalog> => {
    if (q.field_type !== undefined) {
      const r = await ctx.client.listAutomationFilterOperators(q.field_type);
      return { field_type: r.field_type, filter_operators: r.operators };
    }
    const [triggers, actions] = await Promise.all([
      q.section === 'actions' ? undefined : ctx.client.listAutomationTriggerTypes(),
      q.section === 'triggers' ? undefined : ctx.client.listAutomationActionTypes(),
    ]);
    return {
      ...(triggers ? { triggers: triggers.triggers.map((t) => catalogEntry(t, q.detail)) } : {}),
      ...(actions ? { actions: actions.actions.map((a) => catalogEntry(a, q.detail)) } : {}),
    };
  });
}
